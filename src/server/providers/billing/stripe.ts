import Stripe from 'stripe';
import type { Clock } from '../../clock';
import { parseEvent } from './event';
import { BillingProviderError, WebhookSignatureError, type BillingProvider, type ProviderCheckoutSession, type ProviderCustomer, type ProviderEvent, type ProviderSubscription } from './types';

/** The API version every request pins; period ends live on subscription items from 2025-03-31 on. */
const STRIPE_API_VERSION = '2025-03-31.basil';

const REQUEST_TIMEOUT_MS = 15_000;

/**
 * How many times the SDK repeats a request that failed on the network or with a 409 or 5xx, after
 * a growing pause; a repeated POST carries the same idempotency key, so Stripe applies it once.
 */
export const STRIPE_NETWORK_RETRIES = 2;

/** Stripe's default tolerance between the signed timestamp and now. */
const SIGNATURE_TOLERANCE_SECONDS = 300;

interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** Default https://api.stripe.com (tests point it at a local fake). */
  apiUrl?: string;
}

/** Where the SDK sends its requests: Stripe, or the host, port and protocol of `apiUrl`. */
function endpointOf(apiUrl: string | undefined): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { protocol, host: url.hostname, port: Number(url.port || (protocol === 'http' ? 80 : 443)) };
}

/** Stripe through its official SDK, at a pinned API version. */
export function createStripeBilling(settings: StripeSettings, clock: Clock): BillingProvider {
  const stripe = new Stripe(settings.secretKey, {
    // The SDK's types follow its newest version; what we read of the answers is the same in ours.
    apiVersion: STRIPE_API_VERSION as Stripe.LatestApiVersion,
    maxNetworkRetries: STRIPE_NETWORK_RETRIES,
    timeout: REQUEST_TIMEOUT_MS,
    telemetry: false,
    ...endpointOf(settings.apiUrl),
  });

  /** The SDK's call, its refusals as BillingProviderError; `missing` answers a 404 (the object is gone). */
  async function call<T, M = never>(work: () => Promise<T>, missing?: () => M): Promise<T | M> {
    try {
      return await work();
    } catch (error) {
      const failure = providerError(error);
      if (missing && failure.status === 404) return missing();
      throw failure;
    }
  }

  return {
    kind: 'stripe',

    async createCustomer({ email, userId }) {
      const customer = await call(() => stripe.customers.create({ email, metadata: { user_id: userId } }));
      return { id: customer.id };
    },

    async getCustomer(customerId) {
      const c = await call(() => stripe.customers.retrieve(customerId), () => null);
      if (!c) return null;
      if (c.deleted) return { id: c.id, email: null, userId: null } satisfies ProviderCustomer;
      return { id: c.id, email: c.email ?? null, userId: c.metadata?.user_id ?? null } satisfies ProviderCustomer;
    },

    async createCheckoutSession({ customerId, priceId, successUrl, cancelUrl, userId, trialEnd }) {
      const session = await call(() =>
        stripe.checkout.sessions.create({
          mode: 'subscription',
          customer: customerId,
          client_reference_id: userId,
          line_items: [{ price: priceId, quantity: 1 }],
          success_url: successUrl,
          cancel_url: cancelUrl,
          metadata: { user_id: userId },
          subscription_data: { metadata: { user_id: userId }, ...(trialEnd && { trial_end: Math.floor(trialEnd.getTime() / 1000) }) },
        }),
      );
      if (!session.url) throw new BillingProviderError('Stripe returned a checkout session without a URL');
      return { id: session.id, url: session.url };
    },

    async getCheckoutSession(sessionId) {
      const s = await call(() => stripe.checkout.sessions.retrieve(sessionId), () => null);
      if (!s?.id) return null;
      return { id: s.id, customerId: idOf(s.customer), status: s.status ?? null } satisfies ProviderCheckoutSession;
    },

    async expireOpenCheckoutSessions(customerId) {
      const open = await call(() => stripe.checkout.sessions.list({ customer: customerId, status: 'open', limit: 100 }));
      for (const session of open.data) {
        try {
          await call(() => stripe.checkout.sessions.expire(session.id));
        } catch (error) {
          // Completed or expired in the meantime: nothing left to expire.
          if (!(error instanceof BillingProviderError && error.status === 400)) throw error;
        }
      }
    },

    async createPortalSession({ customerId, returnUrl }) {
      const session = await call(() => stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl }));
      return { url: session.url };
    },

    async listSubscriptions(customerId) {
      const list = await call(() => stripe.subscriptions.list({ customer: customerId, status: 'all', limit: 100 }));
      return list.data.map((s) => normalizeSubscription(s as unknown as StripeSubscription, customerId));
    },

    async cancelSubscriptionNow(subscriptionId) {
      // One that is already gone is not an error.
      await call(() => stripe.subscriptions.cancel(subscriptionId), () => undefined);
    },

    verifyWebhook(rawBody, signatureHeader): ProviderEvent {
      try {
        stripe.webhooks.constructEvent(rawBody, signatureHeader ?? '', settings.webhookSecret, SIGNATURE_TOLERANCE_SECONDS, undefined, clock.now().getTime());
      } catch (error) {
        throw new WebhookSignatureError(error instanceof Stripe.errors.StripeSignatureVerificationError ? error.message : 'Body is not JSON');
      }
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

/** The SDK's error as ours: `kind` says what the web should tell people. */
function providerError(error: unknown): BillingProviderError {
  if (!(error instanceof Stripe.errors.StripeError)) return new BillingProviderError('Stripe could not be reached', 'other', undefined, { cause: error });
  const status = error.statusCode;
  if (status === undefined) return new BillingProviderError('Stripe could not be reached', 'other', undefined, { cause: error });
  const detail = `Stripe ${status}${error.code ? ` ${error.code}` : ''}${error.param ? ` (${error.param})` : ''}: ${error.message || 'request failed'}`;
  if (status === 401 || status === 403 || error.rawType === 'authentication_error') {
    return new BillingProviderError(detail, 'account', status, { cause: error });
  }
  if (error.param && /price|line_items/.test(error.param)) return new BillingProviderError(detail, 'pricing', status, { cause: error });
  return new BillingProviderError(detail, 'other', status, { cause: error });
}
