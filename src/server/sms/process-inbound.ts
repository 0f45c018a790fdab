import { performance } from 'node:perf_hooks';
import type { AppContext } from '../context';
import { SYSTEM_SUBJECT } from '../crypto/encryption';
import type { SmsMessage } from '../db/tables';
import { AppError } from '../errors';
import type { SmsMedia } from '../journal/sms-entries';
import { handleInboundText } from './inbound-rules';
import type { Keyword } from './keywords';

export type ProcessOutcome = { status: 'processed' } | { status: 'busy' } | { status: 'failed'; error: string };

/** A processing claim older than this belongs to a worker that died; the text is offered again. */
const PROCESSING_LEASE_MS = 2 * 60_000;
/** Retry n waits 30 s × 2^(n-1), at most an hour; a text is never given up on. */
const RETRY_BASE_MS = 30_000;
const RETRY_CAP_MS = 60 * 60_000;

export interface ProcessOptions {
  /**
   * Also take a claim made before this instant, however fresh its lease: the start-up sweep's
   * claims of texts a killed instance left behind (see inbound-sweep.ts).
   */
  takeClaimsBefore?: Date;
}

/**
 * Processes one recorded inbound text, at most once at a time across instances (a leased claim on
 * the row). Success marks it processed; failure records the error and leaves it for the sweep.
 * Handling is idempotent per text (the journal records each text it applied, replies and milestone
 * texts carry dedupe keys), so a claim taken over early changes nothing a user can see twice.
 */
export async function processInboundMessage(ctx: AppContext, id: string, options: ProcessOptions = {}): Promise<ProcessOutcome> {
  const row = await claim(ctx, id, options.takeClaimsBefore);
  if (!row) return { status: 'busy' };
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const handled = await handleInboundText(ctx, {
      messageId: row.id,
      messageSid: row.provider_message_id ?? row.id,
      from: row.from_number,
      body: ctx.cipher.decrypt(SYSTEM_SUBJECT.id, SYSTEM_SUBJECT.salt, row.body ?? ''),
      media: parseMedia(row.media),
      receivedAt: new Date(row.created_at),
      providerKeyword: providerKeywordOfKind(row.kind),
    });
    // Only a text not yet marked: when two workers held it (a claim taken over), the first settles it.
    const settled = await settleUnprocessed(ctx, id, {
      processed: 1,
      status: 'processed',
      kind: handled.kind,
      user_id: handled.userId,
      entry_id: handled.entryId ?? null,
      entry_date: handled.entryDate ?? null,
      // Once in the journal, the text lives only under the owner's key: deleting the entry deletes it.
      ...(handled.kind === 'journal' ? { body: null } : {}),
      processing_ms: elapsed(),
      error_code: null,
      error_message: null,
      updated_at: ctx.clock.now().toISOString(),
    });
    if (settled) ctx.metrics.inboundText(handled.kind);
    return { status: 'processed' };
  } catch (err) {
    const error = (err instanceof Error ? err.message : String(err)).slice(0, 500);
    const retryIn = Math.min(RETRY_BASE_MS * 2 ** Math.max(row.attempts - 1, 0), RETRY_CAP_MS);
    // A worker whose claim was taken over must not mark a text another worker processed as failed.
    const settled = await settleUnprocessed(ctx, id, {
      status: 'failed',
      processing_ms: elapsed(),
      error_code: err instanceof AppError ? err.code : 'PROCESSING_FAILED',
      error_message: error,
      claimed_at: null,
      send_after: new Date(ctx.clock.now().getTime() + retryIn).toISOString(),
      updated_at: ctx.clock.now().toISOString(),
    });
    if (settled) ctx.metrics.inboundText('failed');
    return { status: 'failed', error };
  }
}

/** Writes the outcome unless another worker marked the text processed first; true when written. */
async function settleUnprocessed(ctx: AppContext, id: string, changes: Partial<SmsMessage>): Promise<boolean> {
  const result = await ctx.db.updateTable('sms_messages').set(changes).where('id', '=', id).where('processed', '=', 0).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

async function claim(ctx: AppContext, id: string, takeClaimsBefore?: Date): Promise<SmsMessage | undefined> {
  const now = ctx.clock.now();
  const leaseEnd = now.getTime() - PROCESSING_LEASE_MS;
  const leaseExpired = new Date(Math.max(leaseEnd, takeClaimsBefore?.getTime() ?? leaseEnd)).toISOString();
  // The claimed row comes back from the claim itself (RETURNING, on SQLite and PostgreSQL alike).
  return ctx.db
    .updateTable('sms_messages')
    .set((eb) => ({ claimed_at: now.toISOString(), updated_at: now.toISOString(), attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('direction', '=', 'inbound')
    .where('processed', '=', 0)
    .where((eb) => eb.or([eb('claimed_at', 'is', null), eb('claimed_at', '<', leaseExpired)]))
    .returningAll()
    .executeTakeFirst();
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
