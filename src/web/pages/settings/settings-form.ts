import { OFFERED_TIMEZONES } from '../../../shared/auth-schemas';
import type { ProfileResponse, ProfileUpdate } from '../../../shared/profile';
import { toTwelveHour } from './reminder-time';

/** What the automated-messages form edits, named as the API names them. */
export interface ReminderSettings {
  reminder_enabled: boolean;
  reminder_time: string;
  reminder_timezone: string;
  weekly_recap_enabled: boolean;
  prompts_enabled: boolean;
  on_this_day_enabled: boolean;
}

/** Spec 3: defaults when the profile has no value. */
export const DEFAULT_REMINDER_SETTINGS: ReminderSettings = {
  reminder_enabled: true,
  reminder_time: '20:00',
  reminder_timezone: 'America/New_York',
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
    reminder_timezone: profile?.reminder_timezone || d.reminder_timezone,
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

/** Spec 9: the zones offered, by the names people know them by. */
export const TIMEZONE_LABELS: Record<(typeof OFFERED_TIMEZONES)[number], string> = {
  'America/New_York': 'Eastern',
  'America/Chicago': 'Central',
  'America/Denver': 'Mountain',
  'America/Phoenix': 'Mountain-Arizona',
  'America/Los_Angeles': 'Pacific',
  'America/Anchorage': 'Alaska',
  'Pacific/Honolulu': 'Hawaii',
};

/** The offered zones; a stored zone outside them is listed too, so the choice shows what is saved. */
export function timezoneOptions(current: string): Array<{ value: string; label: string }> {
  const offered = OFFERED_TIMEZONES.map((zone) => ({ value: zone, label: TIMEZONE_LABELS[zone] }));
  return offered.some((o) => o.value === current) ? offered : [...offered, { value: current, label: current }];
}
