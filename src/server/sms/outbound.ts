import { SegmentedMessage } from 'sms-segments-calculator';
import type { AppContext } from '../context';
import { SYSTEM_SUBJECT } from '../crypto/encryption';
import type { SmsMessage } from '../db/tables';
import { newTimeOrderedId } from '../ids';
import { SmsSendError, TWILIO_OPTED_OUT } from '../providers/sms/types';
import { isPaused } from './commands/pause';
import { optOutRecipient } from './opt-out';
import { sendingStopped, trackSend } from './sends-in-flight';
import { findProfile, findProfileByPhone } from './repo';

export interface QueueSmsInput {
  /** The recipient's account, when there is one. */
  userId: string | null;
  to: string;
  body: string;
  /** What the text is for: verification, help, signup_hint, reminder… */
  kind: string;
  /** Unique per automated text (`reminder:USER:DATE`); a second enqueue with the same key is a no-op. */
  dedupeKey?: string;
}

/** Kinds that go out even to an opted-out number: the carrier rules require them, or the user asked. */
export const ALWAYS_SENT_KINDS: ReadonlySet<string> = new Set(['opt_out_confirmation', 'help', 'verification']);

/** Automated kinds a pause (PAUSE by text) holds back; replies to the user's own texts still go. */
export const PAUSABLE_KINDS: ReadonlySet<string> = new Set(['reminder', 'nudge', 'weekly_recap', 'milestone', 'on_this_day']);

/** A send is tried this many times in all before the row is marked failed. */
export const MAX_SEND_ATTEMPTS = 4;
/** Wait before retry n (after attempt n failed). */
const RETRY_DELAYS_MS = [10_000, 60_000, 5 * 60_000];
/** A claim older than this belongs to a sender that died mid-send; the row is offered again. */
const STALE_CLAIM_MS = 2 * 60_000;

function outboundRow(ctx: AppContext, input: QueueSmsInput, at: Date) {
  const now = at.toISOString();
  return {
    id: newTimeOrderedId(at),
    user_id: input.userId,
    direction: 'outbound',
    kind: input.kind,
    dedupe_key: input.dedupeKey ?? null,
    status: 'pending',
    from_number: ctx.config.journalNumber,
    to_number: input.to,
    body: ctx.cipher.encrypt(SYSTEM_SUBJECT.id, SYSTEM_SUBJECT.salt, input.body),
    send_after: now,
    created_at: now,
    updated_at: now,
  } as const;
}

/**
 * Queues a text: a row per message, body encrypted at rest, sent by the outbound worker.
 * Returns queued=false when the dedupe key was already used.
 */
export async function enqueueSms(ctx: AppContext, input: QueueSmsInput): Promise<{ id: string; queued: boolean }> {
  const row = outboundRow(ctx, input, ctx.clock.now());
  const result = await ctx.db
    .insertInto('sms_messages')
    .values(row)
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .executeTakeFirst();
  const queued = Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  if (queued) ctx.outbox.kick();
  return { id: row.id, queued };
}

/**
 * Queues many automated texts in one statement (each with its dedupe key); answers the dedupe keys
 * that were new, i.e. the texts queued now.
 */
export async function enqueueSmsBatch(ctx: AppContext, inputs: Array<QueueSmsInput & { dedupeKey: string }>): Promise<Set<string>> {
  if (inputs.length === 0) return new Set();
  const now = ctx.clock.now();
  const inserted = await ctx.db
    .insertInto('sms_messages')
    .values(inputs.map((input) => outboundRow(ctx, input, now)))
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .returning('dedupe_key')
    .execute();
  if (inserted.length) ctx.outbox.kick();
  return new Set(inserted.map((r) => r.dedupe_key!));
}

export interface SendSummary {
  sent: number;
  skipped: number;
  failed: number;
  /** Transient failures put back in the queue with a later send_after. */
  retrying: number;
}

// Counting segments walks the text grapheme by grapheme, and automated texts repeat: remember a few.
const segmentCounts = new Map<string, number>();
function segmentsOf(body: string): number {
  let count = segmentCounts.get(body);
  if (count === undefined) {
    count = new SegmentedMessage(body).segmentsCount;
    if (segmentCounts.size >= 500) segmentCounts.clear();
    segmentCounts.set(body, count);
  }
  return count;
}

/** Texts claimed at a time, and sent at once (each send waits on the provider's HTTP answer). */
const SEND_BATCH = 100;
const SEND_CONCURRENCY = 24;
/** At most this many texts a run; the next run (a second later, or at once when kicked) goes on. */
const SENDS_PER_RUN = 5_000;

/**
 * Sends due texts: claims a batch with one compare-and-set UPDATE (only rows still pending are
 * taken, so any number of senders, in this process or on other instances, can run at once and each
 * text still goes out once), then sends the batch several at a time.
 */
export async function sendDueMessages(ctx: AppContext, options: { limit?: number } = {}): Promise<SendSummary> {
  const summary: SendSummary = { sent: 0, skipped: 0, failed: 0, retrying: 0 };
  const limit = options.limit ?? SENDS_PER_RUN;
  await releaseStaleClaims(ctx, ctx.clock.now());
  let handled = 0;
  while (handled < limit && !sendingStopped(ctx)) {
    const batch = await claimDue(ctx, Math.min(SEND_BATCH, limit - handled));
    if (batch.length === 0) break;
    handled += batch.length;
    let next = 0;
    const worker = async () => {
      while (next < batch.length) {
        const row = batch[next++]!;
        // Shutting down: what has not started goes back to the queue for another sender.
        if (sendingStopped(ctx)) {
          await releaseClaim(ctx, row.id);
          continue;
        }
        const result = await trackSend(ctx, row.id, () => deliver(ctx, row));
        summary[result]++;
        ctx.metrics.outboundText(result);
      }
    };
    await Promise.all(Array.from({ length: Math.min(SEND_CONCURRENCY, batch.length) }, worker));
  }
  return summary;
}

async function releaseStaleClaims(ctx: AppContext, now: Date): Promise<void> {
  await ctx.db
    .updateTable('sms_messages')
    .set({ status: 'pending', updated_at: now.toISOString() })
    .where('direction', '=', 'outbound')
    .where('status', '=', 'sending')
    .where('claimed_at', '<', new Date(now.getTime() - STALE_CLAIM_MS).toISOString())
    .execute();
}

/** Claims up to `count` due texts, oldest first; answers the rows this caller won. */
async function claimDue(ctx: AppContext, count: number): Promise<SmsMessage[]> {
  const now = ctx.clock.now().toISOString();
  const due = await ctx.db
    .selectFrom('sms_messages')
    .select('id')
    .where('direction', '=', 'outbound')
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('send_after', 'is', null), eb('send_after', '<=', now)]))
    .orderBy('send_after')
    .orderBy('created_at')
    .limit(count)
    .execute();
  if (due.length === 0) return [];
  const claimed = await ctx.db
    .updateTable('sms_messages')
    .set((eb) => ({ status: 'sending', claimed_at: now, updated_at: now, attempts: eb('attempts', '+', 1) }))
    .where('id', 'in', due.map((r) => r.id))
    .where('status', '=', 'pending')
    .returningAll()
    .execute();
  // Oldest first, as selected.
  const order = new Map(due.map((r, i) => [r.id, i]));
  return claimed.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
}

/**
 * Records how a claimed send ended, only while the claim is still this sender's: a claim released at
 * shutdown and sent by another instance meanwhile keeps that instance's result.
 */
async function settle(ctx: AppContext, row: SmsMessage, changes: Partial<SmsMessage>): Promise<void> {
  await ctx.db
    .updateTable('sms_messages')
    .set(changes)
    .where('id', '=', row.id)
    .where('status', '=', 'sending')
    .where('attempts', '=', row.attempts)
    .execute();
}

/** Puts a claimed text back in the queue, as if never claimed. */
async function releaseClaim(ctx: AppContext, id: string): Promise<void> {
  await ctx.db
    .updateTable('sms_messages')
    .set((eb) => ({ status: 'pending', claimed_at: null, updated_at: ctx.clock.now().toISOString(), attempts: eb('attempts', '-', 1) }))
    .where('id', '=', id)
    .where('status', '=', 'sending')
    .execute();
}

async function deliver(ctx: AppContext, row: SmsMessage): Promise<keyof SendSummary> {
  const now = () => ctx.clock.now().toISOString();
  if (!ALWAYS_SENT_KINDS.has(row.kind) && (await recipientOptedOut(ctx, row))) {
    await settle(ctx, row, { status: 'skipped', error_message: 'Recipient opted out', updated_at: now() });
    return 'skipped';
  }
  if (PAUSABLE_KINDS.has(row.kind) && (await recipientPaused(ctx, row))) {
    await settle(ctx, row, { status: 'skipped', error_message: 'Recipient paused texts', updated_at: now() });
    return 'skipped';
  }
  const body = ctx.cipher.decrypt(SYSTEM_SUBJECT.id, SYSTEM_SUBJECT.salt, row.body ?? '');
  const segments = segmentsOf(body);
  try {
    const result = await ctx.sms.send({
      to: row.to_number,
      body,
      statusCallbackUrl: `${ctx.config.publicUrl}/webhooks/twilio/status`,
    });
    await settle(ctx, row, {
      status: result.status,
      provider_message_id: result.providerMessageId,
      segments,
      error_code: null,
      error_message: null,
      updated_at: now(),
    });
    return 'sent';
  } catch (err) {
    const code = err instanceof SmsSendError ? (err.code ?? null) : null;
    const error = { error_code: code, error_message: errorText(err), segments, updated_at: now() };
    if (code === TWILIO_OPTED_OUT) {
      await optOutRecipient(ctx, { userId: row.user_id, phone: row.to_number });
    }
    const permanent = err instanceof SmsSendError && err.permanent;
    if (permanent || row.attempts >= MAX_SEND_ATTEMPTS) {
      await settle(ctx, row, { ...error, status: 'failed' });
      return 'failed';
    }
    const delay = RETRY_DELAYS_MS[Math.min(row.attempts, RETRY_DELAYS_MS.length) - 1]!;
    const sendAfter = new Date(ctx.clock.now().getTime() + delay).toISOString();
    await settle(ctx, row, { ...error, status: 'pending', send_after: sendAfter, claimed_at: null });
    return 'retrying';
  }
}

async function recipientOptedOut(ctx: AppContext, row: SmsMessage): Promise<boolean> {
  const profile = row.user_id ? await findProfile(ctx.db, row.user_id) : await findProfileByPhone(ctx.db, row.to_number);
  return profile?.is_opted_out === 1;
}

async function recipientPaused(ctx: AppContext, row: SmsMessage): Promise<boolean> {
  const profile = row.user_id ? await findProfile(ctx.db, row.user_id) : undefined;
  return profile ? isPaused(profile, ctx.clock.now()) : false;
}

/** The provider's reason, never the text itself. */
function errorText(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.slice(0, 500);
}
