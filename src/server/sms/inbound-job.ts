import { performance } from 'node:perf_hooks';
import type { AppContext } from '../context';
import type { SmsMessage } from '../db/tables';
import { AppError } from '../errors';
import { backoffMs } from '../jobs/backoff';
import { eachAtOnce, workOffClaims } from '../jobs/claim';
import type { SmsMedia } from '../journal/sms-entries';
import { recordedBody } from './inbound';
import { handleInboundText } from './inbound-rules';
import type { Keyword } from './keywords';
import { markTextProcessed } from './repo';
import { sendingStopped } from './sends-in-flight';

/** A claim older than this belongs to an instance that died mid-text; the text is offered again. */
const LEASE_MS = 60_000;
/** Texts claimed at once: a batch is done long before its lease ends. */
const BATCH = 50;
/** Retry n of a text that failed waits 30 s × 2^(n-1), at most an hour; a text is never given up on. */
const RETRY_BASE_MS = 30_000;
const RETRY_CAP_MS = 60 * 60_000;
/** PostgreSQL statements wait on the network, so a few senders' texts are processed side by side. */
const POSTGRES_LANES = 8;

interface InboundRun {
  processed: number;
  failed: number;
}

type Processed = { status: 'processed' } | { status: 'failed'; error: string };

// The instant each app's job first ran: that run is the recovery (see claimDue).
const startedAt = new WeakMap<AppContext, Date>();

/**
 * The inbound job: claims recorded texts under a lease, oldest first, and processes them, each in a
 * turn of the event loop of its own so requests are answered in between. The webhook wakes it; the
 * scheduler also runs it every few seconds for retries and for texts a crashed instance held.
 */
export async function processInboundTexts(ctx: AppContext, options: { ids?: readonly string[]; onOutcome?: (outcome: Processed) => void } = {}): Promise<InboundRun> {
  const run: InboundRun = { processed: 0, failed: 0 };
  if (!startedAt.has(ctx)) startedAt.set(ctx, ctx.clock.now());
  let claims = 0;
  await workOffClaims({
    stopped: () => sendingStopped(ctx),
    claim: async () => {
      // Given texts are claimed once: those another worker holds are its own.
      if (options.ids && claims++ > 0) return null;
      const rows = await claimDue(ctx, startedAt.get(ctx)!, options.ids);
      return rows.length ? { rows } : null;
    },
    handle: (rows) =>
      inLanes(ctx, rows, async (row) => {
        const outcome = await processClaimed(ctx, row);
        run[outcome.status]++;
        options.onOutcome?.(outcome);
      }),
  });
  return run;
}

/** Processes one recorded text now (the demo account, tests); 'busy' when another worker holds it. */
export async function processInboundMessage(ctx: AppContext, id: string): Promise<Processed | { status: 'busy' }> {
  let outcome: Processed | undefined;
  await processInboundTexts(ctx, { ids: [id], onOutcome: (o) => (outcome = o) });
  return outcome ?? { status: 'busy' };
}

/**
 * Each sender's texts one after another in the order they arrived (a day entry reads as it was
 * texted); on PostgreSQL a few senders side by side.
 */
async function inLanes(ctx: AppContext, rows: SmsMessage[], work: (row: SmsMessage) => Promise<void>): Promise<void> {
  const bySender = new Map<string, SmsMessage[]>();
  for (const row of rows) bySender.set(row.from_number, [...(bySender.get(row.from_number) ?? []), row]);
  await eachAtOnce([...bySender.values()], ctx.dbKind === 'postgres' ? POSTGRES_LANES : 1, async (texts) => {
    for (const row of texts) {
      await new Promise((resolve) => setImmediate(resolve));
      await work(row);
    }
  });
}

/**
 * Claims due texts: unprocessed, past any retry wait, and unclaimed or held under an expired lease.
 * The app's first run also takes claims made before it started: the usual owner of such a claim is
 * this instance before a crash. Taking a live worker's claim is safe too, since handling a text is
 * idempotent (the journal records each text it applied; replies carry dedupe keys).
 */
async function claimDue(ctx: AppContext, started: Date, ids?: readonly string[]): Promise<SmsMessage[]> {
  const now = ctx.clock.now();
  const nowIso = now.toISOString();
  const leaseCutoff = new Date(Math.max(now.getTime() - LEASE_MS, started.getTime())).toISOString();
  const due = await ctx.db
    .selectFrom('sms_messages')
    .select('id')
    .where('direction', '=', 'inbound')
    .where('processed', '=', 0)
    .where('status', 'in', ['received', 'failed'])
    .$if(!!ids, (qb) => qb.where('id', 'in', ids!))
    .where((eb) => eb.or([eb('send_after', 'is', null), eb('send_after', '<=', nowIso)]))
    .where((eb) => eb.or([eb('claimed_at', 'is', null), eb('claimed_at', '<', leaseCutoff)]))
    .orderBy('created_at')
    .limit(BATCH)
    .execute();
  if (!due.length) return [];
  const claimed = await ctx.db
    .updateTable('sms_messages')
    .set((eb) => ({ claimed_at: nowIso, updated_at: nowIso, attempts: eb('attempts', '+', 1) }))
    .where('id', 'in', due.map((r) => r.id))
    .where('processed', '=', 0)
    .where((eb) => eb.or([eb('claimed_at', 'is', null), eb('claimed_at', '<', leaseCutoff)]))
    .returningAll()
    .execute();
  return claimed.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
}

async function processClaimed(ctx: AppContext, row: SmsMessage): Promise<Processed> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const handled = await handleInboundText(ctx, {
      messageId: row.id,
      messageSid: row.provider_message_id ?? row.id,
      from: row.from_number,
      ...recordedBody(ctx, row),
      media: parseMedia(row.media),
      receivedAt: new Date(row.created_at),
      providerKeyword: providerKeywordOfKind(row.kind),
      recorded: { elapsed },
    });
    // A journaled text's outcome was written with its entry, in the journal's transaction.
    if (handled.kind !== 'journal') {
      const outcome = { kind: handled.kind, userId: handled.userId, entryId: handled.entryId ?? null, entryDate: handled.entryDate ?? null, processingMs: elapsed() };
      if (!(await markTextProcessed(ctx.db, row.id, outcome, ctx.clock.now().toISOString()))) return { status: 'processed' };
    }
    ctx.metrics.inboundText(handled.kind);
    return { status: 'processed' };
  } catch (err) {
    const retryIn = backoffMs(row.attempts, RETRY_BASE_MS, RETRY_CAP_MS);
    const at = ctx.clock.now();
    // The reason only, never the text.
    const error = (err instanceof Error ? err.message : String(err)).slice(0, 500);
    // Another worker that held the text may have processed it meanwhile: its outcome stands.
    const result = await ctx.db
      .updateTable('sms_messages')
      .set({
        status: 'failed',
        processing_ms: elapsed(),
        error_code: err instanceof AppError ? err.code : 'PROCESSING_FAILED',
        error_message: error,
        claimed_at: null,
        send_after: new Date(at.getTime() + retryIn).toISOString(),
        updated_at: at.toISOString(),
      })
      .where('id', '=', row.id)
      .where('processed', '=', 0)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) > 0) ctx.metrics.inboundText('failed');
    return { status: 'failed', error };
  }
}

function providerKeywordOfKind(kind: string): Exclude<Keyword, 'yes'> | null {
  const match = /^provider_(opt_out|opt_in|help)$/.exec(kind);
  return match ? (match[1] as Exclude<Keyword, 'yes'>) : null;
}

function parseMedia(stored: string | null): SmsMedia[] {
  if (!stored) return [];
  try {
    const list = JSON.parse(stored) as unknown;
    return Array.isArray(list) ? (list as SmsMedia[]) : [];
  } catch {
    return [];
  }
}

/** Resolves once every text recorded so far is processed or waiting out a retry (tests, shutdown). */
export async function inboundProcessingSettled(ctx: AppContext): Promise<void> {
  await processInboundTexts(ctx);
}
