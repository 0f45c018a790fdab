import { performance } from 'node:perf_hooks';
import type { AppContext } from '../context';
import { SYSTEM_SUBJECT } from '../crypto/encryption';
import type { Db } from '../db/database';
import { filterOnly } from '../db/filter-only';
import { commitTogether } from '../db/group-commit';
import { preparedQuery } from '../db/prepared';
import type { SmsMessage } from '../db/tables';
import { AppError } from '../errors';
import type { SmsMedia } from '../journal/sms-entries';
import type { Pace } from './inbound-pacing';
import { handleInboundText, type HandledText } from './inbound-rules';
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

/** How a handled text's row is marked: processed (with what it was), or failed and due again later. */
interface Processed {
  id: string;
  kind: HandledText['kind'];
  userId: string | null;
  entryId: string | null;
  entryDate: string | null;
  processingMs: number;
  at: string;
}
interface Failed {
  id: string;
  processingMs: number;
  errorCode: string;
  errorMessage: string;
  sendAfter: string;
  at: string;
}
/** What processing one claimed text came to, as its row will record it. */
type Settlement = { status: 'processed'; row: Processed } | { status: 'failed'; row: Failed };

/**
 * Processes one recorded inbound text, at most once at a time across instances (a leased claim on
 * the row). Success marks it processed; failure records the error and leaves it for the sweep.
 * Handling is idempotent per text (the journal records each text it applied, replies and milestone
 * texts carry dedupe keys), so a claim taken over early changes nothing a user can see twice.
 */
export async function processInboundMessage(ctx: AppContext, id: string, options: ProcessOptions = {}): Promise<ProcessOutcome> {
  const [outcome] = await processInboundMessages(ctx, [id], options);
  return outcome!;
}

/**
 * Processes several recorded texts in the order given, as processInboundMessage does one: they are
 * claimed in one statement, handled one after another (with a pace, each in its own turn of the
 * event loop, so requests are answered in between: see inbound-pacing.ts), and their outcomes
 * written together at the end. On SQLite each commit writes its pages to the log while holding the
 * event loop; a text had three (claim, journal, outcome) and now has one and a share of two. A crash
 * before the outcomes are written leaves handled texts unmarked: they are handled again, which
 * changes nothing (see above), and marked then.
 */
export async function processInboundMessages(ctx: AppContext, ids: readonly string[], options: ProcessOptions & { pace?: Pace } = {}): Promise<ProcessOutcome[]> {
  const claimed = await claimAll(ctx, ids, options.takeClaimsBefore);
  const handled: Settlement[] = [];
  const outcomes: ProcessOutcome[] = [];
  for (const id of ids) {
    const row = claimed.get(id);
    if (!row) {
      outcomes.push({ status: 'busy' });
      continue;
    }
    await options.pace?.next();
    const started = performance.now();
    const settlement = await handle(ctx, row);
    options.pace?.spent(performance.now() - started);
    handled.push(settlement);
    outcomes.push(settlement.status === 'failed' ? { status: 'failed', error: settlement.row.errorMessage } : { status: 'processed' });
  }
  const settled = await settleAll(ctx, handled);
  handled.forEach((text, i) => settled[i] && ctx.metrics.inboundText(text.status === 'failed' ? 'failed' : text.row.kind));
  return outcomes;
}

async function handle(ctx: AppContext, row: SmsMessage): Promise<Settlement> {
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
    const processed: Processed = {
      id: row.id,
      kind: handled.kind,
      userId: handled.userId,
      entryId: handled.entryId ?? null,
      entryDate: handled.entryDate ?? null,
      processingMs: elapsed(),
      at: ctx.clock.now().toISOString(),
    };
    return { status: 'processed', row: processed };
  } catch (err) {
    const error = (err instanceof Error ? err.message : String(err)).slice(0, 500);
    const retryIn = Math.min(RETRY_BASE_MS * 2 ** Math.max(row.attempts - 1, 0), RETRY_CAP_MS);
    const failed: Failed = {
      id: row.id,
      processingMs: elapsed(),
      errorCode: err instanceof AppError ? err.code : 'PROCESSING_FAILED',
      errorMessage: error,
      sendAfter: new Date(ctx.clock.now().getTime() + retryIn).toISOString(),
      at: ctx.clock.now().toISOString(),
    };
    return { status: 'failed', row: failed };
  }
}

/**
 * Writes each outcome in one transaction (on SQLite, committed with the other small writes of the
 * turn), skipping a text another worker marked processed first: when two workers held it (a claim
 * taken over), the first settles it, and a worker whose claim was taken over never marks a text
 * another processed as failed. True for each outcome written.
 */
async function settleAll(ctx: AppContext, texts: readonly Settlement[]): Promise<boolean[]> {
  if (!texts.length) return [];
  const settle = async (db: Db) => {
    const written: boolean[] = [];
    for (const text of texts) {
      const rows = text.status === 'failed' ? await markFailed(db, text.row) : await (text.row.kind === 'journal' ? markJournaled : markProcessed)(db, text.row);
      written.push(rows.length === 1);
    }
    return written;
  };
  return ctx.dbKind === 'sqlite' ? commitTogether(ctx, settle) : ctx.db.transaction().execute(settle);
}

// Each text's outcome is one of these (db/prepared.ts); RETURNING gives a row only when it was written.
const processedQuery = (journaled: boolean) =>
  preparedQuery<Processed, { id: string }>((db, param) =>
    db
      .updateTable('sms_messages')
      .set({
        processed: 1,
        status: 'processed',
        kind: param('kind'),
        user_id: param('userId'),
        entry_id: param('entryId'),
        entry_date: param('entryDate'),
        processing_ms: param('processingMs'),
        error_code: null,
        error_message: null,
        updated_at: param('at'),
        // Once in the journal, the text lives only under the owner's key: deleting the entry deletes it.
        ...(journaled ? { body: null } : {}),
      })
      .where('id', '=', param('id'))
      .where('processed', '=', 0)
      .returning('id'),
  );
const markProcessed = processedQuery(false);
const markJournaled = processedQuery(true);
const markFailed = preparedQuery<Failed, { id: string }>((db, param) =>
  db
    .updateTable('sms_messages')
    .set({
      status: 'failed',
      processing_ms: param('processingMs'),
      error_code: param('errorCode'),
      error_message: param('errorMessage'),
      claimed_at: null,
      send_after: param('sendAfter'),
      updated_at: param('at'),
    })
    .where('id', '=', param('id'))
    .where('processed', '=', 0)
    .returning('id'),
);

/** Claims the texts that are not processed and not held under a live lease; the claimed rows by id. */
async function claimAll(ctx: AppContext, ids: readonly string[], takeClaimsBefore?: Date): Promise<Map<string, SmsMessage>> {
  if (!ids.length) return new Map();
  const now = ctx.clock.now();
  const leaseEnd = now.getTime() - PROCESSING_LEASE_MS;
  const leaseExpired = new Date(Math.max(leaseEnd, takeClaimsBefore?.getTime() ?? leaseEnd)).toISOString();
  // The claimed rows come back from the claim itself (RETURNING, on SQLite and PostgreSQL alike).
  const rows = await commitTogether(ctx, (db) =>
    db
      .updateTable('sms_messages')
      .set((eb) => ({ claimed_at: now.toISOString(), updated_at: now.toISOString(), attempts: eb('attempts', '+', 1) }))
      .where('id', 'in', ids)
      // By primary key, however many ids (see filterOnly).
      .where(filterOnly(ctx, 'direction'), '=', 'inbound')
      .where('processed', '=', 0)
      .where((eb) => eb.or([eb('claimed_at', 'is', null), eb('claimed_at', '<', leaseExpired)]))
      .returningAll()
      .execute(),
  );
  return new Map(rows.map((row) => [row.id, row]));
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
