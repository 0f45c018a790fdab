import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { STRIPE_NETWORK_RETRIES } from '../providers/billing/stripe';

/**
 * Test-only: a small Stripe API over HTTP (customers, checkout and portal sessions, subscriptions),
 * recording every call. Subscriptions are made by `subscribe`, as a completed checkout would.
 */

export interface FakeStripeCall {
  method: string;
  path: string;
  query: URLSearchParams;
  params: Record<string, string>;
  headers: IncomingMessage['headers'];
}

export interface FakeSubscription {
  id: string;
  object: 'subscription';
  status: string;
  customer: string;
  cancel_at_period_end: boolean;
  /** Set by newer billing portals instead of cancel_at_period_end. */
  cancel_at?: number | null;
  canceled_at: number | null;
  trial_end: number | null;
  metadata: Record<string, string>;
  items: { object: 'list'; data: Array<{ id: string; price: { id: string; object: 'price'; recurring: { interval: string } }; current_period_start: number; current_period_end: number }> };
}

export interface FakeCheckoutSession {
  id: string;
  object: 'checkout.session';
  customer: string;
  price: string;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  url: string;
  status: string;
  /** subscription_data[trial_end], when the checkout keeps a trial. */
  trial_end?: number | null;
  subscription?: string;
}

export const FAKE_STRIPE = {
  secretKey: 'sk_test_jotline',
  webhookSecret: 'whsec_jotline_test',
  priceMonthly: 'price_monthly_test',
  priceYearly: 'price_yearly_test',
};

/** Stripe Checkout refuses a trial end sooner than this after the session is made. */
const CHECKOUT_TRIAL_MIN_SECONDS = 48 * 60 * 60;

/** `now` is Stripe's clock (the test's clock, so rules about time hold on any date). */
export async function startFakeStripe(options: { now?: () => Date } = {}) {
  const stripeNow = () => Math.floor((options.now?.() ?? new Date()).getTime() / 1000);
  const calls: FakeStripeCall[] = [];
  const customers = new Map<string, { id: string; object: 'customer'; email: string | null; metadata: Record<string, string> }>();
  const sessions = new Map<string, FakeCheckoutSession>();
  const subs = new Map<string, FakeSubscription>();
  const failures: Array<{ path: string; status: number; body: unknown }> = [];
  let seq = 0;
  // Unique across fakes, so test files sharing one PostgreSQL database never share a customer id.
  const run = randomBytes(4).toString('hex');
  const id = (prefix: string) => `${prefix}_fake${run}${++seq}`;
  const metaOf = (p: Record<string, string>) =>
    Object.fromEntries(Object.entries(p).filter(([k]) => k.startsWith('metadata[')).map(([k, v]) => [k.slice(9, -1), v]));

  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const [path = '', rawQuery = ''] = (req.url ?? '').split('?');
      const params = Object.fromEntries(new URLSearchParams(body));
      const query = new URLSearchParams(rawQuery);
      calls.push({ method: req.method ?? '', path, query, params, headers: req.headers });
      const send = (o: unknown, status = 200) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(o));
      };
      const failure = failures.findIndex((f) => f.path === path);
      if (failure >= 0) {
        const [f] = failures.splice(failure, 1);
        return send(f!.body, f!.status);
      }
      if (req.headers.authorization !== `Bearer ${FAKE_STRIPE.secretKey}`) {
        return send({ error: { type: 'authentication_error', message: 'Invalid API Key provided' } }, 401);
      }
      const last = path.split('/').pop()!;
      if (req.method === 'POST' && path === '/v1/customers') {
        const c = { id: id('cus'), object: 'customer' as const, email: params.email ?? null, metadata: metaOf(params) };
        customers.set(c.id, c);
        return send(c);
      }
      if (req.method === 'GET' && path.startsWith('/v1/customers/')) {
        const c = customers.get(last);
        return c ? send(c) : send({ error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such customer: '${last}'` } }, 404);
      }
      if (req.method === 'GET' && path === '/v1/subscriptions') {
        const status = query.get('status');
        const data = [...subs.values()]
          .filter((s) => !query.get('customer') || s.customer === query.get('customer'))
          .filter((s) => status === 'all' || (status ? s.status === status : s.status !== 'canceled'));
        return send({ object: 'list', data, has_more: false, url: '/v1/subscriptions' });
      }
      if (req.method === 'DELETE' && path.startsWith('/v1/subscriptions/')) {
        const s = subs.get(last);
        if (!s) return send({ error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such subscription: '${last}'` } }, 404);
        Object.assign(s, { status: 'canceled', canceled_at: Math.floor(Date.now() / 1000) });
        return send(s);
      }
      if (req.method === 'POST' && path === '/v1/checkout/sessions') {
        const trialEnd = params['subscription_data[trial_end]'] ? Number(params['subscription_data[trial_end]']) : null;
        if (trialEnd !== null && !(trialEnd >= stripeNow() + CHECKOUT_TRIAL_MIN_SECONDS)) {
          const message = 'The `subscription_data[trial_end]` date has to be at least 2 days in the future.';
          return send({ error: { type: 'invalid_request_error', param: 'subscription_data[trial_end]', message } }, 400);
        }
        const s: FakeCheckoutSession = {
          id: id('cs_test'),
          object: 'checkout.session',
          customer: params.customer ?? id('cus'),
          price: params['line_items[0][price]'] ?? '',
          metadata: metaOf(params),
          success_url: params.success_url ?? '',
          cancel_url: params.cancel_url ?? '',
          url: `https://checkout.stripe.test/pay/${seq}`,
          status: 'open',
          trial_end: trialEnd,
        };
        sessions.set(s.id, s);
        return send(s);
      }
      if (req.method === 'GET' && path === '/v1/checkout/sessions') {
        const data = [...sessions.values()]
          .filter((cs) => !query.get('customer') || cs.customer === query.get('customer'))
          .filter((cs) => !query.get('status') || cs.status === query.get('status'));
        return send({ object: 'list', data, has_more: false, url: '/v1/checkout/sessions' });
      }
      if (req.method === 'POST' && /^\/v1\/checkout\/sessions\/[^/]+\/expire$/.test(path)) {
        const cs = sessions.get(path.split('/')[4]!);
        if (!cs) return send({ error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such checkout.session' } }, 404);
        if (cs.status !== 'open') return send({ error: { type: 'invalid_request_error', message: 'Only open Checkout Sessions can be expired' } }, 400);
        cs.status = 'expired';
        return send(cs);
      }
      if (req.method === 'GET' && path.startsWith('/v1/checkout/sessions/')) {
        const s = sessions.get(last);
        return s ? send(s) : send({ error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such checkout.session' } }, 404);
      }
      if (req.method === 'POST' && path === '/v1/billing_portal/sessions') {
        return send({ id: id('bps'), object: 'billing_portal.session', url: `https://billing.stripe.test/p/${seq}`, return_url: params.return_url });
      }
      send({ error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${path})` } }, 404);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    calls,
    customers,
    sessions,
    subs,
    /** The environment that points the app at this fake. */
    env: {
      BILLING_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: FAKE_STRIPE.secretKey,
      STRIPE_WEBHOOK_SECRET: FAKE_STRIPE.webhookSecret,
      STRIPE_PRICE_MONTHLY: FAKE_STRIPE.priceMonthly,
      STRIPE_PRICE_YEARLY: FAKE_STRIPE.priceYearly,
      STRIPE_API_URL: url,
    },
    /**
     * The next request to this path answers with this error, and so do the SDK's repeats of it (a
     * 5xx is tried again): the failure the app sees, however many times the SDK tries. `attempts`
     * fails only that many.
     */
    failNext(path: string, status: number, body: unknown, attempts = status >= 500 || status === 409 ? 1 + STRIPE_NETWORK_RETRIES : 1) {
      for (let attempt = 0; attempt < attempts; attempt++) failures.push({ path, status, body });
    },
    /**
     * The subscription a completed checkout makes, its period starting at `now`; a checkout that kept
     * a trial makes it trialing, its first period the trial, charged at its end.
     */
    subscribe(session: FakeCheckoutSession, now: Date, interval: 'month' | 'year' = 'month'): FakeSubscription {
      const start = Math.floor(now.getTime() / 1000);
      const end = session.trial_end ?? start + (interval === 'month' ? 30 : 365) * 86400;
      const sub: FakeSubscription = {
        id: id('sub'),
        object: 'subscription',
        status: session.trial_end ? 'trialing' : 'active',
        customer: session.customer,
        cancel_at_period_end: false,
        canceled_at: null,
        trial_end: session.trial_end ?? null,
        metadata: session.metadata,
        items: { object: 'list', data: [{ id: id('si'), price: { id: session.price, object: 'price', recurring: { interval } }, current_period_start: start, current_period_end: end }] },
      };
      subs.set(sub.id, sub);
      Object.assign(session, { status: 'complete', subscription: sub.id });
      return sub;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>;

/** The `Stripe-Signature` header Stripe would send with `payload` at `now` (the SDK's own signing). */
export function stripeSignature(payload: string, now: Date, secret = FAKE_STRIPE.webhookSecret): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: Math.floor(now.getTime() / 1000) });
}

/** A signed webhook request for app.inject, as Stripe would send it. */
export function stripeWebhook(type: string, object: unknown, options: { eventId?: string; now: Date; secret?: string; signature?: string }) {
  const payload = JSON.stringify({
    id: options.eventId ?? `evt_${Math.random().toString(16).slice(2)}`,
    object: 'event',
    type,
    api_version: '2025-03-31.basil',
    created: Math.floor(options.now.getTime() / 1000),
    livemode: false,
    data: { object },
  });
  const signature = options.signature ?? stripeSignature(payload, options.now, options.secret);
  return {
    method: 'POST' as const,
    url: '/webhooks/stripe',
    payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
  };
}
