import type { MetricsPeriod, SmsTestLog, TestSummary } from './types';

/** Period options of the dashboard selectors (spec 2); the default is today. */
export const PERIOD_OPTIONS: { value: MetricsPeriod; label: string }[] = [
  { value: 'today', label: 'Today' },
  { value: 'week', label: 'This Week' },
  { value: 'month', label: 'This Month' },
  { value: '3months', label: 'Last 3 Months' },
  { value: '6months', label: 'Last 6 Months' },
  { value: 'year', label: 'Last Year' },
];
export const DEFAULT_PERIOD: MetricsPeriod = 'today';

export function periodLabel(period: MetricsPeriod): string {
  return PERIOD_OPTIONS.find((option) => option.value === period)?.label ?? period;
}

/** Phone digits are never shown beyond the last four: ••••1234. */
export function maskPhone(lastFour: string | null | undefined): string {
  return `••••${lastFour ?? '????'}`;
}

const dateFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const dateTimeFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

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

export interface TrialExpiry {
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

export function preview(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

const LONG_SENTENCE = 'Today I walked along the river and thought about how much has changed this year. ';

/** The six canned messages of the SMS testing page (spec 2 and 9). */
export const TEST_MESSAGES: { type: string; title: string; description: string; content: string }[] = [
  { type: 'short', title: 'Short message', description: 'A one-line entry', content: 'Had a great day today!' },
  {
    type: 'medium',
    title: 'Medium message',
    description: 'A typical entry of a few sentences',
    content:
      'Started the morning with a long run by the lake. Work was busy but productive, and I finally finished the report. Dinner with Sam was the highlight of the day.',
  },
  { type: 'long', title: 'Long message', description: 'One sentence repeated 50 times', content: LONG_SENTENCE.repeat(50).trim() },
  {
    type: 'unicode',
    title: 'Unicode message',
    description: 'Emoji and accented characters',
    content: 'Grateful today 🙏✨ Café au lait with José, a walk in the park 🌳 and a good book 📚 — très bien! 日本語もOK',
  },
  { type: 'empty', title: 'Empty message', description: 'No text at all', content: '' },
  { type: 'oversized', title: 'Oversized message', description: '15,000 characters, over the limit', content: 'A'.repeat(15_000) },
];

export interface ParsedTestResult {
  summary: TestSummary | null;
  durationMs: number | null;
}

/** Reads the summary and timing a comprehensive test stored in webhook_response (JSON text). */
export function parseTestResult(log: Pick<SmsTestLog, 'webhook_response'>): ParsedTestResult {
  if (!log.webhook_response) return { summary: null, durationMs: null };
  try {
    const value = JSON.parse(log.webhook_response) as { summary?: TestSummary; timing?: { durationMs?: number } };
    const summary = value?.summary && typeof value.summary.totalSteps === 'number' ? value.summary : null;
    const durationMs = typeof value?.timing?.durationMs === 'number' ? value.timing.durationMs : null;
    return { summary, durationMs };
  } catch {
    return { summary: null, durationMs: null };
  }
}
