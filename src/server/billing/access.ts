import type { AppContext } from '../context';
import type { Subscriber } from '../db/tables';
import { lazySync } from './sync';

interface AccessStatus {
  subscribed: boolean;
  subscription_tier: string | null;
  subscription_end: string | null;
  is_trial: boolean;
  trial_end: string | null;
  /** A cancelled subscription that still runs to the end of its period (subscription_end). */
  cancel_at_period_end: boolean;
  /** Trial or paid access right now. */
  hasAccess: boolean;
}

const readRow = (ctx: AppContext, userId: string): Promise<Subscriber | undefined> => ctx.db.selectFrom('subscribers').selectAll().where('user_id', '=', userId).executeTakeFirst();

/** The columns access depends on: what a query that reads them beside others must select. */
export const ACCESS_COLUMNS = ['user_id', 'is_trial', 'trial_end', 'subscribed', 'subscription_tier', 'subscription_end', 'cancelled_at', 'provider_customer_id'] as const;

export type AccessRow = Pick<Subscriber, (typeof ACCESS_COLUMNS)[number]>;

function statusOf(row: AccessRow | undefined, now: string): AccessStatus {
  const subscribed = !!row && row.subscribed === 1 && (row.subscription_end === null || row.subscription_end > now);
  const inTrial = !!row && row.is_trial === 1 && row.trial_end !== null && row.trial_end > now;
  return {
    subscribed,
    subscription_tier: subscribed ? row!.subscription_tier : null,
    subscription_end: row?.subscription_end ?? null,
    is_trial: !!row && row.is_trial === 1,
    trial_end: row?.trial_end ?? null,
    cancel_at_period_end: subscribed && row!.cancelled_at !== null,
    hasAccess: subscribed || inTrial,
  };
}

/**
 * Access is granted while subscribed (until the period ends) or while the trial runs. A user who
 * has a billing customer but no paid access is checked with the provider (at most once a minute),
 * so a checkout whose webhook is late still opens the journal.
 */
export async function getAccessStatus(ctx: AppContext, userId: string): Promise<AccessStatus> {
  return accessStatusOf(ctx, userId, await readRow(ctx, userId));
}

/** getAccessStatus for a subscriber row already read (undefined: the user has none). */
export async function accessStatusOf(ctx: AppContext, userId: string, row: AccessRow | undefined): Promise<AccessStatus> {
  const now = ctx.clock.now().toISOString();
  const status = statusOf(row, now);
  if (row && !status.subscribed && row.provider_customer_id && (await lazySync(ctx, row))) {
    return statusOf(await readRow(ctx, userId), now);
  }
  return status;
}
