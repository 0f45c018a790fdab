import { LONG_TEST_REPEATS, OVERSIZED_TEST_LENGTH, SMS_TEST_TYPES, smsTestMessage, type SmsTestLog, type SmsTestStep, type SmsTestSummary, type SmsTestType } from '../../../shared/admin';

/** Phone digits are never shown beyond the last four: ••••1234. */
export function maskPhone(lastFour: string | null | undefined): string {
  return `••••${lastFour ?? '????'}`;
}

const dateFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const dateTimeFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

/** '1 journal entry', '14 journal entries': the count with its noun in the right number. */
export function countOf(n: number, one: string, many: string): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** "Jan 5, 2026", or '—' for a missing or unreadable value. */
export function formatDate(value: string | null | undefined): string {
  const date = parseDate(value);
  return date ? dateFormat.format(date) : '—';
}

export function formatDateTime(value: string | null | undefined): string {
  const date = parseDate(value);
  return date ? dateTimeFormat.format(date) : '—';
}

/** Date-only strings (YYYY-MM-DD) are read as local midnight, not UTC. */
function parseDate(value: string | null | undefined): Date | null {
  if (!value) return null;
  const dateOnly = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const date = dateOnly ? new Date(Number(dateOnly[1]), Number(dateOnly[2]) - 1, Number(dateOnly[3])) : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function formatNumber(value: number | null | undefined, digits = 0): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '—';
  return value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

export function formatPercent(value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '—';
  return `${value.toLocaleString('en-US', { maximumFractionDigits: 1 })}%`;
}

export type ExpiryTone = 'expired' | 'today' | 'tomorrow' | 'soon' | 'plain';

interface TrialExpiry {
  tone: ExpiryTone;
  /** 'Expired', 'Ends today', 'Ends tomorrow', 'Ends in N days', or null when plain. */
  prefix: string | null;
  date: string;
}

/**
 * How a trial's end date reads in the list (spec 2): 'Expired' in the past, 'Ends today',
 * 'Ends tomorrow', 'Ends in N days' for 2 to 3 days, plain otherwise. Days are calendar days here.
 */
export function trialExpiry(trialEnd: string, now = new Date()): TrialExpiry {
  const end = parseDate(trialEnd);
  const date = formatDate(trialEnd);
  if (!end) return { tone: 'plain', prefix: null, date };
  if (end.getTime() < now.getTime()) return { tone: 'expired', prefix: 'Expired', date };
  const days = Math.round((startOfDay(end) - startOfDay(now)) / 86_400_000);
  if (days <= 0) return { tone: 'today', prefix: 'Ends today', date };
  if (days === 1) return { tone: 'tomorrow', prefix: 'Ends tomorrow', date };
  if (days <= 3) return { tone: 'soon', prefix: `Ends in ${days} days`, date };
  return { tone: 'plain', prefix: null, date };
}

function startOfDay(date: Date): number {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
}

/** "Showing 51 to 100 of 120" for a 1-based page. */
export function showingText(page: number, pageSize: number, total: number): string {
  if (total <= 0) return 'Showing 0 to 0 of 0';
  const from = (page - 1) * pageSize + 1;
  const to = Math.min(page * pageSize, total);
  return `Showing ${from} to ${to} of ${total}`;
}

/** Title and description of each test card of the SMS testing page (spec 2 and 9). */
const TEST_CARDS: Record<SmsTestType, { title: string; description: string }> = {
  short: { title: 'Short message', description: 'A one-line entry' },
  medium: { title: 'Medium message', description: 'A typical entry of a few sentences' },
  long: { title: 'Long message', description: `One sentence repeated ${LONG_TEST_REPEATS} times` },
  unicode: { title: 'Unicode message', description: 'Emoji and accented characters' },
  empty: { title: 'Empty message', description: 'No text at all' },
  oversized: { title: 'Oversized message', description: `${OVERSIZED_TEST_LENGTH.toLocaleString('en-US')} characters, over the limit` },
};

/** The six built-in test messages of the SMS testing page, with the server's text of each. */
export const TEST_MESSAGES: { type: SmsTestType; title: string; description: string; content: string }[] = SMS_TEST_TYPES.map((type) => ({
  type,
  ...TEST_CARDS[type],
  content: smsTestMessage(type),
}));

interface ParsedTestResult {
  summary: SmsTestSummary | null;
  durationMs: number | null;
  /** Each step with its outcome and time (older logs may have none). */
  steps: SmsTestStep[];
}

/** Reads the summary, steps and timing a comprehensive test stored in webhook_response (JSON text). */
export function parseTestResult(log: Pick<SmsTestLog, 'webhook_response'>): ParsedTestResult {
  if (!log.webhook_response) return { summary: null, durationMs: null, steps: [] };
  try {
    const value = JSON.parse(log.webhook_response) as { summary?: SmsTestSummary; timing?: { durationMs?: number }; steps?: SmsTestStep[] };
    const summary = value?.summary && typeof value.summary.totalSteps === 'number' ? value.summary : null;
    const durationMs = typeof value?.timing?.durationMs === 'number' ? value.timing.durationMs : null;
    const steps = Array.isArray(value?.steps) ? value.steps.filter((step) => typeof step?.name === 'string' && typeof step.message === 'string') : [];
    return { summary, durationMs, steps };
  } catch {
    return { summary: null, durationMs: null, steps: [] };
  }
}
