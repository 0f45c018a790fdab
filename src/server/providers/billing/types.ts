/** What billing needs from a payment provider (Stripe in production, the local simulator elsewhere). */

export interface ProviderSubscription {
  id: string;
  customerId: string;
  /** Provider status: active, trialing, past_due, canceled, unpaid, incomplete, incomplete_expired, paused. */
  status: string;
  priceId: string | null;
  interval: 'month' | 'year' | null;
  /** End of the current billing period (from the subscription items), or the cancel_at before it. */
  currentPeriodEnd: Date | null;
  /** Ending at currentPeriodEnd rather than renewing (cancel_at_period_end, or a cancel_at). */
  cancelAtPeriodEnd: boolean;
  /** When the provider says it was cancelled, if it does. */
  canceledAt: Date | null;
}

export interface ProviderCustomer {
  id: string;
  email: string | null;
  /** The user id we put in the customer's metadata. */
  userId: string | null;
}

export interface ProviderCheckoutSession {
  id: string;
  customerId: string | null;
  status: string | null;
}

/** A verified webhook event. */
export interface ProviderEvent {
  id: string;
  type: string;
  data: { object: Record<string, unknown> };
}

export interface BillingProvider {
  readonly kind: 'stripe' | 'local';
  createCustomer(input: { email: string; userId: string }): Promise<{ id: string }>;
  getCustomer(customerId: string): Promise<ProviderCustomer | null>;
  createCheckoutSession(input: {
    customerId: string;
    priceId: string;
    successUrl: string;
    cancelUrl: string;
    userId: string;
    /** The free trial still running: the first charge falls at its end, not at checkout. */
    trialEnd?: Date;
  }): Promise<{ id: string; url: string }>;
  getCheckoutSession(sessionId: string): Promise<ProviderCheckoutSession | null>;
  /** Expires the customer's checkout sessions that are still open, so an older tab cannot pay too. */
  expireOpenCheckoutSessions(customerId: string): Promise<void>;
  createPortalSession(input: { customerId: string; returnUrl: string }): Promise<{ url: string }>;
  /** Every subscription of the customer, whatever its status. */
  listSubscriptions(customerId: string): Promise<ProviderSubscription[]>;
  /** Ends the subscription now (no further charges); one that is already gone is not an error. */
  cancelSubscriptionNow(subscriptionId: string): Promise<void>;
  /** Checks the signature over the raw body; throws WebhookSignatureError when it does not hold. */
  verifyWebhook(rawBody: string, signatureHeader: string | undefined): ProviderEvent;
}

/** The provider refused or could not be reached. `kind` says what the web should tell people. */
export class BillingProviderError extends Error {
  readonly kind: 'pricing' | 'account' | 'other';
  readonly status?: number;
  constructor(message: string, kind: 'pricing' | 'account' | 'other' = 'other', status?: number, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BillingProviderError';
    this.kind = kind;
    this.status = status;
  }
}

export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

/** A correctly signed event that cannot be one of the provider's: refused for good, not retried. */
export class WebhookEventError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookEventError';
  }
}
