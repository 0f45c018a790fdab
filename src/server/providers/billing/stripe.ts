import type { Clock } from '../../clock';
import { parseEvent, verifySignature } from './signature';
import {
  BillingProviderError,
  type BillingProvider,
  type ProviderCheckoutSession,
  type ProviderCustomer,
  type ProviderEvent,
  type ProviderSubscription,
} from './types';

/** The API version every request pins; period ends live on subscription items from 2025-03-31 on. */
const STRIPE_API_VERSION = '2025-03-31.basil';

const REQUEST_TIMEOUT_MS = 15_000;

interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** Default https://api.stripe.com (tests point it at a local fake). */
  apiUrl?: string;
}

type Params = Record<string, string | number | boolean | undefined>;

interface StripeErrorBody {
  error?: { type?: string; code?: string; message?: string; param?: string };
}

/** Stripe over its REST API: form-encoded requests, bearer secret key, pinned version. */
export function createStripeBilling(settings: StripeSettings, clock: Clock): BillingProvider {
  const base = (settings.apiUrl ?? 'https://api.stripe.com').replace(/\/+$/, '');

  async function call<T>(method: 'GET' | 'POST' | 'DELETE', path: string, params: Params = {}): Promise<T> {
    const form = new URLSearchParams();
    for (const [key, value] of Object.entries(params)) if (value !== undefined) form.append(key, String(value));
    const url = method === 'GET' && [...form].length ? `${base}${path}?${form.toString()}` : `${base}${path}`;
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: {
          Authorization: `Bearer ${settings.secretKey}`,
          'Stripe-Version': STRIPE_API_VERSION,
          ...(method === 'POST' ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
        },
        body: method === 'POST' ? form.toString() : undefined,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      throw new BillingProviderError('Stripe could not be reached', 'other', undefined, { cause: error });
    }
    const text = await response.text().catch(() => '');
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : {};
    } catch {
      throw new BillingProviderError(`Stripe answered ${response.status} with a body that is not JSON`, 'other', response.status);
    }
    if (!response.ok) throw stripeError(response.status, body as StripeErrorBody);
    return body as T;
  }

  return {
    kind: 'stripe',

    async createCustomer({ email, userId }) {
      const customer = await call<{ id: string }>('POST', '/v1/customers', { email, 'metadata[user_id]': userId });
      return { id: customer.id };
    },

    async getCustomer(customerId) {
      try {
        const c = await call<{ id: string; email?: string | null; deleted?: boolean; metadata?: Record<string, string> }>(
          'GET',
          `/v1/customers/${encodeURIComponent(customerId)}`,
        );
        return { id: c.id, email: c.email ?? null, userId: c.metadata?.user_id ?? null } satisfies ProviderCustomer;
      } catch (error) {
        if (error instanceof BillingProviderError && error.status === 404) return null;
        throw error;
      }
    },

    async createCheckoutSession({ customerId, priceId, successUrl, cancelUrl, userId, trialEnd }) {
      const session = await call<{ id: string; url?: string | null }>('POST', '/v1/checkout/sessions', {
        mode: 'subscription',
        customer: customerId,
        client_reference_id: userId,
        'line_items[0][price]': priceId,
        'line_items[0][quantity]': 1,
        success_url: successUrl,
        cancel_url: cancelUrl,
        'metadata[user_id]': userId,
        'subscription_data[metadata][user_id]': userId,
        'subscription_data[trial_end]': trialEnd ? Math.floor(trialEnd.getTime() / 1000) : undefined,
      });
      if (!session.url) throw new BillingProviderError('Stripe returned a checkout session without a URL');
      return { id: session.id, url: session.url };
    },

    async getCheckoutSession(sessionId) {
      try {
        const s = await call<{ id?: string; customer?: unknown; status?: string | null }>(
          'GET',
          `/v1/checkout/sessions/${encodeURIComponent(sessionId)}`,
        );
        if (!s.id) return null;
        return { id: s.id, customerId: idOf(s.customer), status: s.status ?? null } satisfies ProviderCheckoutSession;
      } catch (error) {
        if (error instanceof BillingProviderError && error.status === 404) return null;
        throw error;
      }
    },

    async expireOpenCheckoutSessions(customerId) {
      const open = await call<{ data?: Array<{ id?: string }> }>('GET', '/v1/checkout/sessions', { customer: customerId, status: 'open', limit: 100 });
      for (const session of open.data ?? []) {
        if (!session.id) continue;
        try {
          await call('POST', `/v1/checkout/sessions/${encodeURIComponent(session.id)}/expire`);
        } catch (error) {
          // Completed or expired in the meantime: nothing left to expire.
          if (!(error instanceof BillingProviderError && error.status === 400)) throw error;
        }
      }
    },

    async createPortalSession({ customerId, returnUrl }) {
      const session = await call<{ url: string }>('POST', '/v1/billing_portal/sessions', { customer: customerId, return_url: returnUrl });
      return { url: session.url };
    },

    async listSubscriptions(customerId) {
      const list = await call<{ data?: unknown[] }>('GET', '/v1/subscriptions', { customer: customerId, status: 'all', limit: 100 });
      return (list.data ?? []).map((s) => normalizeSubscription(s as StripeSubscription, customerId));
    },

    async cancelSubscriptionNow(subscriptionId) {
      try {
        await call('DELETE', `/v1/subscriptions/${encodeURIComponent(subscriptionId)}`);
      } catch (error) {
        if (error instanceof BillingProviderError && error.status === 404) return;
        throw error;
      }
    },

    verifyWebhook(rawBody, signatureHeader): ProviderEvent {
      verifySignature(rawBody, signatureHeader, settings.webhookSecret, Math.floor(clock.now().getTime() / 1000));
      return parseEvent(rawBody);
    },
  };
}

interface StripeSubscription {
  id: string;
  customer?: unknown;
  status?: string;
  cancel_at_period_end?: boolean;
  cancel_at?: number | null;
  canceled_at?: number | null;
  current_period_end?: number;
  items?: { data?: Array<{ current_period_end?: number; price?: { id?: string; recurring?: { interval?: string } | null } }> };
}

function normalizeSubscription(s: StripeSubscription, fallbackCustomerId: string): ProviderSubscription {
  const item = s.items?.data?.[0];
  const interval = item?.price?.recurring?.interval;
  // API 2025-03-31 moved the period to the items; older payloads still carry it on the subscription.
  const periodEnd = item?.current_period_end ?? s.current_period_end;
  // Newer billing portals end a subscription by cancel_at (the period's end) with
  // cancel_at_period_end false: it is cancelling all the same, and ends at cancel_at if earlier.
  const cancelAt = typeof s.cancel_at === 'number' ? s.cancel_at : null;
  const end = cancelAt !== null && (typeof periodEnd !== 'number' || cancelAt < periodEnd) ? cancelAt : periodEnd;
  return {
    id: s.id,
    customerId: idOf(s.customer) ?? fallbackCustomerId,
    status: s.status ?? 'incomplete',
    priceId: item?.price?.id ?? null,
    interval: interval === 'month' || interval === 'year' ? interval : null,
    currentPeriodEnd: typeof end === 'number' ? new Date(end * 1000) : null,
    cancelAtPeriodEnd: s.cancel_at_period_end === true || cancelAt !== null,
    canceledAt: typeof s.canceled_at === 'number' ? new Date(s.canceled_at * 1000) : null,
  };
}

/** A Stripe reference is an id or, when expanded, an object with one. */
export function idOf(value: unknown): string | null {
  if (typeof value === 'string' && value) return value;
  if (value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string') return (value as { id: string }).id;
  return null;
}

function stripeError(status: number, body: StripeErrorBody): BillingProviderError {
  const e = body?.error ?? {};
  const detail = `Stripe ${status}${e.code ? ` ${e.code}` : ''}${e.param ? ` (${e.param})` : ''}: ${e.message ?? 'request failed'}`;
  if (status === 401 || status === 403 || e.type === 'authentication_error' || e.type === 'permission_error') {
    return new BillingProviderError(detail, 'account', status);
  }
  if (e.param && /price|line_items/.test(e.param)) return new BillingProviderError(detail, 'pricing', status);
  return new BillingProviderError(detail, 'other', status);
}
