import { messages } from '../../shared/messages';
import type { AppContext } from '../context';
import { AppError } from '../errors';

/** Provider states in which a subscription can still charge the customer. */
const ENDED = new Set(['canceled', 'incomplete_expired']);

/**
 * Ends every live subscription the user has with the payment provider, before anything of theirs is
 * deleted: once the account is gone nobody could stop the charges. True when one was cancelled.
 * If the provider cannot be reached, nothing is deleted and the caller is asked to try again.
 */
export async function cancelBillingFirst(ctx: AppContext, userId: string): Promise<boolean> {
  const subscriber = await ctx.db
    .selectFrom('subscribers')
    .select(['provider_customer_id', 'provider_subscription_id'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  const customerId = subscriber?.provider_customer_id;
  if (!customerId) return false;
  try {
    const live = (await ctx.billing.listSubscriptions(customerId)).filter((s) => !ENDED.has(s.status));
    for (const subscription of live) await ctx.billing.cancelSubscriptionNow(subscription.id);
    return live.length > 0;
  } catch {
    throw new AppError('UNAVAILABLE', messages.accountDeletion.billingFailed);
  }
}
