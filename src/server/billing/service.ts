import { messages } from '../../shared/messages';
import { trialCarriedUntil, type PlanId } from '../../shared/plans';
import type { AppContext } from '../context';
import { conflict, notFound } from '../errors';
import { newId } from '../ids';
import { planPrices } from '../providers/billing/index';
import type { ProviderEvent } from '../providers/billing/types';
import { idOf } from '../providers/billing/stripe';
import { getAccessStatus } from './access';
import { forgetLazySync, syncSubscription } from './sync';

/** The billing customer of a user, created (once) with the user id in its metadata. */
async function ensureCustomer(ctx: AppContext, user: { id: string; email: string }): Promise<string> {
  const row = await ctx.db.selectFrom('subscribers').select(['id', 'provider_customer_id']).where('user_id', '=', user.id).executeTakeFirst();
  if (row?.provider_customer_id) return row.provider_customer_id;
  const customer = await ctx.billing.createCustomer({ email: user.email, userId: user.id });
  const now = ctx.clock.now().toISOString();
  if (row) {
    await ctx.db
      .updateTable('subscribers')
      .set({ provider_customer_id: customer.id, updated_at: now })
      .where('id', '=', row.id)
      .where('provider_customer_id', 'is', null)
      .execute();
  } else {
    await ctx.db
      .insertInto('subscribers')
      .values({ id: newId(), user_id: user.id, email: user.email, is_trial: 0, provider_customer_id: customer.id, created_at: now, updated_at: now })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
  }
  // A concurrent request may have stored its own customer first: use whichever won.
  const stored = await ctx.db.selectFrom('subscribers').select('provider_customer_id').where('user_id', '=', user.id).executeTakeFirst();
  return stored?.provider_customer_id ?? customer.id;
}

/**
 * Starts a subscription checkout for a plan: {url, sessionId}. One subscription per account: a
 * subscriber is refused (409) and switches plans or cancels in the billing portal instead. The
 * provider is asked first, so a payment whose webhook has not arrived yet still counts. During the
 * free trial the first charge is set for the trial's end (shared/plans.ts, trialCarriedUntil).
 */
export async function startCheckout(ctx: AppContext, user: { id: string; email: string }, plan: PlanId): Promise<{ url: string; sessionId: string }> {
  const known = await getAccessStatus(ctx, user.id);
  if (known.subscribed) throw conflict(messages.billingManagement.alreadySubscribed);
  const existing = await ctx.db.selectFrom('subscribers').select('provider_customer_id').where('user_id', '=', user.id).executeTakeFirst();
  const customerId = await ensureCustomer(ctx, user);
  if (existing?.provider_customer_id && (await syncSubscription(ctx, customerId)).subscribed) {
    throw conflict(messages.billingManagement.alreadySubscribed);
  }
  // Only the newest checkout can be paid: a second tab's older session cannot add a second plan.
  await ctx.billing.expireOpenCheckoutSessions(customerId);
  const publicUrl = ctx.config.publicUrl;
  const session = await ctx.billing.createCheckoutSession({
    customerId,
    priceId: planPrices(ctx.config)[plan],
    successUrl: `${publicUrl}/journal?success=true&session_id={CHECKOUT_SESSION_ID}`,
    cancelUrl: `${publicUrl}/journal?canceled=true`,
    userId: user.id,
    // Subscribing mid-trial keeps the trial's remaining days: the first charge falls at its end.
    trialEnd: trialCarriedUntil(known, ctx.clock.now()) ?? undefined,
  });
  forgetLazySync(ctx, user.id);
  return { url: session.url, sessionId: session.id };
}

/** The checkout return: the session must be this user's; then the subscription is read at once. */
export async function completeCheckout(ctx: AppContext, userId: string, sessionId: string): Promise<void> {
  const row = await ctx.db.selectFrom('subscribers').select('provider_customer_id').where('user_id', '=', userId).executeTakeFirst();
  if (!row?.provider_customer_id) throw notFound(messages.billing.sessionNotFound);
  const session = await ctx.billing.getCheckoutSession(sessionId);
  if (!session || session.customerId !== row.provider_customer_id) throw notFound(messages.billing.sessionNotFound);
  await syncSubscription(ctx, row.provider_customer_id);
}

/** The billing portal for a user who has a customer: {url}. */
export async function openPortal(ctx: AppContext, userId: string): Promise<{ url: string }> {
  const row = await ctx.db.selectFrom('subscribers').select('provider_customer_id').where('user_id', '=', userId).executeTakeFirst();
  if (!row?.provider_customer_id) throw notFound(messages.billing.noCustomer);
  return ctx.billing.createPortalSession({ customerId: row.provider_customer_id, returnUrl: `${ctx.config.publicUrl}/settings` });
}

/** Event types that can change a subscription. */
function isSubscriptionEvent(type: string): boolean {
  return (
    type.startsWith('customer.subscription.') ||
    type === 'checkout.session.completed' ||
    type === 'checkout.session.async_payment_succeeded' ||
    type === 'invoice.paid' ||
    type === 'invoice.payment_failed'
  );
}

type WebhookOutcome = 'processed' | 'duplicate' | 'ignored';

/**
 * A verified webhook event: a redelivery is acknowledged and ignored; a subscription event
 * re-reads the customer's subscription. The event is recorded only after it was handled, so a
 * failure leaves it for the provider to send again.
 */
export async function handleWebhookEvent(ctx: AppContext, event: ProviderEvent): Promise<WebhookOutcome> {
  const seen = await ctx.db.selectFrom('billing_events').select('id').where('provider_event_id', '=', event.id).executeTakeFirst();
  if (seen) return 'duplicate';
  const customerId = idOf(event.data.object.customer);
  const relevant = isSubscriptionEvent(event.type) && !!customerId;
  if (relevant) await syncSubscription(ctx, customerId!);
  const inserted = await ctx.db
    .insertInto('billing_events')
    .values({ id: newId(), provider_event_id: event.id, type: event.type, customer_id: customerId, received_at: ctx.clock.now().toISOString() })
    .onConflict((oc) => oc.column('provider_event_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return 'duplicate';
  return relevant ? 'processed' : 'ignored';
}
