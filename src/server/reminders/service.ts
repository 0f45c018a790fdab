import type { AppContext } from '../context';
import { getAccessStatus } from '../billing/access';
import type { Profile } from '../db/tables';
import { addDays, isValidTimeZone, localDate } from '../journal/dates';
import { currentStreak } from '../journal/stats';
import { isPaused } from '../sms/commands/pause';
import { withOnThisDay } from '../on-this-day/reminder-line';
import { enqueueSms } from '../sms/outbound';
import { smsTexts } from '../sms/texts';
import { promptForDay } from './prompts';
import { nextDailyAt, nextWeeklyAt } from './schedule';

/** The weekly recap goes out on Sundays at 18:00 in the user's reminder timezone. */
export const RECAP_WEEKDAY = 0;
export const RECAP_TIME = '18:00';
/** The reminder timezone when the stored one is unknown (spec 3 default). */
export const DEFAULT_REMINDER_TIMEZONE = 'America/New_York';
/**
 * A due time older than this was missed (the user was not eligible then, or no instance ran): it is
 * moved on without a text, so nobody gets last night's reminder at noon.
 */
export const LATE_LIMIT_MS = 2 * 60 * 60_000;
const BATCH = 200;

export interface ReminderPassSummary {
  /** Daily reminders queued (a prompt or a plain reminder). */
  reminders: number;
  /** Missed-day nudges queued instead of a reminder. */
  nudges: number;
  recaps: number;
  /** Due times claimed without a text: wrote today, no access, too late, or already texted. */
  skipped: number;
}

type Outcome = keyof ReminderPassSummary | 'lost';

/**
 * One scheduler pass as of `at`: schedules profiles that have no due times yet, then claims and
 * texts every due daily reminder and weekly recap. Each due time is claimed with a compare-and-set
 * UPDATE that moves it to the next occurrence, so any number of passes (in this process or on other
 * instances) may run at once and each text is queued once; its dedupe key backs that up.
 */
export async function runReminderPass(ctx: AppContext, at: Date): Promise<ReminderPassSummary> {
  const summary: ReminderPassSummary = { reminders: 0, nudges: 0, recaps: 0, skipped: 0 };
  await scheduleUnscheduled(ctx, at);
  await drain(ctx, 'next_reminder_at', at, summary, (row) => handleReminder(ctx, row, at));
  await drain(ctx, 'next_recap_at', at, summary, (row) => handleRecap(ctx, row, at));
  return summary;
}

const scheduleZone = (zone: string) => (isValidTimeZone(zone) ? zone : DEFAULT_REMINDER_TIMEZONE);
/** Entry dates are days in the profile timezone. */
const journalZone = (profile: Profile) => profile.timezone || 'UTC';

/**
 * Fills in next_reminder_at (and next_recap_at) where they are null: new profiles, and profiles whose
 * schedule changed (PATCH /api/profile clears next_reminder_at, so a new reminder timezone moves the
 * recap too). The first occurrence at or after `at`.
 */
async function scheduleUnscheduled(ctx: AppContext, at: Date): Promise<void> {
  const rows = await ctx.db
    .selectFrom('profiles')
    .select(['id', 'reminder_time', 'reminder_timezone', 'next_reminder_at', 'next_recap_at'])
    .where('phone_verified', '=', 1)
    .where('is_opted_out', '=', 0)
    .where((eb) => eb.or([eb('next_reminder_at', 'is', null), eb('next_recap_at', 'is', null)]))
    .execute();
  for (const row of rows) {
    const zone = scheduleZone(row.reminder_timezone);
    const rescheduled = row.next_reminder_at === null;
    await ctx.db
      .updateTable('profiles')
      .set({
        next_reminder_at: row.next_reminder_at ?? nextDailyAt(at, row.reminder_time, zone).toISOString(),
        next_recap_at: rescheduled || row.next_recap_at === null ? nextWeeklyAt(at, RECAP_WEEKDAY, RECAP_TIME, zone).toISOString() : row.next_recap_at,
      })
      .where('id', '=', row.id)
      // Unchanged since read: otherwise a concurrent pass or a settings change got there first.
      .where('next_reminder_at', row.next_reminder_at === null ? 'is' : '=', row.next_reminder_at)
      .where('next_recap_at', row.next_recap_at === null ? 'is' : '=', row.next_recap_at)
      .execute();
  }
}

/** Claims and handles every due row, a batch at a time. A handled row is never due again this pass. */
async function drain(
  ctx: AppContext,
  column: 'next_reminder_at' | 'next_recap_at',
  at: Date,
  summary: ReminderPassSummary,
  handle: (row: Profile) => Promise<Outcome>,
): Promise<void> {
  const enabled = column === 'next_reminder_at' ? 'reminder_enabled' : 'weekly_recap_enabled';
  for (;;) {
    const due = await ctx.db
      .selectFrom('profiles')
      .selectAll()
      .where(enabled, '=', 1)
      .where('phone_verified', '=', 1)
      .where('is_opted_out', '=', 0)
      .where(column, 'is not', null)
      .where(column, '<=', at.toISOString())
      .orderBy(column)
      .limit(BATCH)
      .execute();
    for (const row of due) {
      const outcome = await handle(row);
      if (outcome !== 'lost') summary[outcome]++;
    }
    if (due.length < BATCH) return;
  }
}

/**
 * Moves `column` from the value read to `next`; true only for the one caller whose update hit, so
 * only that caller texts.
 */
async function claim(ctx: AppContext, row: Profile, column: 'next_reminder_at' | 'next_recap_at', next: Date): Promise<boolean> {
  const result = await ctx.db
    .updateTable('profiles')
    .set({ [column]: next.toISOString() })
    .where('id', '=', row.id)
    .where(column, '=', row[column])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Claims the due time: 'go' when this caller won it and may text; otherwise why not (lost, or late / no access as of `at`). */
async function claimAndCheck(ctx: AppContext, row: Profile, column: 'next_reminder_at' | 'next_recap_at', next: Date, at: Date): Promise<Outcome | 'go'> {
  if (!(await claim(ctx, row, column, next))) return 'lost';
  const due = Date.parse(row[column]!);
  if (at.getTime() - due > LATE_LIMIT_MS) return 'skipped';
  // Paused by text (PAUSE): the due time moves on without a text.
  if (isPaused(row, at)) return 'skipped';
  // Access as of the pass's instant (a `reminders tick --at` may name another time).
  const access = await getAccessStatus({ ...ctx, clock: { now: () => at } }, row.id);
  return access.hasAccess ? 'go' : 'skipped';
}

const after = (at: Date, due: string) => new Date(Math.max(at.getTime(), Date.parse(due)) + 1);

async function handleReminder(ctx: AppContext, row: Profile, at: Date): Promise<Outcome> {
  const zone = scheduleZone(row.reminder_timezone);
  const next = nextDailyAt(after(at, row.next_reminder_at!), row.reminder_time, zone);
  const checked = await claimAndCheck(ctx, row, 'next_reminder_at', next, at);
  if (checked !== 'go') return checked;

  const today = localDate(at, journalZone(row));
  const yesterday = addDays(today, -1);
  const written = new Set(
    (
      await ctx.db
        .selectFrom('journal_entries')
        .select('entry_date')
        .where('user_id', '=', row.id)
        .where('entry_date', 'in', [today, yesterday])
        .execute()
    ).map((e) => e.entry_date),
  );
  if (written.has(today)) return 'skipped';

  const day = localDate(new Date(row.next_reminder_at!), zone);
  const reminderKey = `reminder:${row.id}:${day}`;
  const nudgeKey = `nudge:${row.id}:${day}`;
  // One daily text at most, even if a changed schedule makes the reminder due twice in a day.
  const alreadyTexted = await ctx.db
    .selectFrom('sms_messages')
    .select('id')
    .where('dedupe_key', 'in', [reminderKey, nudgeKey])
    .executeTakeFirst();
  if (alreadyTexted) return 'skipped';

  // A missed yesterday earns a nudge, unless the account did not exist for the whole of yesterday.
  const missedYesterday = !written.has(yesterday) && localDate(new Date(row.created_at), journalZone(row)) < yesterday;
  if (missedYesterday) {
    const { queued } = await enqueueSms(ctx, { userId: row.id, to: row.phone_number, body: await withOnThisDay(ctx, row, today, smsTexts.missedDayNudge()), kind: 'nudge', dedupeKey: nudgeKey });
    return queued ? 'nudges' : 'skipped';
  }
  const body = await withOnThisDay(ctx, row, today, row.prompts_enabled ? smsTexts.dailyPrompt(promptForDay(day)) : smsTexts.dailyReminder());
  const { queued } = await enqueueSms(ctx, { userId: row.id, to: row.phone_number, body, kind: 'reminder', dedupeKey: reminderKey });
  return queued ? 'reminders' : 'skipped';
}

/** The past seven local days (today included) in numbers only: entry text is never read. */
export async function weekInNumbers(ctx: AppContext, userId: string, today: string) {
  const from = addDays(today, -6);
  const rows = await ctx.db
    .selectFrom('journal_entries')
    .select(['entry_date', 'word_count'])
    .where('user_id', '=', userId)
    .where('entry_date', '<=', today)
    .orderBy('entry_date', 'desc')
    .execute();
  const week = rows.filter((r) => r.entry_date >= from);
  const days = [...new Set(rows.map((r) => r.entry_date))];
  return {
    entries: week.length,
    days: new Set(week.map((r) => r.entry_date)).size,
    words: week.reduce((sum, r) => sum + r.word_count, 0),
    streak: currentStreak(days, today),
  };
}

async function handleRecap(ctx: AppContext, row: Profile, at: Date): Promise<Outcome> {
  const zone = scheduleZone(row.reminder_timezone);
  const next = nextWeeklyAt(after(at, row.next_recap_at!), RECAP_WEEKDAY, RECAP_TIME, zone);
  const checked = await claimAndCheck(ctx, row, 'next_recap_at', next, at);
  if (checked !== 'go') return checked;

  const week = await weekInNumbers(ctx, row.id, localDate(at, journalZone(row)));
  const day = localDate(new Date(row.next_recap_at!), zone);
  const { queued } = await enqueueSms(ctx, {
    userId: row.id,
    to: row.phone_number,
    body: smsTexts.weeklyRecap(week),
    kind: 'weekly_recap',
    dedupeKey: `recap:${row.id}:${day}`,
  });
  return queued ? 'recaps' : 'skipped';
}
