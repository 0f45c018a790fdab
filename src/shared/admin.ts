import { z } from 'zod';
import { INBOUND_TEXT_MAX } from './limits';

// The admin API's shapes, constants and strings, shared by the server and the admin pages.

export const ADMIN_PAGE_SIZE = 50;
const ADMIN_PAGE_SIZE_MAX = 100;
export const ADMIN_TEST_RESULTS = 20;
export const SMS_STATS_WINDOW_HOURS = 24;
export const CONVERSION_WINDOW_DAYS = 30;
export const OVERSIZED_TEST_LENGTH = 15_000;
export const CARD_PREVIEW_LENGTH = 80;
export const RESULT_PREVIEW_LENGTH = 100;
/** Longest test text the server accepts (the oversized test is 15,000). */
const SMS_TEST_MAX_LENGTH = 20_000;
/** Metrics are cached per period for this long; refresh-cache clears them. */
export const METRICS_CACHE_MS = 60_000;

export const adminMessages = {
  accessDenied: 'Access Denied: You do not have admin privileges.',
  invalidPeriod: 'Invalid period. Use today, week, month, 3months, 6months or year.',
  invalidSearch: 'Search by the last 4 digits of a phone number',
  invalidStatus: 'Status must be active or expired',
  invalidPage: 'Page must be a positive number',
  invalidLimit: `Limit must be between 1 and ${ADMIN_PAGE_SIZE_MAX}`,
  invalidFormat: 'Format must be csv',
  phoneRequired: 'Please enter a phone number for testing',
  invalidPhone: 'Invalid phone number: Please enter a valid 10-digit US phone number',
  invalidTestType: 'Test type must be short, medium, long, unicode, empty or oversized',
  testTooLong: `Test message is too long (max ${SMS_TEST_MAX_LENGTH} characters)`,
  searchRequired: 'Enter a user id, email, or phone number',
  userNotFound: 'No user found with that UUID, email, or phone number',
  confirmationRequired: 'Type DELETE to confirm',
  cannotDeleteSelf: 'You cannot delete your own account',
} as const;

export const ADMIN_PERIODS = ['today', 'week', 'month', '3months', '6months', 'year'] as const;
export type AdminPeriod = (typeof ADMIN_PERIODS)[number];
export const DEFAULT_ADMIN_PERIOD: AdminPeriod = 'today';
export const ADMIN_PERIOD_LABELS: Record<AdminPeriod, string> = {
  today: 'Today',
  week: 'This Week',
  month: 'This Month',
  '3months': 'Last 3 Months',
  '6months': 'Last 6 Months',
  year: 'Last Year',
};
/** Calendar days (UTC) each period covers, ending today. */
export const ADMIN_PERIOD_DAYS: Record<AdminPeriod, number> = {
  today: 1,
  week: 7,
  month: 30,
  '3months': 90,
  '6months': 180,
  year: 365,
};

export const SMS_TEST_TYPES = ['short', 'medium', 'long', 'unicode', 'empty', 'oversized'] as const;
export type SmsTestType = (typeof SMS_TEST_TYPES)[number];

const LONG_SENTENCE = 'Today I took a long walk and thought about everything that happened this week. ';
/** The long test is as long as one text can be: a longer one is refused whole (the oversized test shows that). */
export const LONG_TEST_REPEATS = Math.floor(INBOUND_TEXT_MAX / LONG_SENTENCE.length);

/** The built-in test message of each type (what the SMS testing page offers). */
export function smsTestMessage(type: SmsTestType): string {
  switch (type) {
    case 'short':
      return 'Quick test entry from the admin SMS test.';
    case 'medium':
      return 'Admin SMS test: today was a good day. I finished a project at work, went for a run in the evening and cooked dinner with friends. Feeling grateful.';
    case 'long':
      return LONG_SENTENCE.repeat(LONG_TEST_REPEATS).trim();
    case 'unicode':
      return 'Unicode test ✨ café, naïve, 日本語, emoji 😀🎉 and math ∑∞.';
    case 'empty':
      return '';
    case 'oversized':
      return 'x'.repeat(OVERSIZED_TEST_LENGTH);
  }
}

/** Cut text to a preview of at most `max` characters (an ellipsis marks a cut). */
export function previewText(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : chars.slice(0, max - 1).join('') + '…';
}

// ---- requests ----

export const metricsQuerySchema = z.object({
  period: z.enum(ADMIN_PERIODS, { error: adminMessages.invalidPeriod }).default(DEFAULT_ADMIN_PERIOD),
});

const pageField = z.coerce.number({ error: adminMessages.invalidPage }).int(adminMessages.invalidPage).min(1, adminMessages.invalidPage).default(1);
const limitField = z.coerce
  .number({ error: adminMessages.invalidLimit })
  .int(adminMessages.invalidLimit)
  .min(1, adminMessages.invalidLimit)
  .max(ADMIN_PAGE_SIZE_MAX, adminMessages.invalidLimit)
  .default(ADMIN_PAGE_SIZE);
const searchField = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v.replace(/[\s().-]/g, '') : ''))
  .refine((v) => v === '' || /^\d{1,4}$/.test(v), adminMessages.invalidSearch);
const formatField = z.enum(['json', 'csv'], { error: adminMessages.invalidFormat }).default('json');

export const subscribersQuerySchema = z.object({ page: pageField, limit: limitField, search: searchField, format: formatField });
export const trialUsersQuerySchema = z.object({
  page: pageField,
  limit: limitField,
  search: searchField,
  format: formatField,
  status: z.enum(['active', 'expired'], { error: adminMessages.invalidStatus }).default('active'),
});

export const smsTestBodySchema = z.object({
  testType: z.enum(SMS_TEST_TYPES, { error: adminMessages.invalidTestType }),
  phoneNumber: z
    .string({ error: adminMessages.phoneRequired })
    .trim()
    .min(1, adminMessages.phoneRequired),
  /** The text to send; the type's built-in message when absent. */
  messageContent: z.string().max(SMS_TEST_MAX_LENGTH, adminMessages.testTooLong).optional(),
});
export type SmsTestRequest = z.input<typeof smsTestBodySchema>;

export const userSearchQuerySchema = z.object({
  q: z
    .string({ error: adminMessages.searchRequired })
    .trim()
    .min(1, adminMessages.searchRequired),
});

export const deleteUserBodySchema = z.object({
  confirmationText: z.literal('DELETE', { error: adminMessages.confirmationRequired }),
});

// ---- responses ----

export interface AdminMeResponse {
  success: true;
  user: { id: string; email: string };
}

export interface MetricsPoint {
  /** YYYY-MM-DD (UTC). */
  date: string;
  signups: number;
  entries: number;
}

export interface DashboardMetrics {
  period: AdminPeriod;
  /** Subscriptions that have been charged (a trial with a plan is not, until its trial ends). */
  paidSubscribers: number;
  /** Trials that chose a plan (not cancelled): charged when the trial ends. */
  convertingTrials: number;
  /** Active trials of verified accounts. */
  trialUsers: number;
  /** Percent (one decimal) of trials that resolved in the last 30 days and were charged. */
  trialConversionRate: number;
  /** Percent (one decimal) of accounts with a verified phone. */
  accountVerificationRate: number;
  journalEntries: { count: number };
  /** Entries per active user per week in the period (one decimal). */
  avgEntriesPerUser: number;
  newSignups: { count: number };
  /** One point per UTC day of the period, oldest first. */
  series: MetricsPoint[];
  generatedAt: string;
}

export interface MetricsResponse {
  success: true;
  metrics: DashboardMetrics;
}

export interface SubscriberRow {
  id: string;
  phone_last_four: string;
  signup_date: string;
  subscription_date: string | null;
}

export interface SubscribersResponse {
  success: true;
  data: {
    subscribers: SubscriberRow[];
    totalCount: number;
    metrics: { totalSubscribers: number; newSubscribersThisMonth: number; averageDuration: number; cancelledThisMonth: number };
  };
}

export interface TrialUserRow {
  id: string;
  phone_last_four: string;
  signup_date: string;
  trial_end: string;
}

export interface TrialUsersResponse {
  success: true;
  data: {
    trialUsers: TrialUserRow[];
    totalCount: number;
    metrics: {
      newTrialsToday: number;
      activeTrialUsers: number;
      endingToday: number;
      endingIn1Day: number;
      endingIn2Days: number;
      endingIn3Days: number;
      expiredThisMonth: number;
    };
  };
}

export interface SmsTestStep {
  name: string;
  success: boolean;
  message: string;
  /** How long the step took (absent in logs written before steps were timed). */
  durationMs?: number;
}

export interface SmsTestSummary {
  passedSteps: number;
  totalSteps: number;
  userFound: boolean;
  userVerified: boolean;
  hasActiveSubscription: boolean;
  entryCreated: boolean;
}

export interface SmsTestResponse {
  success: boolean;
  testType: SmsTestType;
  steps: SmsTestStep[];
  summary: SmsTestSummary;
  timing: { durationMs: number; processingMs: number | null };
  /** The first failed step's message, when a step failed. */
  error?: string;
}

export interface SmsTestLog {
  id: string;
  test_type: SmsTestType;
  /** Masked to the last four digits. */
  phone_number: string;
  /** Preview (at most 100 characters). */
  message_content: string;
  success: boolean;
  webhook_status: string | null;
  /** JSON text: {steps, summary, timing}. */
  webhook_response: string | null;
  payload: string | null;
  created_at: string;
}

export interface SmsTestsResponse {
  success: true;
  tests: SmsTestLog[];
}

export interface HealthCheck {
  name: string;
  passed: boolean;
  message: string;
}

export interface SmsHealthResponse {
  success: true;
  overall_status: 'healthy' | 'degraded';
  checks_passed: number;
  checks_failed: number;
  checks: HealthCheck[];
  stats: {
    messages24h: number;
    /** Percent (one decimal) of inbound texts in the window processed without error; 100 when none. */
    successRate: number;
    /** Measured mean processing time of inbound texts in the window; null when none. */
    avgProcessingMs: number | null;
    recentErrors: Array<{ at: string; error: string }>;
  };
  checkedAt: string;
}

export interface AdminUserInfo {
  id: string;
  email: string;
  phone_last_four: string | null;
  created_at: string;
  phone_verified: boolean;
  is_admin: boolean;
  counts: { journalEntries: number; journalPhotos: number; smsMessages: number };
  subscription: {
    subscribed: boolean;
    subscription_tier: string | null;
    subscription_end: string | null;
    is_trial: boolean;
    trial_end: string | null;
    hasAccess: boolean;
  } | null;
}

export interface AdminUserResponse {
  success: true;
  user: AdminUserInfo;
}

export interface DeletionSummary {
  userEmail: string;
  deletedRecords: { journalEntries: number; journalPhotos: number; smsMessages: number };
  /** Storage keys of the removed photo files. */
  filesDeleted: string[];
  /** A live subscription was cancelled with the payment provider before anything was deleted. */
  subscriptionCanceled: boolean;
}

export interface DeleteUserResponse {
  success: true;
  summary: DeletionSummary;
}
