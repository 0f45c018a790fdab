import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../shared/messages';
import { buildTestApp, type TestApp } from '../test/app';
import { apiClient, buildUser, signIn, type ApiClient } from '../test/factories';
import { startFakeStripe, type FakeStripe } from '../test/billing';

const NOW = new Date('2026-11-17T01:57:00Z');
const DAY_MS = 24 * 60 * 60 * 1000;

describe('a subscriber cannot buy a second plan (Stripe)', () => {
  let t: TestApp;
  let stripe: FakeStripe;
  let api: ApiClient;

  beforeAll(async () => {
    // Stripe's clock is the test's (it judges trial ends by it).
    stripe = await startFakeStripe({ now: () => t.clock.now() });
    t = await buildTestApp(stripe.env);
    t.clock.set(NOW);
    api = apiClient(t);
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  const sessionsOf = (customerId: string) => stripe.calls.filter((c) => c.path === '/v1/checkout/sessions' && c.params.customer === customerId);

  it('refuses checkout with 409 once the subscription is paid, even before any webhook arrived', async () => {
    const user = await buildUser(t);
    const token = await signIn(t, user);
    const first = await api.post('/api/billing/checkout', { plan: 'yearly' }, token);
    expect(first.status).toBe(200);
    const session = stripe.sessions.get(first.body.sessionId)!;
    stripe.subscribe(session, t.clock.now(), 'year');

    const second = await api.post('/api/billing/checkout', { plan: 'monthly' }, token);
    expect(second.status).toBe(409);
    expect(second.body).toEqual({ error: { code: 'CONFLICT', message: messages.billingManagement.alreadySubscribed } });
    expect(sessionsOf(session.customer)).toHaveLength(1);
    // The plan stays what was paid for.
    expect((await api.get('/api/subscription', token)).body).toMatchObject({ subscribed: true, subscription_tier: 'yearly' });
  });

  it('expires an older checkout left open in another tab, so only the newest can be paid', async () => {
    const user = await buildUser(t);
    const token = await signIn(t, user);
    const older = await api.post('/api/billing/checkout', { plan: 'monthly' }, token);
    const newer = await api.post('/api/billing/checkout', { plan: 'yearly' }, token);
    expect(newer.status).toBe(200);
    expect(stripe.sessions.get(older.body.sessionId)!.status).toBe('expired');
    expect(stripe.sessions.get(newer.body.sessionId)!.status).toBe('open');
    expect(stripe.calls.some((c) => c.path === `/v1/checkout/sessions/${older.body.sessionId}/expire`)).toBe(true);
  });

  it('lets a trial user, and a subscriber whose subscription has ended, start checkout', async () => {
    const trial = await buildUser(t);
    const trialToken = await signIn(t, trial);
    expect((await api.post('/api/billing/checkout', { plan: 'monthly' }, trialToken)).status).toBe(200);

    const lapsed = await buildUser(t, { trialEnd: new Date(NOW.getTime() - DAY_MS) });
    const token = await signIn(t, lapsed);
    const first = await api.post('/api/billing/checkout', { plan: 'monthly' }, token);
    const sub = stripe.subscribe(stripe.sessions.get(first.body.sessionId)!, t.clock.now(), 'month');
    sub.status = 'canceled';
    expect((await api.post('/api/billing/checkout', { plan: 'yearly' }, token)).status).toBe(200);
  });
});

describe('a subscriber cannot buy a second plan (local simulator)', () => {
  let t: TestApp;
  let api: ApiClient;
  beforeAll(async () => {
    t = await buildTestApp();
    t.clock.set(NOW);
    api = apiClient(t);
  });
  afterAll(() => t.close());

  it('a yearly subscriber choosing Monthly is refused and stays on Yearly', async () => {
    const user = await buildUser(t);
    const token = await signIn(t, user);
    const checkout = await api.post('/api/billing/checkout', { plan: 'yearly' }, token);
    expect((await api.post(`/api/dev/billing/sessions/${checkout.body.sessionId}/pay`)).status).toBe(200);

    const again = await api.post('/api/billing/checkout', { plan: 'monthly' }, token);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(messages.billingManagement.alreadySubscribed);
    const status = await api.get('/api/subscription', token);
    expect(status.body).toMatchObject({ subscribed: true, subscription_tier: 'yearly', is_trial: false });
  });

  it('an older checkout tab can no longer be paid once a newer one was started', async () => {
    const user = await buildUser(t);
    const token = await signIn(t, user);
    const older = await api.post('/api/billing/checkout', { plan: 'monthly' }, token);
    const newer = await api.post('/api/billing/checkout', { plan: 'yearly' }, token);
    expect((await api.get(`/api/dev/billing/sessions/${older.body.sessionId}`)).body.status).toBe('expired');
    expect((await api.post(`/api/dev/billing/sessions/${older.body.sessionId}/pay`)).status).toBe(409);
    expect((await api.post(`/api/dev/billing/sessions/${newer.body.sessionId}/pay`)).status).toBe(200);
    expect((await api.get('/api/subscription', token)).body).toMatchObject({ subscribed: true, subscription_tier: 'yearly' });
  });
});
