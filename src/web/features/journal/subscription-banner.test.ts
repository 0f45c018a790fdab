import { describe, expect, it } from 'vitest';
import { subscriptionBanner, trialDaysLeft } from './subscription-banner';

const now = new Date('2026-03-01T12:00:00.000Z');
const at = (iso: string) => new Date(iso).toISOString();
const status = (overrides: object) => ({ subscribed: false, subscription_tier: null, subscription_end: null, is_trial: false, trial_end: null, ...overrides });

describe('trial days left', () => {
  it('is the ceiling of the days until the trial ends', () => {
    expect(trialDaysLeft(at('2026-03-11T12:00:00Z'), now)).toBe(10);
    expect(trialDaysLeft(at('2026-03-11T12:00:01Z'), now)).toBe(11);
    expect(trialDaysLeft(at('2026-03-01T12:00:01Z'), now)).toBe(1);
  });

  it('is never below zero', () => {
    expect(trialDaysLeft(at('2026-03-01T12:00:00Z'), now)).toBe(0);
    expect(trialDaysLeft(at('2026-02-20T00:00:00Z'), now)).toBe(0);
    expect(trialDaysLeft(null, now)).toBe(0);
  });
});

describe('subscription banner', () => {
  it('shows nothing to a subscriber, even one still marked as trial', () => {
    expect(subscriptionBanner(status({ subscribed: true, is_trial: true, trial_end: at('2026-03-05T00:00:00Z') }), now)).toEqual({ kind: 'none' });
  });

  it('shows the running trial with its days left', () => {
    expect(subscriptionBanner(status({ is_trial: true, trial_end: at('2026-03-03T00:00:00Z') }), now)).toEqual({ kind: 'trial', daysLeft: 2 });
  });

  it('says expired when the trial has ended or there is none', () => {
    expect(subscriptionBanner(status({ is_trial: true, trial_end: at('2026-03-01T11:59:59Z') }), now)).toEqual({ kind: 'expired' });
    expect(subscriptionBanner(status({}), now)).toEqual({ kind: 'expired' });
  });
});
