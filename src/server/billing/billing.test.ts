import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../shared/messages';
import { buildTestApp, type TestApp } from '../test/app';
import { apiClient, buildUser, signIn, type ApiClient } from '../test/factories';
import { FAKE_STRIPE, startFakeStripe, stripeSignature, stripeWebhook, type FakeStripe } from '../test/billing';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('billing with Stripe', () => {
  let t: TestApp;
  let stripe: FakeStripe;
  let api: ApiClient;

  beforeAll(async () => {
    stripe = await startFakeStripe({ now: () => t.clock.now() });
    t = await buildTestApp(stripe.env);
    api = apiClient(t);
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  /** A signed-in user whose trial has ended. */
  async function expiredUser() {
    const user = await buildUser(t, { trialEnd: new Date(t.clock.now().getTime() - DAY_MS) });
    return { user, token: await signIn(t, user) };
  }

  const webhook = async (type: string, object: unknown, eventId?: string) => {
    const res = await t.app.inject(stripeWebhook(type, object, { eventId, now: t.clock.now() }));
    return { status: res.statusCode, body: res.json() as { outcome?: string } };
  };

  const entriesStatus = async (token: string) => (await api.get('/api/entries', token)).status;

  /** Checkout, then the subscription Stripe would make for it. */
  async function paidUser(plan: 'monthly' | 'yearly' = 'monthly') {
    const { user, token } = await expiredUser();
    const checkout = await api.post('/api/billing/checkout', { plan }, token);
    expect(checkout.status).toBe(200);
    const session = stripe.sessions.get(checkout.body.sessionId)!;
    const sub = stripe.subscribe(session, t.clock.now(), plan === 'monthly' ? 'month' : 'year');
    return { user, token, session, sub };
  }

  it('creates the customer once, with the user id in its metadata, and answers {url, sessionId}', async () => {
    const { user, token } = await expiredUser();
    const first = await api.post('/api/billing/checkout', { plan: 'monthly' }, token);
    expect(first.status).toBe(200);
    expect(first.body.url).toMatch(/^https:\/\/checkout\.stripe\.test\//);
    expect(first.body.sessionId).toMatch(/^cs_test_/);
    const second = await api.post('/api/billing/checkout', { plan: 'yearly' }, token);
    expect(second.status).toBe(200);

    const created = [...stripe.customers.values()].filter((c) => c.metadata.user_id === user.id);
    expect(created).toHaveLength(1);
    expect(created[0]!.email).toBe(user.email);
    const row = await t.app.ctx.db.selectFrom('subscribers').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.provider_customer_id).toBe(created[0]!.id);

    const sessionCalls = stripe.calls.filter((c) => c.path === '/v1/checkout/sessions' && c.params.customer === created[0]!.id);
    expect(sessionCalls).toHaveLength(2);
    expect(sessionCalls[0]!.params['line_items[0][price]']).toBe(FAKE_STRIPE.priceMonthly);
    expect(sessionCalls[1]!.params['line_items[0][price]']).toBe(FAKE_STRIPE.priceYearly);
    expect(sessionCalls[0]!.params.mode).toBe('subscription');
    expect(sessionCalls[0]!.params.success_url).toBe('http://jotline.test/journal?success=true&session_id={CHECKOUT_SESSION_ID}');
    expect(sessionCalls[0]!.params.cancel_url).toBe('http://jotline.test/journal?canceled=true');
    expect(sessionCalls[0]!.headers['stripe-version']).toBe('2025-03-31.basil');
  });

  it('refuses a bad plan with 400 and an unsigned request with 401', async () => {
    const { token } = await expiredUser();
    for (const body of [{ plan: 'weekly' }, {}, { plan: 5 }]) {
      const res = await api.post('/api/billing/checkout', body, token);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(messages.billing.invalidPlan);
    }
    expect((await api.post('/api/billing/checkout', { plan: 'monthly' })).status).toBe(401);
  });

  it('answers 502 with a message the web can map when Stripe refuses', async () => {
    const { token } = await expiredUser();
    stripe.failNext('/v1/checkout/sessions', 400, { error: { type: 'invalid_request_error', code: 'resource_missing', param: 'line_items[0][price]', message: 'No such price' } });
    const pricing = await api.post('/api/billing/checkout', { plan: 'monthly' }, token);
    expect(pricing.status).toBe(502);
    expect(pricing.body.error.code).toBe('BILLING_PROVIDER_ERROR');
    expect(pricing.body.error.message).toMatch(/pricing configuration/);

    stripe.failNext('/v1/checkout/sessions', 401, { error: { type: 'authentication_error', message: 'Invalid API Key' } });
    const account = await api.post('/api/billing/checkout', { plan: 'monthly' }, token);
    expect(account.status).toBe(502);
    expect(account.body.error.message).toMatch(/account configuration/);

    stripe.failNext('/v1/checkout/sessions', 500, { error: { type: 'api_error', message: 'boom' } });
    const other = await api.post('/api/billing/checkout', { plan: 'monthly' }, token);
    expect(other.status).toBe(502);
    expect(other.body.error.message).toBe(messages.billing.providerFailed);
  });

  it('repeats a request Stripe failed to answer, with the same idempotency key, so it takes effect once', async () => {
    const { user, token } = await expiredUser();
    stripe.failNext('/v1/customers', 503, { error: { type: 'api_error', message: 'try again' } }, 1);
    const res = await api.post('/api/billing/checkout', { plan: 'monthly' }, token);
    expect(res.status).toBe(200);
    const tries = stripe.calls.filter((c) => c.method === 'POST' && c.path === '/v1/customers' && c.params['metadata[user_id]'] === user.id);
    expect(tries).toHaveLength(2);
    expect(tries[0]!.headers['idempotency-key']).toMatch(/\S/);
    expect(tries[1]!.headers['idempotency-key']).toBe(tries[0]!.headers['idempotency-key']);
    expect([...stripe.customers.values()].filter((c) => c.metadata.user_id === user.id)).toHaveLength(1);
  });

  it('refuses a webhook whose signature does not hold, is stale or is missing', async () => {
    const now = t.clock.now();
    const object = { id: 'sub_x', customer: 'cus_x' };
    const wrongSecret = await t.app.inject(stripeWebhook('customer.subscription.updated', object, { now, secret: 'whsec_other' }));
    expect(wrongSecret.statusCode).toBe(400);
    expect(wrongSecret.json()).toEqual({ error: { code: 'INVALID_SIGNATURE', message: messages.billing.invalidSignature } });
    const stale = await t.app.inject(stripeWebhook('customer.subscription.updated', object, { now: new Date(now.getTime() - 301_000) }));
    expect(stale.statusCode).toBe(400);
    const tampered = stripeWebhook('customer.subscription.updated', object, { now });
    const res = await t.app.inject({ ...tampered, payload: tampered.payload.replace('cus_x', 'cus_y') });
    expect(res.statusCode).toBe(400);
    const missing = await t.app.inject({ method: 'POST', url: '/webhooks/stripe', payload: '{}', headers: { 'content-type': 'application/json' } });
    expect(missing.statusCode).toBe(400);
    // A signature over the exact bytes sent, whitespace included, holds.
    const spaced = JSON.stringify({ id: `evt_spaced${randomBytes(4).toString('hex')}`, type: 'ping', data: { object: {} } }, null, 2);
    const ok = await t.app.inject({
      method: 'POST',
      url: '/webhooks/stripe',
      payload: spaced,
      headers: { 'content-type': 'application/json', 'stripe-signature': stripeSignature(spaced, now) },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().outcome).toBe('ignored');
  });

  it('grants access when the subscription webhook arrives, and ignores a redelivered event', async () => {
    const { user, token, sub } = await paidUser('yearly');
    // Lazy checks would find the subscription too; this test is about the webhook.
    const eventId = `evt_dup_${user.id}`;
    const first = await webhook('customer.subscription.created', sub, eventId);
    expect(first).toEqual({ status: 200, body: { received: true, outcome: 'processed' } });
    const status = await api.get('/api/subscription', token);
    expect(status.body).toMatchObject({ subscribed: true, subscription_tier: 'yearly', is_trial: false });
    expect(status.body.subscription_end).toBe(new Date(sub.items.data[0]!.current_period_end * 1000).toISOString());
    expect(await entriesStatus(token)).toBe(200);

    const listsBefore = stripe.calls.filter((c) => c.path === '/v1/subscriptions').length;
    const again = await webhook('customer.subscription.created', sub, eventId);
    expect(again).toEqual({ status: 200, body: { received: true, outcome: 'duplicate' } });
    expect(stripe.calls.filter((c) => c.path === '/v1/subscriptions').length).toBe(listsBefore);
    const stored = await t.app.ctx.db.selectFrom('billing_events').select('id').where('provider_event_id', '=', eventId).execute();
    expect(stored).toHaveLength(1);
  });

  it('is not fooled by events out of order: each one re-reads the subscription', async () => {
    const { token, session, sub } = await paidUser('monthly');
    sub.status = 'canceled';
    sub.canceled_at = Math.floor(t.clock.now().getTime() / 1000);
    // The stale "created" event (payload says active) arrives after the cancellation.
    await webhook('customer.subscription.deleted', sub);
    await webhook('customer.subscription.created', { ...sub, status: 'active' });
    await webhook('checkout.session.completed', session);
    const status = await api.get('/api/subscription', token);
    expect(status.body.subscribed).toBe(false);
    expect(await entriesStatus(token)).toBe(402);
  });

  it('shows access on the checkout return even before any webhook', async () => {
    const { token, session } = await paidUser('monthly');
    const done = await api.post('/api/billing/checkout/complete', { session_id: session.id }, token);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ subscribed: true, subscription_tier: 'monthly', is_trial: false });
    expect(await entriesStatus(token)).toBe(200);

    const other = await expiredUser();
    expect((await api.post('/api/billing/checkout/complete', { session_id: session.id }, other.token)).status).toBe(404);
    expect((await api.post('/api/billing/checkout/complete', {}, token)).status).toBe(400);
  });

  it('the journal itself finds a paid checkout whose webhook is late', async () => {
    const { token } = await paidUser('monthly');
    expect(await entriesStatus(token)).toBe(200);
  });

  it('keeps access after cancel_at_period_end until the period ends, then not', async () => {
    const { user, token, sub } = await paidUser('monthly');
    sub.cancel_at_period_end = true;
    sub.canceled_at = Math.floor(t.clock.now().getTime() / 1000);
    await webhook('customer.subscription.updated', sub);
    expect(await entriesStatus(token)).toBe(200);
    const row = await api.get('/api/subscription', token);
    expect(row.body.subscribed).toBe(true);
    // Settings tells them it ends: cancelled, running to the period's end.
    expect(row.body.cancel_at_period_end).toBe(true);

    const end = sub.items.data[0]!.current_period_end * 1000;
    t.clock.set(new Date(end + 60_000));
    try {
      const later = await signIn(t, user);
      expect(await entriesStatus(later)).toBe(402);
      sub.status = 'canceled';
      await webhook('customer.subscription.deleted', sub);
      expect(await entriesStatus(later)).toBe(402);
      expect((await api.get('/api/subscription', later)).body.subscribed).toBe(false);
    } finally {
      t.clock.set(new Date());
    }
  });

  it('opens the billing portal for a customer only', async () => {
    const { token } = await paidUser('monthly');
    const portal = await api.post('/api/billing/portal', {}, token);
    expect(portal.status).toBe(200);
    expect(portal.body.url).toMatch(/^https:\/\/billing\.stripe\.test\//);
    expect(stripe.calls.at(-1)!.params.return_url).toBe('http://jotline.test/settings');

    const fresh = await buildUser(t);
    const none = await api.post('/api/billing/portal', {}, await signIn(t, fresh));
    expect(none.status).toBe(404);
  });

  it('links a customer made elsewhere through the user id in its metadata', async () => {
    const { user, token } = await expiredUser();
    // Ids of this run, so a PostgreSQL database kept from an earlier run holds none of them.
    const customer = { id: `cus_elsewhere${randomBytes(4).toString('hex')}`, object: 'customer' as const, email: user.email, metadata: { user_id: user.id } };
    stripe.customers.set(customer.id, customer);
    const session = { id: `cs_elsewhere${randomBytes(4).toString('hex')}`, object: 'checkout.session' as const, customer: customer.id, price: FAKE_STRIPE.priceMonthly, metadata: {}, success_url: '', cancel_url: '', url: '', status: 'open' };
    const sub = stripe.subscribe(session, t.clock.now());
    await webhook('customer.subscription.created', sub);
    expect((await api.get('/api/subscription', token)).body.subscribed).toBe(true);
  });
});

describe('billing with the local simulator', () => {
  let t: TestApp;
  let api: ApiClient;
  beforeAll(async () => {
    t = await buildTestApp();
    api = apiClient(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('checkout → dev checkout page pays → subscribed', async () => {
    const user = await buildUser(t, { trialEnd: new Date(t.clock.now().getTime() - DAY_MS) });
    const token = await signIn(t, user);
    expect((await api.get('/api/entries', token)).status).toBe(402);

    const checkout = await api.post('/api/billing/checkout', { plan: 'yearly' }, token);
    expect(checkout.status).toBe(200);
    expect(checkout.body.url).toBe(`http://jotline.test/dev/checkout?session=${encodeURIComponent(checkout.body.sessionId)}`);

    const session = await api.get(`/api/dev/billing/sessions/${checkout.body.sessionId}`);
    expect(session.body).toMatchObject({ plan: 'yearly', priceCents: 4999, status: 'open' });

    const paid = await api.post(`/api/dev/billing/sessions/${checkout.body.sessionId}/pay`);
    expect(paid.status).toBe(200);
    expect(paid.body.redirectTo).toBe(`http://jotline.test/journal?success=true&session_id=${checkout.body.sessionId}`);
    expect((await api.post(`/api/dev/billing/sessions/${checkout.body.sessionId}/pay`)).status).toBe(409);

    const status = await api.get('/api/subscription', token);
    expect(status.body).toMatchObject({ subscribed: true, subscription_tier: 'yearly', is_trial: false });
    expect((await api.get('/api/entries', token)).status).toBe(200);
    expect((await api.post('/api/billing/checkout/complete', { session_id: checkout.body.sessionId }, token)).status).toBe(200);
  });

  it('cancelling on the dev checkout page goes back with canceled=true and changes nothing', async () => {
    const user = await buildUser(t);
    const token = await signIn(t, user);
    const checkout = await api.post('/api/billing/checkout', { plan: 'monthly' }, token);
    const canceled = await api.post(`/api/dev/billing/sessions/${checkout.body.sessionId}/cancel`);
    expect(canceled.body.redirectTo).toBe('http://jotline.test/journal?canceled=true');
    const status = await api.get('/api/subscription', token);
    expect(status.body).toMatchObject({ subscribed: false, is_trial: true });
    expect((await api.get('/api/dev/billing/sessions/nope')).status).toBe(404);
  });

  it('refuses webhooks (there is no webhook secret)', async () => {
    const res = await t.app.inject(stripeWebhook('customer.subscription.created', {}, { now: t.clock.now() }));
    expect(res.statusCode).toBe(400);
  });
});
