import type { AppContext } from '../context';
import { processInboundMessage } from './process-inbound';

/** Texts younger than this are still with their first processing attempt. */
const SWEEP_AFTER_MS = 30_000;

/**
 * The recovery half of "nothing lost": a text recorded but never processed (a crash between the
 * webhook answer and processing, or a failure) is processed again once it is due.
 */
export async function sweepInboundMessages(ctx: AppContext, options: { limit?: number } = {}): Promise<{ processed: number; failed: number }> {
  const now = ctx.clock.now();
  const nowIso = now.toISOString();
  const stuck = await ctx.db
    .selectFrom('sms_messages')
    .select('id')
    .where('direction', '=', 'inbound')
    .where('processed', '=', 0)
    .where('status', 'in', ['received', 'failed']) // the same rows, by the queue index
    .where('created_at', '<', new Date(now.getTime() - SWEEP_AFTER_MS).toISOString())
    .where((eb) => eb.or([eb('send_after', 'is', null), eb('send_after', '<=', nowIso)]))
    .orderBy('created_at')
    .limit(options.limit ?? 50)
    .execute();
  const result = { processed: 0, failed: 0 };
  for (const { id } of stuck) {
    const outcome = await processInboundMessage(ctx, id);
    if (outcome.status === 'processed') result.processed++;
    if (outcome.status === 'failed') result.failed++;
  }
  return result;
}
