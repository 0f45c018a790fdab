/** Shapes of the admin API answers (DESIGN section 6, spec section 3). */

export type MetricsPeriod = 'today' | 'week' | 'month' | '3months' | '6months' | 'year';

export interface AdminUser {
  id: string;
  email: string;
}

export interface AdminMeResponse {
  success: boolean;
  user: AdminUser;
}

export interface SeriesPoint {
  /** YYYY-MM-DD */
  date: string;
  signups: number;
  entries: number;
}

export interface DashboardMetrics {
  paidSubscribers: number;
  trialUsers: number;
  /** Percent, 0–100. */
  trialConversionRate: number;
  /** Percent, 0–100. */
  accountVerificationRate: number;
  journalEntries: { count: number };
  avgEntriesPerUser: number;
  newSignups: { count: number };
  series: SeriesPoint[];
}

export interface MetricsResponse {
  success: boolean;
  metrics: DashboardMetrics;
}

export interface SubscriberRow {
  id: string;
  phone_last_four: string;
  signup_date: string;
  subscription_date: string | null;
}

export interface SubscribersData {
  subscribers: SubscriberRow[];
  totalCount: number;
  metrics: {
    totalSubscribers: number;
    newSubscribersThisMonth: number;
    /** Months. */
    averageDuration: number;
    cancelledThisMonth: number;
  };
}

export interface TrialRow {
  id: string;
  phone_last_four: string;
  signup_date: string;
  trial_end: string;
}

export interface TrialUsersData {
  trialUsers: TrialRow[];
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
}

export type TrialStatus = 'active' | 'expired';

export interface TestSummary {
  passedSteps: number;
  totalSteps: number;
  userFound: boolean;
  userVerified: boolean;
  hasActiveSubscription: boolean;
  entryCreated: boolean;
}

export interface TestStep {
  name: string;
  success: boolean;
  message: string;
}

export interface SmsTestResponse {
  success: boolean;
  summary?: TestSummary;
  steps?: TestStep[];
  timing?: { durationMs: number };
  error?: string;
}

export interface SmsTestLog {
  id: string;
  test_type: string;
  phone_number: string;
  message_content: string;
  success: boolean;
  webhook_status: number | null;
  /** JSON text carrying summary and timing for comprehensive tests. */
  webhook_response: string | null;
  created_at: string;
}

export interface SmsHealth {
  overall_status: string;
  checks_passed: number;
  checks_failed: number;
  checks: { name: string; ok: boolean; message: string }[];
  stats: {
    messages24h: number;
    /** Percent, 0–100. */
    successRate: number;
    avgProcessingMs: number | null;
    recentErrors: { at: string; error: string }[];
  };
}

export interface ManagedUser {
  id: string;
  email: string;
  phone_last_four: string | null;
  created_at: string;
  phone_verified: boolean;
  is_admin: boolean;
  counts: { journalEntries: number; journalPhotos: number; smsMessages: number };
  subscription: {
    subscribed?: boolean;
    subscription_tier?: string | null;
    subscription_end?: string | null;
    is_trial?: boolean;
    trial_end?: string | null;
    status?: string | null;
  } | null;
}

export interface DeletionSummary {
  userEmail: string;
  deletedRecords: { journalEntries: number; journalPhotos: number; smsMessages: number };
  filesDeleted: string[];
}
