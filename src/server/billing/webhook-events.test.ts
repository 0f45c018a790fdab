import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { manualClock } from '../clock';
import { loadConfig } from '../config';
import type { TestApp } from '../test/app';
import { apiClient, buildUser, signIn } from '../test/factories';
import { startFakeStripe, stripeWebhook, type FakeStripe } from '../test/billing';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('Stripe webhook events as Stripe sends them', () => {
  let stripe: FakeStripe;
  let app: FastifyInstance;
  let t: TestApp;
  let dataDir: string;
  const logLines: string[] = [];

  beforeAll(async () => {
    stripe = await startFakeStripe({ now: () => t.clock.now() });
    dataDir = mkdtempSync(join(tmpdir(), 'jotline-webhooks-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      DATABASE_URL: process.env.TEST_DATABASE_URL ?? `sqlite:${join(dataDir, 'test.db')}`,
      MASTER_KEY: randomBytes(32).toString('base64'),
      PUBLIC_URL: 'http://jotline.test',
      LOG_LEVEL: 'warn',
      JOBS: 'off',
      ...stripe.env,
    });
    const clock = manualClock(process.env.TEST_NOW ? new Date(process.env.TEST_NOW) : new Date());
    app = await buildApp(config, { clock, serveWeb: false, logDestination: { write: (line: string) => void logLines.push(line) } });
    await app.ready();
    t = { app, clock, dataDir, close: async () => undefined };
  });
  afterAll(async () => {
    await app?.close();
    await stripe.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const api = () => apiClient(t);
  const webhook = (type: string, object: unknown) => app.inject(stripeWebhook(type, object, { now: t.clock.now() }));

  /** A user whose trial is over, subscribed monthly through checkout. */
  async function subscriber() {
    const user = await buildUser(t, { trialEnd: new Date(t.clock.now().getTime() - DAY_MS) });
    const token = await signIn(t, user);
    const checkout = await api().post('/api/billing/checkout', { plan: 'monthly' }, token);
    expect(checkout.status).toBe(200);
    const sub = stripe.subscribe(stripe.sessions.get(checkout.body.sessionId)!, t.clock.now(), 'month');
    return { token, sub, periodEnd: sub.items.data[0]!.current_period_end };
  }

  it('shows a subscription ending by cancel_at at the period’s end as cancelling, as cancel_at_period_end does', async () => {
    const { token, sub, periodEnd } = await subscriber();
    // What newer billing portals send: cancel_at set, cancel_at_period_end left false.
    Object.assign(sub, { cancel_at: periodEnd, cancel_at_period_end: false, canceled_at: Math.floor(t.clock.now().getTime() / 1000) });
    expect((await webhook('customer.subscription.updated', sub)).statusCode).toBe(200);
    const status = await api().get('/api/subscription', token);
    expect(status.body).toMatchObject({ subscribed: true, cancel_at_period_end: true, subscription_end: new Date(periodEnd * 1000).toISOString() });

    // Taken back in the portal: cancel_at cleared.
    Object.assign(sub, { cancel_at: null, canceled_at: null });
    await webhook('customer.subscription.updated', sub);
    expect((await api().get('/api/subscription', token)).body).toMatchObject({ subscribed: true, cancel_at_period_end: false });
  });

  it('ends access at a cancel_at before the period’s end', async () => {
    const { token, sub } = await subscriber();
    const cancelAt = Math.floor(t.clock.now().getTime() / 1000) + 3 * 86_400;
    Object.assign(sub, { cancel_at: cancelAt });
    await webhook('customer.subscription.updated', sub);
    expect((await api().get('/api/subscription', token)).body).toMatchObject({ cancel_at_period_end: true, subscription_end: new Date(cancelAt * 1000).toISOString() });
  });

  it('refuses, with 400 and a log line, a signed event whose customer is not a Stripe id, so Stripe stops retrying it', async () => {
    const long = 'cus_' + 'a'.repeat(20_000);
    const loneSurrogate = 'cus_\ud800abc';
    for (const customer of [long, loneSurrogate, { id: long }, 42]) {
      logLines.length = 0;
      const res = await webhook('customer.subscription.updated', { id: 'sub_x', object: 'subscription', customer, status: 'active' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: { code: 'INVALID_EVENT', message: 'The customer is not a Stripe id' } });
      const refused = logLines.map((line) => JSON.parse(line) as { msg?: string; reason?: string }).find((line) => line.msg?.startsWith('billing webhook refused'));
      expect(refused?.reason).toBe('The customer is not a Stripe id');
    }
    // Nothing was asked of Stripe for them, and nothing recorded.
    expect(stripe.calls.some((c) => c.path.length > 1_000 || c.path.includes('%ED'))).toBe(false);

    const oddEvent = await app.inject(stripeWebhook('customer.subscription.updated', { customer: 'cus_ok' }, { now: t.clock.now(), eventId: 'evt_' + 'x'.repeat(300) }));
    expect(oddEvent.statusCode).toBe(400);
  });
});
