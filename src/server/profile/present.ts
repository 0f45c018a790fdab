import type { ProfileResponse } from '../../shared/profile';
import type { Profile } from '../db/tables';

/** The profile as the owner sees it; the key salt and scheduler fields stay inside. */
export function presentProfile(row: Profile, journalNumber: string): ProfileResponse {
  return {
    id: row.id,
    timezone: row.timezone,
    phone_number: row.phone_number,
    phone_verified: row.phone_verified === 1,
    created_at: row.created_at,
    is_opted_out: row.is_opted_out === 1,
    reminder_enabled: row.reminder_enabled === 1,
    reminder_time: row.reminder_time,
    // The account's one zone; the column of that name is no longer read (migration 0900).
    reminder_timezone: row.timezone,
    weekly_recap_enabled: row.weekly_recap_enabled === 1,
    prompts_enabled: row.prompts_enabled === 1,
    paused_until: row.paused_until,
    on_this_day_enabled: row.on_this_day_enabled === 1,
    journal_number: journalNumber,
  };
}
