import type { AppContext } from '../context';
import type { Subscriber } from '../db/tables';
import { newId } from '../ids';
import { planPrices } from '../providers/billing/index';
import type { ProviderSubscription } from '../providers/billing/types';

/** Statuses that still count as a live subscription, best first. */
const STATUS_RANK: Record<string, number> = { active: 0, trialing: 1, past_due: 2, unpaid: 3, paused: 4, incomplete: 5, canceled: 6, incomplete_expired: 7 };

/** The subscription that decides access: the liveliest status, then the latest period end. */
function pickSubscription(subscriptions: ProviderSubscription[]): ProviderSubscription | undefined {
  return [...subscriptions].sort((a, b) => {
    const rank = (STATUS_RANK[a.status] ?? 9) - (STATUS_RANK[b.status] ?? 9);
    if (rank !== 0) return rank;
    return (b.currentPeriodEnd?.getTime() ?? 0) - (a.currentPeriodEnd?.getTime() ?? 0);
  })[0];
}

function tierOf(ctx: AppContext, subscription: ProviderSubscription): 'monthly' | 'yearly' | null {
  const prices = planPrices(ctx.config);
  if (subscription.priceId === prices.monthly) return 'monthly';
  if (subscription.priceId === prices.yearly) return 'yearly';
  if (subscription.interval === 'month') return 'monthly';
  if (subscription.interval === 'year') return 'yearly';
  return null;
}

/** Whether a provider subscription gives access now: active or trialing, or past due while still in the period. */
function isEntitled(subscription: ProviderSubscription, now: Date): boolean {
  if (subscription.status === 'active' || subscription.status === 'trialing') return true;
  if (subscription.status === 'past_due') return !!subscription.currentPeriodEnd && subscription.currentPeriodEnd > now;
  return false;
}

/** The subscribers row of a provider customer: by the stored id, else by the user id in the customer's metadata. */
async function findRow(ctx: AppContext, customerId: string): Promise<Subscriber | undefined> {
  const byCustomer = await ctx.db.selectFrom('subscribers').selectAll().where('provider_customer_id', '=', customerId).executeTakeFirst();
  if (byCustomer) return byCustomer;
  const customer = await ctx.billing.getCustomer(customerId);
  if (!customer?.userId) return undefined;
  const user = await ctx.db.selectFrom('users').select(['id', 'email']).where('id', '=', customer.userId).executeTakeFirst();
  if (!user) return undefined;
  const now = ctx.clock.now().toISOString();
  const existing = await ctx.db.selectFrom('subscribers').selectAll().where('user_id', '=', user.id).executeTakeFirst();
  if (!existing) {
    await ctx.db
      .insertInto('subscribers')
      .values({ id: newId(), user_id: user.id, email: user.email, is_trial: 0, provider_customer_id: customerId, created_at: now, updated_at: now })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
  } else if (!existing.provider_customer_id) {
    await ctx.db
      .updateTable('subscribers')
      .set({ provider_customer_id: customerId, updated_at: now })
      .where('id', '=', existing.id)
      .where('provider_customer_id', 'is', null)
      .execute();
  } else {
    // The user already has another customer; do not move them.
    return undefined;
  }
  return ctx.db.selectFrom('subscribers').selectAll().where('provider_customer_id', '=', customerId).executeTakeFirst();
}

interface SyncResult {
  /** The user whose row was written, if the customer is one of ours. */
  userId: string | null;
  subscribed: boolean;
}

/**
 * The one way subscription state changes: re-read the customer's subscriptions from the provider and
 * write what they say to the subscribers row. Webhooks, the checkout return and lazy checks all call
 * it, so repeated or out-of-order events cannot leave a wrong state behind.
 */
export async function syncSubscription(ctx: AppContext, customerId: string): Promise<SyncResult> {
  const row = await findRow(ctx, customerId);
  if (!row) return { userId: null, subscribed: false };
  const subscriptions = await ctx.billing.listSubscriptions(customerId);
  const chosen = pickSubscription(subscriptions);
  const now = ctx.clock.now();
  const nowIso = now.toISOString();
  if (!chosen) {
    await ctx.db
      .updateTable('subscribers')
      .set({ subscribed: 0, subscription_status: null, updated_at: nowIso })
      .where('id', '=', row.id)
      .execute();
    return { userId: row.user_id, subscribed: false };
  }
  const subscribed = isEntitled(chosen, now);
  const cancelled = chosen.cancelAtPeriodEnd || chosen.status === 'canceled';
  await ctx.db
    .updateTable('subscribers')
    .set({
      subscribed: subscribed ? 1 : 0,
      subscription_status: chosen.status,
      subscription_tier: tierOf(ctx, chosen),
      subscription_end: chosen.currentPeriodEnd?.toISOString() ?? null,
      provider_subscription_id: chosen.id,
      // Once paid, the trial is over for good.
      ...(subscribed ? { is_trial: 0 } : {}),
      subscribed_at: subscribed ? (row.provider_subscription_id === chosen.id && row.subscribed_at ? row.subscribed_at : nowIso) : row.subscribed_at,
      cancelled_at: cancelled ? (row.cancelled_at ?? chosen.canceledAt?.toISOString() ?? nowIso) : null,
      updated_at: nowIso,
    })
    .where('id', '=', row.id)
    .execute();
  return { userId: row.user_id, subscribed };
}

/** How long a lazy check waits before asking the provider again for the same user. */
const LAZY_SYNC_INTERVAL_MS = 60_000;
const lastLazySync = new WeakMap<AppContext, Map<string, number>>();

function lazyTimes(ctx: AppContext): Map<string, number> {
  let times = lastLazySync.get(ctx);
  if (!times) lastLazySync.set(ctx, (times = new Map()));
  return times;
}

/** A checkout just started: the next access check may ask the provider again at once. */
export function forgetLazySync(ctx: AppContext, userId: string): void {
  lazyTimes(ctx).delete(userId);
}

/**
 * For a customer whose row shows no paid access: ask the provider (at most once a minute per
 * user), so a paid checkout shows as access even when its webhook is late or lost.
 * Answers true when the row was rewritten. Provider failures are logged and ignored.
 */
export async function lazySync(ctx: AppContext, row: Pick<Subscriber, 'user_id' | 'provider_customer_id'>): Promise<boolean> {
  if (!row.provider_customer_id) return false;
  const times = lazyTimes(ctx);
  const nowMs = ctx.clock.now().getTime();
  const last = times.get(row.user_id);
  if (last !== undefined && nowMs - last < LAZY_SYNC_INTERVAL_MS && nowMs >= last) return false;
  times.set(row.user_id, nowMs);
  try {
    await syncSubscription(ctx, row.provider_customer_id);
    return true;
  } catch {
    return false;
  }
}
