import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/app';
import { apiClient, buildUser, signIn, type ApiClient } from '../test/factories';
import { startFakeStripe, stripeWebhook, type FakeStripe } from '../test/billing';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

describe('subscribing during the free trial keeps the trial (Stripe)', () => {
  let t: TestApp;
  let stripe: FakeStripe;
  let api: ApiClient;

  beforeAll(async () => {
    // Stripe's clock is the test's: its 48-hour rule for trial ends holds on any date.
    stripe = await startFakeStripe({ now: () => t.clock.now() });
    t = await buildTestApp(stripe.env);
    api = apiClient(t);
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  const checkoutCall = (sessionId: string) => {
    const session = stripe.sessions.get(sessionId)!;
    return stripe.calls.filter((c) => c.path === '/v1/checkout/sessions' && c.method === 'POST' && c.params.customer === session.customer).at(-1)!;
  };

  it('sets the first charge at the end of the trial, and the subscription trials until then', async () => {
    const trialEnd = new Date(t.clock.now().getTime() + 7 * DAY_MS + 3 * HOUR_MS);
    const user = await buildUser(t, { trialEnd });
    const token = await signIn(t, user);
    const checkout = await api.post('/api/billing/checkout', { plan: 'yearly' }, token);
    expect(checkout.status).toBe(200);
    expect(checkoutCall(checkout.body.sessionId).params['subscription_data[trial_end]']).toBe(String(Math.floor(trialEnd.getTime() / 1000)));

    const session = stripe.sessions.get(checkout.body.sessionId)!;
    const sub = stripe.subscribe(session, t.clock.now(), 'year');
    expect(sub.status).toBe('trialing');
    expect((await t.app.inject(stripeWebhook('customer.subscription.created', sub, { now: t.clock.now() }))).statusCode).toBe(200);
    const status = await api.get('/api/subscription', token);
    // Subscribed now; the first period is what is left of the trial, so nothing is charged before it ends.
    expect(status.body).toMatchObject({ subscribed: true, subscription_tier: 'yearly', subscription_end: new Date(Math.floor(trialEnd.getTime() / 1000) * 1000).toISOString() });
    expect((await api.get('/api/entries', token)).status).toBe(200);
  });

  it('charges at checkout when the trial ends within two days (Stripe keeps no shorter trial) or has ended', async () => {
    for (const trialEnd of [new Date(t.clock.now().getTime() + 30 * HOUR_MS), new Date(t.clock.now().getTime() - DAY_MS)]) {
      const token = await signIn(t, await buildUser(t, { trialEnd }));
      const checkout = await api.post('/api/billing/checkout', { plan: 'monthly' }, token);
      expect(checkout.status).toBe(200);
      expect(checkoutCall(checkout.body.sessionId).params).not.toHaveProperty('subscription_data[trial_end]');
    }
  });
});

describe('subscribing during the free trial keeps the trial (local billing simulator)', () => {
  let t: TestApp;
  let api: ApiClient;

  beforeAll(async () => {
    t = await buildTestApp();
    api = apiClient(t);
  });
  afterAll(() => t.close());

  it('trials until the trial ends, then the first paid month begins', async () => {
    const trialEnd = new Date(t.clock.now().getTime() + 6 * DAY_MS);
    const user = await buildUser(t, { trialEnd });
    const token = await signIn(t, user);
    const checkout = await api.post('/api/billing/checkout', { plan: 'monthly' }, token);
    expect((await api.get(`/api/dev/billing/sessions/${checkout.body.sessionId}`)).body.trialEnd).toBe(trialEnd.toISOString());
    expect((await api.post(`/api/dev/billing/sessions/${checkout.body.sessionId}/pay`)).status).toBe(200);
    const during = await api.get('/api/subscription', token);
    expect(during.body).toMatchObject({ subscribed: true, subscription_tier: 'monthly', subscription_end: trialEnd.toISOString() });

    const start = t.clock.now();
    t.clock.set(new Date(trialEnd.getTime() + HOUR_MS));
    try {
      // The journal's access check asks the simulator again, which has charged and renewed.
      const later = await signIn(t, user);
      expect((await api.get('/api/entries', later)).status).toBe(200);
      const firstMonth = new Date(trialEnd);
      firstMonth.setUTCMonth(firstMonth.getUTCMonth() + 1);
      expect((await api.get('/api/subscription', later)).body).toMatchObject({ subscribed: true, subscription_end: firstMonth.toISOString() });
    } finally {
      t.clock.set(start);
    }
  });

  it('switching plan during the trial keeps the trial: the new plan is first charged when it ends', async () => {
    const trialEnd = new Date(t.clock.now().getTime() + 8 * DAY_MS);
    const token = await signIn(t, await buildUser(t, { trialEnd }));
    const checkout = await api.post('/api/billing/checkout', { plan: 'monthly' }, token);
    await api.post(`/api/dev/billing/sessions/${checkout.body.sessionId}/pay`);
    const portal = new URL((await api.post('/api/billing/portal', {}, token)).body.url as string);
    const switched = await api.post(`/api/dev/billing/portal/${encodeURIComponent(portal.searchParams.get('session')!)}/plan`, { plan: 'yearly' });
    expect(switched.body.subscription).toMatchObject({ plan: 'yearly', status: 'trialing', currentPeriodEnd: trialEnd.toISOString() });
    expect((await api.get('/api/subscription', token)).body).toMatchObject({ subscribed: true, subscription_tier: 'yearly', subscription_end: trialEnd.toISOString() });
  });
});
