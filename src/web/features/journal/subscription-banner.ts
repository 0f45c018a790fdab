import type { SubscriptionStatus } from './journal-api';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Spec 4: the ceiling of the days until trial_end, never below 0. */
export function trialDaysLeft(trialEnd: string | null, now: Date = new Date()): number {
  const end = trialEnd ? Date.parse(trialEnd) : NaN;
  if (Number.isNaN(end)) return 0;
  return Math.max(0, Math.ceil((end - now.getTime()) / DAY_MS));
}

export type SubscriptionBannerState = { kind: 'none' } | { kind: 'trial'; daysLeft: number } | { kind: 'expired' };

/**
 * Spec 4: nothing when subscribed; 'Free Trial Active' while the trial runs (is_trial and trial_end
 * in the future); 'Trial Expired' when neither.
 */
export function subscriptionBanner(status: SubscriptionStatus, now: Date = new Date()): SubscriptionBannerState {
  if (status.subscribed) return { kind: 'none' };
  const trialEnd = status.trial_end ? Date.parse(status.trial_end) : NaN;
  if (status.is_trial && trialEnd > now.getTime()) return { kind: 'trial', daysLeft: trialDaysLeft(status.trial_end, now) };
  return { kind: 'expired' };
}
