import type { AppContext } from '../context';
import { processInboundMessage } from './process-inbound';
import { sendingStopped } from './sends-in-flight';

/** Texts younger than this are still with their first processing attempt. */
const SWEEP_AFTER_MS = 30_000;
/** The start-up sweep takes this many texts at a time and works on this many at once. */
const START_BATCH = 100;
const START_CONCURRENCY = 4;

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

/**
 * What an instance does as it starts: processes, now rather than in two minutes, every text that was
 * recorded before it started and is not processed yet — unclaimed, or claimed before it started.
 * Such a claim is stale when it belonged to an instance that was killed (the usual reason a text is
 * left behind, and the instance restarting is usually that one). It can also belong to a live
 * instance still working on the text; taking it over is safe because handling is idempotent per
 * text: the journal records every text it applied (checked again inside the user's journal turn),
 * replies and milestone texts carry dedupe keys, and only the first worker to finish marks the row.
 * Texts waiting out a retry after a failure keep their backoff. Once the app begins to shut down it
 * takes no more (what is left waits for the next start or the regular sweep).
 */
export async function sweepInboundAtStart(ctx: AppContext, startedAt: Date = ctx.clock.now()): Promise<{ processed: number; failed: number }> {
  const startedIso = startedAt.toISOString();
  const result = { processed: 0, failed: 0 };
  const tried = new Set<string>();
  for (;;) {
    const nowIso = ctx.clock.now().toISOString();
    const left = await ctx.db
      .selectFrom('sms_messages')
      .select(['id', 'from_number'])
      .where('direction', '=', 'inbound')
      .where('processed', '=', 0)
      .where('status', 'in', ['received', 'failed'])
      .where('created_at', '<', startedIso)
      .where((eb) => eb.or([eb('send_after', 'is', null), eb('send_after', '<=', nowIso)]))
      .where((eb) => eb.or([eb('claimed_at', 'is', null), eb('claimed_at', '<', startedIso)]))
      .orderBy('created_at')
      .limit(START_BATCH + tried.size)
      .execute();
    // A text that failed (or that another worker holds) is not tried again here: the sweep retries it.
    const batch = left.filter((r) => !tried.has(r.id));
    if (!batch.length || sendingStopped(ctx)) return result;
    // Senders side by side, each sender's texts one after another in the order they arrived,
    // so a day entry reads as it was texted.
    const bySender = new Map<string, string[]>();
    for (const { id, from_number } of batch) bySender.set(from_number, [...(bySender.get(from_number) ?? []), id]);
    const senders = [...bySender.values()];
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(START_CONCURRENCY, senders.length) }, async () => {
        while (next < senders.length) {
          for (const id of senders[next++]!) {
            if (sendingStopped(ctx)) return;
            tried.add(id);
            const outcome = await processInboundMessage(ctx, id, { takeClaimsBefore: startedAt });
            if (outcome.status === 'processed') result.processed++;
            if (outcome.status === 'failed') result.failed++;
          }
        }
      }),
    );
  }
}

// Per app: whether its start-up sweep has run.
const sweptAtStart = new WeakSet<AppContext>();

/**
 * The background job: its first run is the start-up sweep (the scheduler runs every job as it
 * starts, before the instance takes requests); later runs are the regular sweep.
 */
export async function runInboundSweep(ctx: AppContext): Promise<{ processed: number; failed: number }> {
  if (sweptAtStart.has(ctx)) return sweepInboundMessages(ctx);
  const result = await sweepInboundAtStart(ctx);
  sweptAtStart.add(ctx);
  return result;
}
