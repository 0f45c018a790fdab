/**
 * The two subscription plans as people see them (DESIGN section 10: $5.99 monthly, $49.99 yearly,
 * "Save $21.89 (30%)" everywhere, "Over 3.5 months free"). Billing maps a plan id to its provider price.
 */
export type PlanId = 'monthly' | 'yearly';

export interface Plan {
  id: PlanId;
  name: string;
  /** Price per billing interval, in US cents. */
  priceCents: number;
  interval: 'month' | 'year';
}

export const PLANS: Record<PlanId, Plan> = {
  monthly: { id: 'monthly', name: 'Monthly', priceCents: 599, interval: 'month' },
  yearly: { id: 'yearly', name: 'Yearly', priceCents: 4999, interval: 'year' },
};

export const PLAN_IDS: readonly PlanId[] = ['monthly', 'yearly'];

export const CURRENCY = 'USD';

/** What every plan includes (spec section 1). */
export const PLAN_FEATURES = [
  'Unlimited entries',
  'Private, encrypted storage',
  'Export at any time',
  'Daily prompts and reminders',
  'Photos by text (MMS)',
  'Search by keyword, date or phrase',
] as const;

/** 599 → '$5.99'. */
export function formatUsd(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

/** What a year costs when paid month by month: $71.88. */
export const YEARLY_PRICE_IF_MONTHLY_CENTS = PLANS.monthly.priceCents * 12;

/** What the yearly plan saves against twelve monthly payments: $21.89, 30%. */
const YEARLY_SAVINGS_CENTS = YEARLY_PRICE_IF_MONTHLY_CENTS - PLANS.yearly.priceCents;
const YEARLY_SAVINGS_PERCENT = Math.round((YEARLY_SAVINGS_CENTS / YEARLY_PRICE_IF_MONTHLY_CENTS) * 100);
export const YEARLY_SAVINGS_LABEL = `Save ${formatUsd(YEARLY_SAVINGS_CENTS)} (${YEARLY_SAVINGS_PERCENT}%)`;

/** The savings in months of the monthly plan, said from the prices: 3.65 → 'Over 3.5 months free'. */
const YEARLY_MONTHS_SAVED = YEARLY_SAVINGS_CENTS / PLANS.monthly.priceCents;
const HALF_MONTHS_SAVED = Math.floor(YEARLY_MONTHS_SAVED * 2) / 2;
export const YEARLY_MONTHS_FREE_LABEL = `${HALF_MONTHS_SAVED === YEARLY_MONTHS_SAVED ? '' : 'Over '}${HALF_MONTHS_SAVED} months free`;

/**
 * Stripe Checkout keeps a trial only if it ends 48 hours or more after the session is made; an hour
 * more allows for the two clocks differing. A trial ending sooner is not carried: the first charge
 * is at checkout.
 */
const TRIAL_CARRY_MIN_MS = 49 * 60 * 60 * 1000;

/**
 * When a subscription taken out now is first charged: at the end of the free trial while enough of
 * it is left (the remaining days are kept, not thrown away), else at checkout (null).
 */
export function trialCarriedUntil(subscription: { is_trial: boolean; trial_end: string | null }, now: Date): Date | null {
  if (!subscription.is_trial || !subscription.trial_end) return null;
  const end = new Date(subscription.trial_end);
  return end.getTime() - now.getTime() >= TRIAL_CARRY_MIN_MS ? end : null;
}
