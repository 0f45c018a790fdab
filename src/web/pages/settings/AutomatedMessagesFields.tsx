import { useId } from 'react';
import { messages } from '../../../shared/messages';
import { settingsCopy } from './copy';
import { Select } from '../../components/ui/Select';
import { timezoneOptions } from '../../features/time-zone/zones';
import { ReminderTimePicker } from './ReminderTimePicker';
import { SettingSwitch } from './SettingSwitch';
import type { ReminderSettings } from './settings-form';

/**
 * Spec 2's automated messages, in its order: daily reminder, its time, the time zone, the weekly
 * recap, and daily prompts. An opted-out user's switches are disabled (spec 2); the time zone is the
 * account's, for entries and exports too, so it stays open.
 */
export function AutomatedMessagesFields(props: {
  value: ReminderSettings;
  onChange: (change: Partial<ReminderSettings>) => void;
  optedOut: boolean;
}) {
  const id = useId();
  const { value, onChange, optedOut } = props;
  return (
    <div className="divide-y divide-stone-100 px-5 sm:px-7">
      <SettingSwitch
        label={settingsCopy.dailyReminder}
        help="A text at your chosen time, skipped on days you have already written."
        checked={value.reminder_enabled}
        onCheckedChange={(reminder_enabled) => onChange({ reminder_enabled })}
        disabled={optedOut}
      >
        <div className="mt-4">
          <ReminderTimePicker
            value={value.reminder_time}
            onChange={(reminder_time) => onChange({ reminder_time })}
            disabled={!value.reminder_enabled}
          />
        </div>
      </SettingSwitch>
      {/* The account's one zone: not only the reminder's, so never disabled with it. */}
      <div className="py-4">
        <label htmlFor={`${id}-zone`} className="mb-1.5 block text-sm font-semibold text-ink">
          {settingsCopy.timezone}
        </label>
        <Select
          id={`${id}-zone`}
          className="sm:max-w-xs"
          value={value.timezone}
          onChange={(e) => onChange({ timezone: e.target.value })}
          aria-describedby={`${id}-zone-help`}
        >
          {timezoneOptions(value.timezone).map((zone) => (
            <option key={zone.value} value={zone.value}>
              {zone.label}
            </option>
          ))}
        </Select>
        <p id={`${id}-zone-help`} className="mt-1.5 text-sm leading-6 text-stone-500">
          {settingsCopy.timezoneHelp}
        </p>
      </div>
      <SettingSwitch
        label={settingsCopy.weeklyRecap}
        help={settingsCopy.weeklyRecapHelp}
        checked={value.weekly_recap_enabled}
        onCheckedChange={(weekly_recap_enabled) => onChange({ weekly_recap_enabled })}
        disabled={optedOut}
      />
      <SettingSwitch
        label={settingsCopy.dailyPrompts}
        help="Your daily reminder asks a question to write about. Turn this off for a plain reminder."
        checked={value.prompts_enabled}
        onCheckedChange={(prompts_enabled) => onChange({ prompts_enabled })}
        disabled={optedOut || !value.reminder_enabled}
      />
      <SettingSwitch
        label={messages.onThisDay.switchLabel}
        help={messages.onThisDay.switchHint}
        checked={value.on_this_day_enabled}
        onCheckedChange={(on_this_day_enabled) => onChange({ on_this_day_enabled })}
        disabled={optedOut || !value.reminder_enabled}
      />
    </div>
  );
}
