import { sql, type Kysely } from 'kysely';
import type { AppContext } from '../context';
import { filterOnly } from '../db/filter-only';
import { getAccessStatus } from '../billing/access';
import type { Database, Profile } from '../db/tables';
import { addDays, isValidTimeZone, localDate } from '../journal/dates';
import { currentStreak } from '../journal/stats';
import { withOnThisDay } from '../on-this-day/reminder-line';
import { isPaused } from '../sms/commands/pause';
import { enqueueSmsBatch } from '../sms/outbound';
import { smsTexts } from '../sms/texts';
import { promptForDay } from './prompts';
import { nextDailyAt, nextWeeklyAt } from './schedule';

/** The weekly recap goes out on Sundays at 18:00 in the user's time zone. */
const RECAP_WEEKDAY = 0;
const RECAP_TIME = '18:00';
/** The zone reminders use when the account's is unknown (spec 3 default). */
const DEFAULT_REMINDER_TIMEZONE = 'America/New_York';
/**
 * A due time older than this was missed (the user was not eligible then, or no instance ran): it is
 * moved on without a text, so nobody gets last night's reminder at noon. A queued text that could not
 * be sent by then (a provider outage) is dropped for the same reason.
 */
const LATE_LIMIT_MS = 2 * 60 * 60_000;
/** Due profiles handled together: read in one go, claimed and queued in one transaction. */
const BATCH = 500;
/** Days without an entry after which the daily text becomes weekly, and after which it stops. */
const WEEKLY_AFTER_DAYS = 7;
const QUIET_AFTER_DAYS = 30;

export interface ReminderPassSummary {
  /** Daily reminders queued (a prompt or a plain reminder). */
  reminders: number;
  /** Missed-day nudges (and the weekly nudges of a long lapse) queued instead of a reminder. */
  nudges: number;
  recaps: number;
  /** Due times claimed without a text: wrote today, no access, paused, lapsed, too late, or already texted. */
  skipped: number;
}

type Outcome = keyof ReminderPassSummary;
type DueColumn = 'next_reminder_at' | 'next_recap_at';

/** What one due profile gets: its next due time, and the text to queue before the claim, if any. */
interface Plan {
  row: Profile;
  next: Date;
  outcome: Outcome;
  text?: { kind: 'reminder' | 'nudge' | 'weekly_recap'; body: string; dedupeKey: string };
}

/**
 * One scheduler pass as of `at`: lets go of due times nobody will get, schedules profiles that have
 * none yet, then handles every due daily reminder and weekly recap, a batch at a time.
 *
 * Exactly once, across crashes and any number of passes on any number of instances: a batch's texts
 * are queued first (an outbox row each, with its dedupe key), then the batch's due times are claimed
 * with one compare-and-set UPDATE that moves each to its next occurrence. A crash between the two
 * leaves the due times due: the next pass finds the texts already queued and only moves them on. Each
 * step is one statement, so no transaction is held open across other work.
 */
export async function runReminderPass(ctx: AppContext, at: Date): Promise<ReminderPassSummary> {
  const summary: ReminderPassSummary = { reminders: 0, nudges: 0, recaps: 0, skipped: 0 };
  await clearUnwantedDueTimes(ctx.db, at);
  await scheduleUnscheduled(ctx, at);
  await drain(ctx, 'next_reminder_at', at, summary, (rows) => planReminders(ctx, rows, at));
  await drain(ctx, 'next_recap_at', at, summary, (rows) => planRecaps(ctx, rows, at));
  return summary;
}

const scheduleZone = (zone: string) => (isValidTimeZone(zone) ? zone : DEFAULT_REMINDER_TIMEZONE);
/** Entry dates are days in the profile timezone. */
const journalZone = (profile: Profile) => profile.timezone || 'UTC';

// Who is due for what, written with literal values so that both databases match these predicates to
// the partial indexes of migration 2026-11-23-0080: an idle pass reads no profile at all.
const enabledColumn = { next_reminder_at: 'reminder_enabled', next_recap_at: 'weekly_recap_enabled' } as const;
const wanted = (column: DueColumn) => sql<boolean>`${sql.ref(enabledColumn[column])} = 1 and phone_verified = 1 and is_opted_out = 0`;

/**
 * Due times that passed while the profile wanted no text (reminders off, opted out, unverified) are
 * cleared, so they are not carried forever; turning the text back on schedules it afresh.
 */
async function clearUnwantedDueTimes(db: Kysely<Database>, at: Date): Promise<void> {
  for (const column of ['next_reminder_at', 'next_recap_at'] as const) {
    await db
      .updateTable('profiles')
      .set({ [column]: null })
      .where(column, '<=', at.toISOString())
      .where(sql<boolean>`not (${wanted(column)})`)
      .execute();
  }
}

/** `column = CASE id WHEN … THEN … END`, for setting many rows to values of their own in one statement. */
function byId(values: Array<[id: string, value: string | null]>) {
  return sql<string | null>`case id ${sql.join(
    values.map(([id, value]) => sql`when ${id} then ${value}`),
    sql` `,
  )} end`;
}

/**
 * Fills in next_reminder_at (and next_recap_at) where they are null and the text is wanted: new
 * profiles, texts turned back on, and profiles whose schedule changed (PATCH /api/profile clears
 * next_reminder_at, so a new time zone moves the recap too). The first occurrence at or
 * after `at`, a batch to a statement.
 */
async function scheduleUnscheduled(ctx: AppContext, at: Date): Promise<void> {
  for (const column of ['next_reminder_at', 'next_recap_at'] as const) {
    for (;;) {
      const rows = await ctx.db
        .selectFrom('profiles')
        .select(['id', 'reminder_time', 'timezone', 'weekly_recap_enabled'])
        .where(column, 'is', null)
        .where(wanted(column))
        .limit(BATCH)
        .execute();
      if (rows.length === 0) break;
      const recaps = rows.map((row): [string, string | null] => [
        row.id,
        row.weekly_recap_enabled === 1 ? nextWeeklyAt(at, RECAP_WEEKDAY, RECAP_TIME, scheduleZone(row.timezone)).toISOString() : null,
      ]);
      const reminders = rows.map((row): [string, string] => [row.id, nextDailyAt(at, row.reminder_time, scheduleZone(row.timezone)).toISOString()]);
      const result = await ctx.db
        .updateTable('profiles')
        .set(column === 'next_reminder_at' ? { next_reminder_at: byId(reminders), next_recap_at: byId(recaps) } : { next_recap_at: byId(recaps) })
        .where('id', 'in', rows.map((r) => r.id))
        // Still unscheduled: otherwise a concurrent pass or a settings change got there first.
        .where(filterOnly(ctx, column), 'is', null)
        .executeTakeFirst();
      // Nothing moved: every row changed under us; they are read again on the next pass.
      if (rows.length < BATCH || Number(result.numUpdatedRows) === 0) break;
    }
  }
}

/**
 * Handles every due row of `column`, a batch at a time: plans the whole batch from a few reads,
 * queues its texts in one statement, then claims its due times in another. A handled row is never
 * due again this pass (its due time moved on, or another pass moved it).
 */
async function drain(ctx: AppContext, column: DueColumn, at: Date, summary: ReminderPassSummary, plan: (rows: Profile[]) => Promise<Plan[]>): Promise<void> {
  for (;;) {
    const due = await ctx.db
      .selectFrom('profiles')
      .selectAll()
      .where(wanted(column))
      .where(column, '<=', at.toISOString())
      .orderBy(column)
      .limit(BATCH)
      .execute();
    if (due.length === 0) return;
    const plans = await plan(due);
    const queued = await enqueueSmsBatch(
      ctx,
      plans.flatMap((p) => {
        if (!p.text) return [];
        // Sent in the order they fell due, and not at all once the late limit has passed (an outage).
        const dueAt = new Date(p.row[column]!);
        return [{ userId: p.row.id, to: p.row.phone_number, ...p.text, dueAt, expiresAt: new Date(dueAt.getTime() + LATE_LIMIT_MS) }];
      }),
    );
    const claimed = await ctx.db
      .updateTable('profiles')
      .set({ [column]: byId(plans.map((p) => [p.row.id, p.next.toISOString()])) })
      // Found by primary key, then each still due at the time read: with the pairs alone, SQLite
      // read every profile and tried each pair on it (0.4 s a batch at 100,000 profiles).
      .where('id', 'in', plans.map((p) => p.row.id))
      .where(filterOnly(ctx, column), '=', byId(plans.map((p) => [p.row.id, p.row[column]])))
      .returning('id')
      .execute();
    const won = new Set(claimed.map((r) => r.id));
    for (const p of plans) {
      if (p.text && queued.has(p.text.dedupeKey)) summary[p.outcome]++;
      else if (won.has(p.row.id)) summary.skipped++;
    }
    // Rows another pass claimed first are no longer due; rows that changed otherwise are read again.
    if (due.length < BATCH || claimed.length === 0) return;
  }
}

const after = (at: Date, due: string) => new Date(Math.max(at.getTime(), Date.parse(due)) + 1);

/**
 * Why a due row gets no text as of `at`, if it gets none: too late, paused by text, or no access
 * (as of the pass's instant: a `reminders tick --at` may name another time).
 */
async function heldBack(ctx: AppContext, row: Profile, column: DueColumn, at: Date): Promise<boolean> {
  if (at.getTime() - Date.parse(row[column]!) > LATE_LIMIT_MS) return true;
  if (isPaused(row, at)) return true;
  return !(await getAccessStatus({ ...ctx, clock: { now: () => at } }, row.id)).hasAccess;
}

/** Whole days from one YYYY-MM-DD to another. */
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** Each user's latest entry day up to their today, among entries of the last month or so. */
async function latestEntryDays(ctx: AppContext, rows: Profile[], todays: Map<string, string>): Promise<Map<string, string>> {
  const earliest = addDays([...todays.values()].sort()[0]!, -(QUIET_AFTER_DAYS + 2));
  const entries = await ctx.db
    .selectFrom('journal_entries')
    .select(['user_id', 'entry_date'])
    .where('user_id', 'in', rows.map((r) => r.id))
    .where('entry_date', '>=', earliest)
    .execute();
  const latest = new Map<string, string>();
  for (const { user_id, entry_date } of entries) {
    if (entry_date <= todays.get(user_id)! && entry_date > (latest.get(user_id) ?? '')) latest.set(user_id, entry_date);
  }
  return latest;
}

/** The day of the latest nudge each user got on or after `since` (by its dedupe key, `nudge:USER:DAY`). */
async function latestNudges(ctx: AppContext, since: Map<string, string>): Promise<Map<string, string>> {
  if (since.size === 0) return new Map();
  const rows = await ctx.db
    .selectFrom('sms_messages')
    .select('dedupe_key')
    .where((eb) => eb.or([...since].map(([id, day]) => eb.and([eb('dedupe_key', '>=', `nudge:${id}:${day}`), eb('dedupe_key', '<=', `nudge:${id}:~`)]))))
    .execute();
  const latest = new Map<string, string>();
  for (const { dedupe_key } of rows) {
    const [, id, day] = dedupe_key!.split(':') as [string, string, string];
    if (day > (latest.get(id) ?? '')) latest.set(id, day);
  }
  return latest;
}

/**
 * The daily text, by how many days the user has gone without writing (from their last entry, or
 * from the day the account was made):
 * - wrote today: none;
 * - the first due time after a missed day: the friendly nudge instead of the reminder, once a lapse;
 * - otherwise, through the first week: the reminder (or prompt);
 * - after a week: one gentle nudge a week; after a month: nothing, until they write again.
 */
async function planReminders(ctx: AppContext, rows: Profile[], at: Date): Promise<Plan[]> {
  const todays = new Map(rows.map((r) => [r.id, localDate(at, journalZone(r))]));
  const latest = await latestEntryDays(ctx, rows, todays);
  const quiet = new Map(
    rows.map((r) => {
      const last = latest.get(r.id);
      const joined = localDate(new Date(r.created_at), journalZone(r));
      return [r.id, { base: last && last > joined ? last : joined, wroteToday: last === todays.get(r.id) }];
    }),
  );
  const days = new Map(rows.map((r) => [r.id, localDate(new Date(r.next_reminder_at!), scheduleZone(r.timezone))]));
  const keys = rows.flatMap((r) => [`reminder:${r.id}:${days.get(r.id)}`, `nudge:${r.id}:${days.get(r.id)}`]);
  const texted = new Set((await ctx.db.selectFrom('sms_messages').select('dedupe_key').where('dedupe_key', 'in', keys).execute()).map((m) => m.dedupe_key));
  // Nudges already sent in the current lapse (which starts the day after the last entry).
  const lapses = new Map([...quiet].flatMap(([id, q]) => (daysBetween(q.base, todays.get(id)!) >= 2 ? [[id, addDays(q.base, 1)] as const] : [])));
  const nudged = await latestNudges(ctx, lapses);

  const plans: Plan[] = [];
  for (const row of rows) {
    const next = nextDailyAt(after(at, row.next_reminder_at!), row.reminder_time, scheduleZone(row.timezone));
    const today = todays.get(row.id)!;
    const day = days.get(row.id)!;
    const { base, wroteToday } = quiet.get(row.id)!;
    const quietDays = daysBetween(base, today);
    const lastNudge = nudged.get(row.id);
    const reminderKey = `reminder:${row.id}:${day}`;
    const nudgeKey = `nudge:${row.id}:${day}`;
    let text: Plan['text'];
    // One daily text at most, even if a changed schedule makes the reminder due twice in a day.
    if (wroteToday || texted.has(reminderKey) || texted.has(nudgeKey) || quietDays > QUIET_AFTER_DAYS) text = undefined;
    else if (quietDays > WEEKLY_AFTER_DAYS) {
      const weekSinceNudge = !lastNudge || daysBetween(lastNudge, today) >= 7;
      text = weekSinceNudge ? { kind: 'nudge', body: smsTexts.weeklyNudge(), dedupeKey: nudgeKey } : undefined;
    } else if (quietDays >= 2 && !lastNudge) text = { kind: 'nudge', body: smsTexts.missedDayNudge(), dedupeKey: nudgeKey };
    else text = { kind: 'reminder', body: row.prompts_enabled ? smsTexts.dailyPrompt(promptForDay(day)) : smsTexts.dailyReminder(), dedupeKey: reminderKey };

    if (!text || (await heldBack(ctx, row, 'next_reminder_at', at))) {
      plans.push({ row, next, outcome: 'skipped' });
      continue;
    }
    const body = await withOnThisDay(ctx, row, today, text.body);
    plans.push({ row, next, outcome: text.kind === 'nudge' ? 'nudges' : 'reminders', text: { ...text, body } });
  }
  return plans;
}

/** The past seven local days (today included) in numbers only: entry text is never read. */
async function weekInNumbers(ctx: AppContext, userId: string, today: string) {
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

async function planRecaps(ctx: AppContext, rows: Profile[], at: Date): Promise<Plan[]> {
  const plans: Plan[] = [];
  for (const row of rows) {
    const zone = scheduleZone(row.timezone);
    const next = nextWeeklyAt(after(at, row.next_recap_at!), RECAP_WEEKDAY, RECAP_TIME, zone);
    if (await heldBack(ctx, row, 'next_recap_at', at)) {
      plans.push({ row, next, outcome: 'skipped' });
      continue;
    }
    const week = await weekInNumbers(ctx, row.id, localDate(at, journalZone(row)));
    const day = localDate(new Date(row.next_recap_at!), zone);
    plans.push({ row, next, outcome: 'recaps', text: { kind: 'weekly_recap', body: smsTexts.weeklyRecap(week), dedupeKey: `recap:${row.id}:${day}` } });
  }
  return plans;
}
