import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../shared/messages';
import { buildTestApp, type TestApp } from '../test/app';
import { apiClient, buildUser, signIn, type ApiClient } from '../test/factories';

const NOW = new Date('2026-11-17T01:57:00Z');
const HOUR_MS = 60 * 60 * 1000;

describe('Manage Billing on the local simulator', () => {
  let t: TestApp;
  let api: ApiClient;
  beforeAll(async () => {
    t = await buildTestApp();
    api = apiClient(t);
  });
  afterAll(() => t.close());

  /**
   * A subscriber through the dev checkout, and the portal link Manage Billing gives them. Their
   * trial is over, so the first period starts at checkout.
   */
  async function subscriberInPortal(plan: 'monthly' | 'yearly') {
    t.clock.set(NOW);
    const user = await buildUser(t, { trialEnd: new Date(NOW.getTime() - HOUR_MS) });
    const token = await signIn(t, user);
    const checkout = await api.post('/api/billing/checkout', { plan }, token);
    expect((await api.post(`/api/dev/billing/sessions/${checkout.body.sessionId}/pay`)).status).toBe(200);
    const portal = await api.post('/api/billing/portal', {}, token);
    expect(portal.status).toBe(200);
    const url = new URL(portal.body.url as string);
    expect(`${url.origin}${url.pathname}`).toBe('http://jotline.test/dev/billing-portal');
    const path = `/api/dev/billing/portal/${encodeURIComponent(url.searchParams.get('session')!)}`;
    return { user, token, path };
  }

  it('opens a portal that shows the plan and comes back to settings', async () => {
    const { path } = await subscriberInPortal('yearly');
    const view = await api.get(path);
    expect(view.status).toBe(200);
    expect(view.body).toEqual({
      returnUrl: 'http://jotline.test/settings',
      subscription: { plan: 'yearly', name: 'Yearly', priceCents: 4999, interval: 'year', status: 'active', currentPeriodEnd: '2027-11-17T01:57:00.000Z', cancelAtPeriodEnd: false },
    });
  });

  it('switches plan, and the journal’s subscription follows at once', async () => {
    const { token, path } = await subscriberInPortal('yearly');
    // Switching from yearly to monthly starts a monthly period from the moment of the switch.
    t.clock.set(new Date('2026-11-17T02:07:00Z'));
    const switched = await api.post(`${path}/plan`, { plan: 'monthly' }, token);
    expect(switched.status).toBe(200);
    expect(switched.body.subscription).toMatchObject({ plan: 'monthly', interval: 'month', currentPeriodEnd: '2026-12-17T02:07:00.000Z' });
    const status = await api.get('/api/subscription', token);
    expect(status.body).toMatchObject({ subscribed: true, subscription_tier: 'monthly', subscription_end: '2026-12-17T02:07:00.000Z', cancel_at_period_end: false });
    // Still one subscription: checkout stays refused.
    expect((await api.post('/api/billing/checkout', { plan: 'yearly' }, token)).status).toBe(409);
    expect((await api.post(`${path}/plan`, { plan: 'weekly' })).body.error.message).toBe(messages.billing.invalidPlan);
  });

  it('cancels at the end of the period, can undo it, and access ends with the period', async () => {
    const { user, token, path } = await subscriberInPortal('monthly');
    const cancelled = await api.post(`${path}/cancel`);
    expect(cancelled.body.subscription).toMatchObject({ cancelAtPeriodEnd: true, status: 'active' });
    expect((await api.get('/api/subscription', token)).body).toMatchObject({ subscribed: true, cancel_at_period_end: true, subscription_end: '2026-12-17T01:57:00.000Z' });

    const renewed = await api.post(`${path}/renew`);
    expect(renewed.body.subscription.cancelAtPeriodEnd).toBe(false);
    expect((await api.get('/api/subscription', token)).body).toMatchObject({ subscribed: true, cancel_at_period_end: false });

    await api.post(`${path}/cancel`);
    t.clock.set(new Date('2026-12-17T02:00:00Z'));
    const later = await signIn(t, user);
    expect((await api.get('/api/subscription', later)).body).toMatchObject({ subscribed: false, cancel_at_period_end: false });
    expect((await api.get('/api/entries', later)).status).toBe(402);
  });

  it('refuses an unknown or expired portal link', async () => {
    const { path } = await subscriberInPortal('monthly');
    expect((await api.get('/api/dev/billing/portal/bps_local_nope')).status).toBe(404);
    t.clock.set(new Date(NOW.getTime() + 2 * HOUR_MS));
    const expired = await api.post(`${path}/cancel`);
    expect(expired.status).toBe(404);
    expect(expired.body.error.message).toBe(messages.billingManagement.portalLinkInvalid);
  });
});
