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
}

export interface LocalBilling extends BillingProvider {
  readonly kind: 'local';
  session(sessionId: string): LocalCheckoutSession | undefined;
  /** Pays an open session: makes the subscription a real checkout would. Answers where the browser goes next. */
  pay(sessionId: string): { session: LocalCheckoutSession; subscription: ProviderSubscription; redirectTo: string };
  /** Abandons an open session. Answers where the browser goes next. */
  cancel(sessionId: string): { session: LocalCheckoutSession; redirectTo: string };
  /** Test and dev helper: change a subscription as the billing portal would. */
  updateSubscription(subscriptionId: string, change: Partial<Pick<ProviderSubscription, 'status' | 'cancelAtPeriodEnd' | 'currentPeriodEnd'>>): ProviderSubscription | undefined;
}

const id = (prefix: string) => `${prefix}_local_${randomBytes(12).toString('hex')}`;

/**
 * A billing provider in memory, for development and tests: checkout goes to PUBLIC_URL/dev/checkout,
 * where a person pays or cancels. Nothing survives a restart.
 */
export function createLocalBilling(publicUrl: string, clock: Clock): LocalBilling {
  const customers = new Map<string, { id: string; email: string; userId: string }>();
  const sessions = new Map<string, LocalCheckoutSession>();
  const subscriptions = new Map<string, ProviderSubscription>();

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

    async createCheckoutSession({ customerId, priceId, successUrl, cancelUrl }) {
      const plan = priceId === LOCAL_PRICES.yearly ? 'yearly' : priceId === LOCAL_PRICES.monthly ? 'monthly' : undefined;
      if (!plan) throw new BillingProviderError(`No such price: ${priceId}`, 'pricing', 400);
      const session: LocalCheckoutSession = { id: id('cs'), customerId, priceId, plan, successUrl, cancelUrl, status: 'open' };
      sessions.set(session.id, session);
      return { id: session.id, url: `${publicUrl}/dev/checkout?session=${encodeURIComponent(session.id)}` };
    },

    async getCheckoutSession(sessionId) {
      const s = sessions.get(sessionId);
      return s ? { id: s.id, customerId: s.customerId, status: s.status } : null;
    },

    async createPortalSession({ returnUrl }) {
      // The simulator has no portal: go straight back.
      return { url: returnUrl };
    },

    async listSubscriptions(customerId) {
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
      const end = new Date(clock.now());
      if (session.plan === 'yearly') end.setUTCFullYear(end.getUTCFullYear() + 1);
      else end.setUTCMonth(end.getUTCMonth() + 1);
      const subscription: ProviderSubscription = {
        id: id('sub'),
        customerId: session.customerId,
        status: 'active',
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

    updateSubscription(subscriptionId, change) {
      const s = subscriptions.get(subscriptionId);
      if (!s) return undefined;
      Object.assign(s, change);
      if (change.status === 'canceled' || change.cancelAtPeriodEnd) s.canceledAt = clock.now();
      return { ...s };
    },
  };
}

export function isLocalBilling(provider: BillingProvider): provider is LocalBilling {
  return provider.kind === 'local';
}
