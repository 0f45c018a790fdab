import { z } from 'zod';
import { canonicalTimezone, OFFERED_TIMEZONES } from './auth-schemas';

/** Reminder minutes the settings screen offers (spec 5: 0/15/30/45). */
export const REMINDER_MINUTES = [0, 15, 30, 45] as const;

/** 24-hour HH:MM on a quarter hour. */
const reminderTimeSchema = z
  .string()
  .regex(/^([01]\d|2[0-3]):(00|15|30|45)$/, 'Reminder time must be a quarter hour, written as HH:MM');

/** PATCH /api/profile: the settings a user may change themselves. */
export const profileUpdateSchema = z
  .object({
    /** Daily reminder on or off. */
    reminder_enabled: z.boolean().optional(),
    /** When the daily reminder goes out, in reminder_timezone. */
    reminder_time: reminderTimeSchema.optional(),
    /** One of the offered US zones. */
    reminder_timezone: z.enum(OFFERED_TIMEZONES, { error: 'Choose one of the offered time zones' }).optional(),
    /** The Sunday 6pm recap. */
    weekly_recap_enabled: z.boolean().optional(),
    /** Daily prompts instead of a plain reminder. */
    prompts_enabled: z.boolean().optional(),
    /** null ends a pause set by texting PAUSE (pausing itself is done by text). */
    paused_until: z.null({ error: 'A pause can only be ended here: send null' }).optional(),
    /** The daily reminder mentions entries from this day in earlier years. */
    on_this_day_enabled: z.boolean().optional(),
    /** The zone entry dates are computed in (any IANA zone). */
    timezone: z
      .string()
      .transform((value, issue) => {
        const zone = canonicalTimezone(value);
        if (!zone) issue.addIssue({ code: 'custom', message: 'Unknown time zone' });
        return zone ?? value;
      })
      .optional(),
  })
  .strict();

export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

/** GET /api/profile. */
export interface ProfileResponse {
  id: string;
  timezone: string;
  phone_number: string;
  phone_verified: boolean;
  created_at: string;
  is_opted_out: boolean;
  reminder_enabled: boolean;
  reminder_time: string;
  reminder_timezone: string;
  weekly_recap_enabled: boolean;
  prompts_enabled: boolean;
  /** Automated texts are paused until this instant (ISO-8601) when it is still ahead; set by texting PAUSE. */
  paused_until: string | null;
  on_this_day_enabled: boolean;
  /** The number this user texts to write (the server's JOURNAL_NUMBER), E.164. */
  journal_number: string;
}

/** GET /api/subscription. */
export interface SubscriptionResponse {
  subscribed: boolean;
  subscription_tier: string | null;
  subscription_end: string | null;
  is_trial: boolean;
  trial_end: string | null;
  /** A cancelled subscription that still runs to subscription_end (the server always sends it). */
  cancel_at_period_end?: boolean;
}
