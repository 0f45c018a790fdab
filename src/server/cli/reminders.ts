import { loadConfig } from '../config';
import { createContext } from '../create-context';
import { isCalendarDay } from '../journal/dates';
import { runReminderPass, type ReminderPassSummary } from '../reminders/service';

const TICK_USAGE = 'Usage: jotline reminders tick [--at 2026-11-22T20:00:00-05:00]';

const INSTANT = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,3})?)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/;

/**
 * The arguments after `reminders tick`: an optional `--at` instant (ISO-8601 with a date, a time and
 * an offset or Z, so it never depends on the server's own zone). `at` is null for "now".
 */
export function parseTickArgs(args: readonly string[]): { at: Date | null } | { error: string } {
  let at: Date | null = null;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    let value: string | undefined;
    if (arg === '--at') value = args[++i];
    else if (arg.startsWith('--at=')) value = arg.slice('--at='.length);
    else return { error: `Unknown argument: ${arg}` };
    if (value === undefined || value === '') return { error: '--at needs an instant, e.g. --at 2026-11-22T20:00:00-05:00' };
    const match = INSTANT.exec(value);
    if (!match || !isCalendarDay(match[1]!) || Number.isNaN(Date.parse(value))) {
      return { error: `--at must be an ISO-8601 date and time with an offset or Z, e.g. 2026-11-22T20:00:00-05:00 (got "${value}")` };
    }
    at = new Date(value);
  }
  return { at };
}

export function describeSummary(summary: ReminderPassSummary, at: Date): string {
  return `Reminder pass as of ${at.toISOString()}: queued ${summary.reminders} reminder(s), ${summary.nudges} nudge(s), ${summary.recaps} recap(s); ${summary.skipped} skipped.`;
}

/** `jotline reminders tick [--at ISO]`: one scheduler pass as of that instant (default now). */
export async function reminderTickCommand(args: readonly string[]): Promise<void> {
  const parsed = parseTickArgs(args);
  if ('error' in parsed) {
    console.error(`${parsed.error}\n${TICK_USAGE}`);
    process.exitCode = 2;
    return;
  }
  const { ctx, close } = await createContext(loadConfig());
  try {
    const at = parsed.at ?? ctx.clock.now();
    // The queued texts are sent by the running app's outbound sender.
    console.log(describeSummary(await runReminderPass(ctx, at), at));
  } finally {
    await close();
  }
}
