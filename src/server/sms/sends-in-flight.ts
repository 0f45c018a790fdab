import { sql } from 'kysely';
import type { AppContext } from '../context';

interface SenderState {
  /** Set when the app begins to shut down: the sender claims nothing more. */
  stopping: boolean;
  /** Rows this instance has claimed and not yet finished sending. */
  claimed: Set<string>;
}

// Per app, so tests with several apps in one process keep theirs apart.
const states = new WeakMap<AppContext, SenderState>();

function stateOf(ctx: AppContext): SenderState {
  let state = states.get(ctx);
  if (!state) {
    state = { stopping: false, claimed: new Set() };
    states.set(ctx, state);
  }
  return state;
}

/** The app is shutting down: stop claiming texts (they stay queued for another instance). */
export function stopSending(ctx: AppContext): void {
  stateOf(ctx).stopping = true;
}

export function sendingStopped(ctx: AppContext): boolean {
  return stateOf(ctx).stopping;
}

/** Runs one claimed send, remembering the claim until it is finished either way. */
export async function trackSend<T>(ctx: AppContext, id: string, send: () => Promise<T>): Promise<T> {
  const { claimed } = stateOf(ctx);
  claimed.add(id);
  try {
    return await send();
  } finally {
    claimed.delete(id);
  }
}

/**
 * Puts back in the queue every text this instance claimed but could not finish sending (shutdown
 * ran out of time), so another instance sends it now instead of after the two-minute stale claim.
 */
export async function releaseUnfinishedSends(ctx: AppContext): Promise<number> {
  const ids = [...stateOf(ctx).claimed];
  if (!ids.length) return 0;
  const now = ctx.clock.now().toISOString();
  const result = await ctx.db
    .updateTable('sms_messages')
    // Its request may have reached the provider: it is looked up there before it is sent again.
    .set({ status: 'pending', claimed_at: null, unconfirmed_since: sql`coalesce(unconfirmed_since, claimed_at)`, updated_at: now })
    .where('id', 'in', ids)
    .where('direction', '=', 'outbound')
    .where('status', '=', 'sending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
