import type { ProfileResponse, ProfileUpdate } from '../../../shared/profile';
import { toTwelveHour } from './reminder-time';

/** What the automated-messages form edits, named as the API names them. */
export interface ReminderSettings {
  reminder_enabled: boolean;
  reminder_time: string;
  /** The account's one zone: entry dates and times, exports, text replies and reminders. */
  timezone: string;
  weekly_recap_enabled: boolean;
  prompts_enabled: boolean;
  on_this_day_enabled: boolean;
}

/** Spec 3: defaults when the profile has no value. */
export const DEFAULT_REMINDER_SETTINGS: ReminderSettings = {
  reminder_enabled: true,
  reminder_time: '20:00',
  timezone: 'America/New_York',
  weekly_recap_enabled: true,
  prompts_enabled: true,
  on_this_day_enabled: true,
};

const FIELDS = Object.keys(DEFAULT_REMINDER_SETTINGS) as Array<keyof ReminderSettings>;

/** The settings as stored, with the defaults wherever the profile is missing a value. */
export function settingsFromProfile(profile: Partial<ProfileResponse> | null | undefined): ReminderSettings {
  const d = DEFAULT_REMINDER_SETTINGS;
  const time = profile?.reminder_time;
  return {
    reminder_enabled: profile?.reminder_enabled ?? d.reminder_enabled,
    reminder_time: time && toTwelveHour(time) ? time : d.reminder_time,
    timezone: profile?.timezone || d.timezone,
    weekly_recap_enabled: profile?.weekly_recap_enabled ?? d.weekly_recap_enabled,
    prompts_enabled: profile?.prompts_enabled ?? d.prompts_enabled,
    on_this_day_enabled: profile?.on_this_day_enabled ?? d.on_this_day_enabled,
  };
}

/** Only the fields the form changed: the PATCH body, empty when nothing differs. */
export function changedSettings(stored: ReminderSettings, form: ReminderSettings): ProfileUpdate {
  const changes: Record<string, unknown> = {};
  for (const field of FIELDS) if (form[field] !== stored[field]) changes[field] = form[field];
  return changes as ProfileUpdate;
}
