import type { AppContext } from '../context';

export interface AccessStatus {
  subscribed: boolean;
  subscription_tier: string | null;
  subscription_end: string | null;
  is_trial: boolean;
  trial_end: string | null;
  /** Trial or paid access right now. */
  hasAccess: boolean;
}

/** Access is granted while subscribed (until the period ends) or while the trial runs. */
export async function getAccessStatus(ctx: AppContext, userId: string): Promise<AccessStatus> {
  const row = await ctx.db.selectFrom('subscribers').selectAll().where('user_id', '=', userId).executeTakeFirst();
  const now = ctx.clock.now().toISOString();
  const subscribed = !!row && row.subscribed === 1 && (row.subscription_end === null || row.subscription_end > now);
  const inTrial = !!row && row.is_trial === 1 && row.trial_end !== null && row.trial_end > now;
  return {
    subscribed,
    subscription_tier: subscribed ? row!.subscription_tier : null,
    subscription_end: row?.subscription_end ?? null,
    is_trial: !!row && row.is_trial === 1,
    trial_end: row?.trial_end ?? null,
    hasAccess: subscribed || inTrial,
  };
}
