import { SegmentedMessage } from 'sms-segments-calculator';
import type { AppContext } from '../context';
import { SYSTEM_SUBJECT } from '../crypto/encryption';
import type { SmsMessage } from '../db/tables';
import { newId } from '../ids';
import { SmsSendError, TWILIO_OPTED_OUT } from '../providers/sms/types';
import { isPaused } from './commands/pause';
import { optOutRecipient } from './opt-out';
import { sendingStopped, trackSend } from './sends-in-flight';
import { findMessage, findProfile, findProfileByPhone, updateMessage } from './repo';

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

function outboundRow(ctx: AppContext, input: QueueSmsInput, now: string) {
  return {
    id: newId(),
    user_id: input.userId,
    direction: 'outbound',
    provider_message_id: null,
    kind: input.kind,
    dedupe_key: input.dedupeKey ?? null,
    status: 'pending',
    from_number: ctx.config.journalNumber,
    to_number: input.to,
    body: ctx.cipher.encrypt(SYSTEM_SUBJECT.id, SYSTEM_SUBJECT.salt, input.body),
    media: null,
    segments: null,
    processing_ms: null,
    error_code: null,
    error_message: null,
    entry_id: null,
    entry_date: null,
    claimed_at: null,
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
  const row = outboundRow(ctx, input, ctx.clock.now().toISOString());
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
  const now = ctx.clock.now().toISOString();
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

/**
 * Sends due texts. Each row is claimed with a compare-and-set UPDATE, so any number of senders (in
 * this process or on other instances) can run at once and each text still goes out once.
 */
export async function sendDueMessages(ctx: AppContext, options: { limit?: number } = {}): Promise<SendSummary> {
  const summary: SendSummary = { sent: 0, skipped: 0, failed: 0, retrying: 0 };
  const now = ctx.clock.now();
  await releaseStaleClaims(ctx, now);
  const due = await ctx.db
    .selectFrom('sms_messages')
    .select('id')
    .where('direction', '=', 'outbound')
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('send_after', 'is', null), eb('send_after', '<=', now.toISOString())]))
    .orderBy('send_after')
    .orderBy('created_at')
    .limit(options.limit ?? 50)
    .execute();
  for (const { id } of due) {
    if (sendingStopped(ctx)) break; // shutting down: the rest stay queued for another sender
    const row = await claim(ctx, id);
    if (!row) continue; // another sender got it first
    const result = await trackSend(ctx, row.id, () => deliver(ctx, row));
    summary[result]++;
    ctx.metrics.outboundText(result);
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

async function claim(ctx: AppContext, id: string): Promise<SmsMessage | undefined> {
  const now = ctx.clock.now().toISOString();
  const result = await ctx.db
    .updateTable('sms_messages')
    .set((eb) => ({ status: 'sending', claimed_at: now, updated_at: now, attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return undefined;
  return findMessage(ctx.db, id);
}

async function deliver(ctx: AppContext, row: SmsMessage): Promise<keyof SendSummary> {
  const now = () => ctx.clock.now().toISOString();
  if (!ALWAYS_SENT_KINDS.has(row.kind) && (await recipientOptedOut(ctx, row))) {
    await updateMessage(ctx.db, row.id, { status: 'skipped', error_message: 'Recipient opted out', updated_at: now() });
    return 'skipped';
  }
  if (PAUSABLE_KINDS.has(row.kind) && (await recipientPaused(ctx, row))) {
    await updateMessage(ctx.db, row.id, { status: 'skipped', error_message: 'Recipient paused texts', updated_at: now() });
    return 'skipped';
  }
  const body = ctx.cipher.decrypt(SYSTEM_SUBJECT.id, SYSTEM_SUBJECT.salt, row.body ?? '');
  const segments = new SegmentedMessage(body).segmentsCount;
  try {
    const result = await ctx.sms.send({
      to: row.to_number,
      body,
      statusCallbackUrl: `${ctx.config.publicUrl}/webhooks/twilio/status`,
    });
    await updateMessage(ctx.db, row.id, {
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
      await updateMessage(ctx.db, row.id, { ...error, status: 'failed' });
      return 'failed';
    }
    const delay = RETRY_DELAYS_MS[Math.min(row.attempts, RETRY_DELAYS_MS.length) - 1]!;
    const sendAfter = new Date(ctx.clock.now().getTime() + delay).toISOString();
    await updateMessage(ctx.db, row.id, { ...error, status: 'pending', send_after: sendAfter, claimed_at: null });
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
