import type { SubscriptionResponse } from '../../../shared/profile';
import { subscriptionBanner } from '../../features/journal/subscription-banner';
import { settingsCopy } from './copy';

export type PlanState =
  | { kind: 'trial'; daysLeft: number; label: string; detail: string }
  | { kind: 'subscribed'; label: string }
  | { kind: 'expired'; label: string };

/** The plan name for a subscription tier as the billing provider records it. */
function tierLabel(tier: string | null): string {
  const name = (tier ?? '').toLowerCase();
  if (name.includes('year') || name.includes('annual')) return settingsCopy.yearly;
  if (name.includes('month')) return settingsCopy.monthly;
  return tier?.trim() || 'Subscribed';
}

/** Spec 2 and 4: Free Trial with the days left, Monthly or Yearly when subscribed, Expired otherwise. */
export function planState(status: SubscriptionResponse, now: Date = new Date()): PlanState {
  if (status.subscribed) return { kind: 'subscribed', label: tierLabel(status.subscription_tier) };
  const banner = subscriptionBanner(status, now);
  if (banner.kind === 'trial') {
    const { daysLeft } = banner;
    return { kind: 'trial', daysLeft, label: settingsCopy.freeTrial, detail: `${daysLeft} ${daysLeft === 1 ? 'day' : 'days'} left` };
  }
  return { kind: 'expired', label: settingsCopy.expired };
}

/** 'March 3, 2027' in the profile's timezone (the browser's when unknown), or null for a missing or unreadable date. */
export function formatLongDate(value: string | null, timeZone?: string): string | null {
  const time = value ? Date.parse(value) : NaN;
  if (Number.isNaN(time)) return null;
  const options: Intl.DateTimeFormatOptions = { month: 'long', day: 'numeric', year: 'numeric' };
  try {
    return new Date(time).toLocaleDateString('en-US', { ...options, timeZone });
  } catch {
    return new Date(time).toLocaleDateString('en-US', options); // a zone this browser does not know
  }
}
