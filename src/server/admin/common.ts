import { sql, type SqlBool } from 'kysely';
import { addDays } from '../journal/dates';

/** Paid access right now: subscribed and the period has not ended. */
export const isPaid = (nowIso: string) =>
  sql<SqlBool>`(subscribers.subscribed = 1 and (subscribers.subscription_end is null or subscribers.subscription_end > ${nowIso}))`;

/** Paid and charged: a trial that chose a plan is not charged until its trial ends (the provider's 'trialing'). */
export const isCharged = (nowIso: string) => sql<SqlBool>`(${isPaid(nowIso)} and coalesce(subscribers.subscription_status, '') <> 'trialing')`;

/** A trial that chose a plan and has not cancelled it: it will be charged when the trial ends. */
export const isConverting = (nowIso: string) =>
  sql<SqlBool>`(${isPaid(nowIso)} and subscribers.subscription_status = 'trialing' and subscribers.cancelled_at is null)`;

/** A sign-up whose phone is verified: an unverified one lapses within minutes and is no trial user. */
export const hasVerifiedPhone = sql<SqlBool>`exists (select 1 from profiles p where p.id = subscribers.user_id and p.phone_verified = 1)`;

/** A running trial of someone who is not paying (a cancelled plan in its trial is a trial again). */
export const isActiveTrial = (nowIso: string) =>
  sql<SqlBool>`(((subscribers.is_trial = 1 and subscribers.trial_end is not null and subscribers.trial_end > ${nowIso} and not ${isPaid(nowIso)}) or (${isPaid(nowIso)} and subscribers.subscription_status = 'trialing' and subscribers.cancelled_at is not null)) and ${hasVerifiedPhone})`;

/** A trial that has ended without a paid subscription. */
export const isExpiredTrial = (nowIso: string) =>
  sql<SqlBool>`(subscribers.is_trial = 1 and subscribers.trial_end is not null and subscribers.trial_end <= ${nowIso} and not ${isPaid(nowIso)})`;

/** The instant a UTC day starts. */
export const dayStart = (day: string): string => `${day}T00:00:00.000Z`;

export const utcDay = (instant: Date): string => instant.toISOString().slice(0, 10);

/** The first day of the instant's month (UTC), as an instant. */
export const monthStart = (instant: Date): string => `${utcDay(instant).slice(0, 7)}-01T00:00:00.000Z`;

export { addDays };

export const toCount = (value: unknown): number => Number(value ?? 0);

/** A percentage with one decimal; 0 when there is nothing to divide by. */
export const percent = (part: number, whole: number): number => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0);

export const oneDecimal = (value: number): number => Math.round(value * 10) / 10;

export const lastFour = (phone: string | null | undefined): string => (phone ?? '').replace(/\D/g, '').slice(-4);

/** Escapes a CSV field (and defuses spreadsheet formulas). */
function csvField(value: string | number | null): string {
  let text = value === null ? '' : String(value);
  if (/^[=+\-@]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: string[], rows: Array<Array<string | number | null>>): string {
  return [header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}
