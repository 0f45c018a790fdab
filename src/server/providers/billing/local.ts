import { randomBytes } from 'node:crypto';
import type { Clock } from '../../clock';
import { BillingProviderError, WebhookSignatureError, type BillingProvider, type ProviderSubscription } from './types';

/** The price ids the simulator uses for the two plans. */
export const LOCAL_PRICES = { monthly: 'price_local_monthly', yearly: 'price_local_yearly' } as const;

export interface LocalCheckoutSession {
  id: string;
  customerId: string;
  priceId: string;
  plan: 'monthly' | 'yearly';
  successUrl: string;
  cancelUrl: string;
  status: 'open' | 'complete' | 'expired';
  /** The free trial the subscription keeps: the first charge falls at its end. */
  trialEnd: Date | null;
}

/** A billing-portal visit: the id in the address is the capability, as on the provider's portal. */
interface LocalPortalSession {
  id: string;
  customerId: string;
  returnUrl: string;
  expiresAt: Date;
}

/** How long a portal link works (the provider's portal links are short-lived too). */
const LOCAL_PORTAL_SESSION_TTL_MS = 60 * 60 * 1000;

export interface LocalBilling extends BillingProvider {
  readonly kind: 'local';
  session(sessionId: string): LocalCheckoutSession | undefined;
  /** Pays an open session: makes the subscription a real checkout would. Answers where the browser goes next. */
  pay(sessionId: string): { session: LocalCheckoutSession; subscription: ProviderSubscription; redirectTo: string };
  /** Abandons an open session. Answers where the browser goes next. */
  cancel(sessionId: string): { session: LocalCheckoutSession; redirectTo: string };
  /** An unexpired portal session. */
  portalSession(sessionId: string): LocalPortalSession | undefined;
  /** The customer's subscription that the portal manages: the live one, else the latest. */
  portalSubscription(customerId: string): ProviderSubscription | undefined;
  /** Switches the plan as the portal does; a new interval starts a new billing period now. */
  switchPlan(subscriptionId: string, plan: 'monthly' | 'yearly'): ProviderSubscription | undefined;
  /** Test and dev helper: change a subscription as the billing portal would. */
  updateSubscription(subscriptionId: string, change: Partial<Pick<ProviderSubscription, 'status' | 'cancelAtPeriodEnd' | 'currentPeriodEnd'>>): ProviderSubscription | undefined;
}

const id = (prefix: string) => `${prefix}_local_${randomBytes(12).toString('hex')}`;

/**
 * A billing provider in memory, for development and tests: checkout goes to PUBLIC_URL/dev/checkout,
 * where a person pays or cancels, and the billing portal to PUBLIC_URL/dev/billing-portal, where
 * they switch plan or cancel at the period's end. Nothing survives a restart.
 */
export function createLocalBilling(publicUrl: string, clock: Clock): LocalBilling {
  const customers = new Map<string, { id: string; email: string; userId: string }>();
  const sessions = new Map<string, LocalCheckoutSession>();
  const subscriptions = new Map<string, ProviderSubscription>();
  const portalSessions = new Map<string, LocalPortalSession>();

  const periodEnd = (plan: 'monthly' | 'yearly', from = clock.now()) => {
    const end = new Date(from);
    if (plan === 'yearly') end.setUTCFullYear(end.getUTCFullYear() + 1);
    else end.setUTCMonth(end.getUTCMonth() + 1);
    return end;
  };

  // As the provider does at a trial's end: the first charge, and the first paid period begins.
  const endTrials = () => {
    const now = clock.now();
    for (const s of subscriptions.values()) {
      if (s.status !== 'trialing' || !s.currentPeriodEnd || s.currentPeriodEnd > now) continue;
      s.status = s.cancelAtPeriodEnd ? 'canceled' : 'active';
      if (!s.cancelAtPeriodEnd) s.currentPeriodEnd = periodEnd(s.interval === 'year' ? 'yearly' : 'monthly', s.currentPeriodEnd);
    }
  };

  const openSession = (sessionId: string) => {
    const session = sessions.get(sessionId);
    if (!session) throw new BillingProviderError('No such checkout session', 'other', 404);
    if (session.status !== 'open') throw new BillingProviderError('This checkout session is no longer open', 'other', 409);
    return session;
  };

  return {
    kind: 'local',

    async createCustomer({ email, userId }) {
      const customer = { id: id('cus'), email, userId };
      customers.set(customer.id, customer);
      return { id: customer.id };
    },

    async getCustomer(customerId) {
      const c = customers.get(customerId);
      return c ? { id: c.id, email: c.email, userId: c.userId } : null;
    },

    async createCheckoutSession({ customerId, priceId, successUrl, cancelUrl, trialEnd }) {
      const plan = priceId === LOCAL_PRICES.yearly ? 'yearly' : priceId === LOCAL_PRICES.monthly ? 'monthly' : undefined;
      if (!plan) throw new BillingProviderError(`No such price: ${priceId}`, 'pricing', 400);
      const session: LocalCheckoutSession = { id: id('cs'), customerId, priceId, plan, successUrl, cancelUrl, status: 'open', trialEnd: trialEnd ?? null };
      sessions.set(session.id, session);
      return { id: session.id, url: `${publicUrl}/dev/checkout?session=${encodeURIComponent(session.id)}` };
    },

    async getCheckoutSession(sessionId) {
      const s = sessions.get(sessionId);
      return s ? { id: s.id, customerId: s.customerId, status: s.status } : null;
    },

    async expireOpenCheckoutSessions(customerId) {
      for (const session of sessions.values()) if (session.customerId === customerId && session.status === 'open') session.status = 'expired';
    },

    async createPortalSession({ customerId, returnUrl }) {
      const session: LocalPortalSession = { id: id('bps'), customerId, returnUrl, expiresAt: new Date(clock.now().getTime() + LOCAL_PORTAL_SESSION_TTL_MS) };
      portalSessions.set(session.id, session);
      return { url: `${publicUrl}/dev/billing-portal?session=${encodeURIComponent(session.id)}` };
    },

    async listSubscriptions(customerId) {
      endTrials();
      return [...subscriptions.values()].filter((s) => s.customerId === customerId).map((s) => ({ ...s }));
    },

    async cancelSubscriptionNow(subscriptionId) {
      const s = subscriptions.get(subscriptionId);
      if (s && s.status !== 'canceled') Object.assign(s, { status: 'canceled', canceledAt: clock.now() });
    },

    verifyWebhook() {
      throw new WebhookSignatureError('The local billing simulator takes no webhooks');
    },

    session: (sessionId) => sessions.get(sessionId),

    pay(sessionId) {
      const session = openSession(sessionId);
      // A trial kept at checkout runs first: nothing is charged until it ends.
      const trialing = !!session.trialEnd && session.trialEnd > clock.now();
      const end = trialing ? session.trialEnd! : periodEnd(session.plan);
      const subscription: ProviderSubscription = {
        id: id('sub'),
        customerId: session.customerId,
        status: trialing ? 'trialing' : 'active',
        priceId: session.priceId,
        interval: session.plan === 'yearly' ? 'year' : 'month',
        currentPeriodEnd: end,
        cancelAtPeriodEnd: false,
        canceledAt: null,
      };
      subscriptions.set(subscription.id, subscription);
      session.status = 'complete';
      return { session, subscription: { ...subscription }, redirectTo: session.successUrl.replace('{CHECKOUT_SESSION_ID}', encodeURIComponent(session.id)) };
    },

    cancel(sessionId) {
      const session = openSession(sessionId);
      session.status = 'expired';
      return { session, redirectTo: session.cancelUrl };
    },

    portalSession(sessionId) {
      const session = portalSessions.get(sessionId);
      return session && session.expiresAt > clock.now() ? session : undefined;
    },

    portalSubscription(customerId) {
      endTrials();
      const live = ['active', 'trialing', 'past_due'];
      const own = [...subscriptions.values()].filter((s) => s.customerId === customerId);
      const pick = own.find((s) => live.includes(s.status)) ?? own.at(-1);
      return pick ? { ...pick } : undefined;
    },

    switchPlan(subscriptionId, plan) {
      const s = subscriptions.get(subscriptionId);
      if (!s) return undefined;
      const interval = plan === 'yearly' ? 'year' : 'month';
      // During a trial the new plan starts when it ends, as with the provider; else a new interval starts now.
      if (s.interval !== interval && s.status !== 'trialing') s.currentPeriodEnd = periodEnd(plan);
      s.priceId = LOCAL_PRICES[plan];
      s.interval = interval;
      return { ...s };
    },

    updateSubscription(subscriptionId, change) {
      const s = subscriptions.get(subscriptionId);
      if (!s) return undefined;
      Object.assign(s, change);
      if (change.status === 'canceled' || change.cancelAtPeriodEnd) s.canceledAt = clock.now();
      else if (change.cancelAtPeriodEnd === false) s.canceledAt = null;
      return { ...s };
    },
  };
}

export function isLocalBilling(provider: BillingProvider): provider is LocalBilling {
  return provider.kind === 'local';
}
