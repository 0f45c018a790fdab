import { useId } from 'react';
import { cn } from '../../components/ui/cn';
import { Select } from '../../components/ui/Select';
import { settingsCopy } from './copy';
import { formatMinute, minuteOptions, PERIODS, REMINDER_HOURS, toTwelveHour, toTwentyFourHour, type TwelveHourTime } from './reminder-time';

const srOnly = 'sr-only';

/** Spec 5: hours 1-12, minutes 00/15/30/45 and AM/PM, read from and written back as 24h 'HH:MM'. */
export function ReminderTimePicker({ value, onChange, disabled }: { value: string; onChange: (time: string) => void; disabled?: boolean }) {
  const id = useId();
  const time = toTwelveHour(value) ?? { hour: 8, minute: 0, period: 'PM' };
  const change = (part: Partial<TwelveHourTime>) => onChange(toTwentyFourHour({ ...time, ...part }));
  return (
    <fieldset className="min-w-0" disabled={disabled}>
      <legend className={cn('mb-1.5 text-sm font-medium', disabled ? 'text-stone-500' : 'text-stone-700')}>{settingsCopy.reminderTime}</legend>
      <div className="flex items-center gap-2">
        <label htmlFor={`${id}-hour`} className={srOnly}>
          Hour
        </label>
        <Select id={`${id}-hour`} className="w-20" value={time.hour} onChange={(e) => change({ hour: Number(e.target.value) })}>
          {REMINDER_HOURS.map((hour) => (
            <option key={hour} value={hour}>
              {hour}
            </option>
          ))}
        </Select>
        <span aria-hidden="true" className="font-semibold text-stone-500">
          :
        </span>
        <label htmlFor={`${id}-minute`} className={srOnly}>
          Minute
        </label>
        <Select id={`${id}-minute`} className="w-20" value={time.minute} onChange={(e) => change({ minute: Number(e.target.value) })}>
          {minuteOptions(time.minute).map((minute) => (
            <option key={minute} value={minute}>
              {formatMinute(minute)}
            </option>
          ))}
        </Select>
        <label htmlFor={`${id}-period`} className={srOnly}>
          AM or PM
        </label>
        <Select
          id={`${id}-period`}
          className="w-22"
          value={time.period}
          onChange={(e) => change({ period: e.target.value === 'AM' ? 'AM' : 'PM' })}
        >
          {PERIODS.map((period) => (
            <option key={period} value={period}>
              {period}
            </option>
          ))}
        </Select>
      </div>
    </fieldset>
  );
}
