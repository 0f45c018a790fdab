import type { AppContext } from '../context';
import { SYSTEM_SUBJECT } from '../crypto/encryption';
import type { SmsMessage } from '../db/tables';
import { SmsSendError, TWILIO_OPTED_OUT, type SmsSendResult } from '../providers/sms/types';
import { isPaused } from './commands/pause';
import { optOutRecipient } from './opt-out';
import { errorText, nextTryAt } from './outbound-retry';
import { redactAfter } from './redact';
import { findProfile, findProfileByPhone } from './repo';
import { segmentsOf } from './outbound-segments';

/** How one claimed text ended this time. */
export type SendResult = 'sent' | 'skipped' | 'dropped' | 'failed' | 'gave_up' | 'retrying';

/** Kinds that go out even to an opted-out number: the carrier rules require them, or the user asked. */
export const ALWAYS_SENT_KINDS: ReadonlySet<string> = new Set(['opt_out_confirmation', 'help', 'verification']);

/** Automated kinds a pause (PAUSE by text) holds back; replies to the user's own texts still go. */
export const PAUSABLE_KINDS: ReadonlySet<string> = new Set(['reminder', 'nudge', 'weekly_recap', 'milestone', 'on_this_day']);

/** Why a text past its expiry is dropped, by kind. */
const DROPPED_BECAUSE: Record<string, string> = {
  reminder: 'Dropped: more than 2 hours past its time',
  nudge: 'Dropped: more than 2 hours past its time',
  weekly_recap: 'Dropped: more than 2 hours past its time',
  sign_in_link: 'Dropped: its sign-in link had expired',
  // The only reply that lapses: LINK's, a sign-in link.
  command_reply: 'Dropped: its sign-in link had expired',
  verification: 'Dropped: the sign-up it asks to confirm had lapsed',
};

export const droppedBecause = (kind: string) => DROPPED_BECAUSE[kind] ?? 'Dropped: past its validity';

/**
 * Sends one claimed text, or settles why it is not sent: a text whose earlier request may have
 * reached the provider is looked up there first; then opted-out and paused recipients and texts
 * past their expiry are skipped; failures are retried with backoff for up to 24 hours.
 */
export async function deliver(ctx: AppContext, row: SmsMessage): Promise<SendResult> {
  const body = ctx.cipher.decrypt(SYSTEM_SUBJECT.id, SYSTEM_SUBJECT.salt, row.body ?? '');
  const segments = segmentsOf(body);
  if (row.unconfirmed_since) {
    try {
      const earlier = await alreadySent(ctx, row, body);
      if (earlier) return await settleSent(ctx, row, earlier, segments);
    } catch (err) {
      return retryLater(ctx, row, err, segments);
    }
  }
  if (!ALWAYS_SENT_KINDS.has(row.kind) && (await recipientOptedOut(ctx, row))) return skip(ctx, row, 'Recipient opted out', 'skipped');
  if (PAUSABLE_KINDS.has(row.kind) && (await recipientPaused(ctx, row))) return skip(ctx, row, 'Recipient paused texts', 'skipped');
  if (row.expires_at && row.expires_at <= ctx.clock.now().toISOString()) {
    return skip(ctx, row, droppedBecause(row.kind), 'dropped');
  }
  try {
    const result = await ctx.sms.send({ to: row.to_number, body, statusCallbackUrl: `${ctx.config.publicUrl}/webhooks/twilio/status` });
    return await settleSent(ctx, row, result, segments);
  } catch (err) {
    const code = err instanceof SmsSendError ? (err.code ?? null) : null;
    if (code === TWILIO_OPTED_OUT) await optOutRecipient(ctx, { userId: row.user_id, phone: row.to_number });
    if (err instanceof SmsSendError && err.permanent) {
      await settle(ctx, row, { status: 'failed', error_code: code, error_message: errorText(err), segments, updated_at: nowIso(ctx) });
      return 'failed';
    }
    return retryLater(ctx, row, err, segments);
  }
}

/** The provider's message for this text from a try whose answer was lost, if it made one. */
async function alreadySent(ctx: AppContext, row: SmsMessage, body: string): Promise<SmsSendResult | undefined> {
  const candidates = await ctx.sms.findSent({ to: row.to_number, body, since: new Date(row.unconfirmed_since!) });
  if (candidates.length === 0) return undefined;
  // The same words may have gone to the same number as another of our texts: that one is not ours.
  const taken = await ctx.db
    .selectFrom('sms_messages')
    .select('provider_message_id')
    .where('provider_message_id', 'in', candidates.map((c) => c.providerMessageId))
    .execute();
  const others = new Set(taken.map((r) => r.provider_message_id));
  return candidates.find((c) => !others.has(c.providerMessageId));
}

async function settleSent(ctx: AppContext, row: SmsMessage, result: SmsSendResult, segments: number): Promise<SendResult> {
  const now = ctx.clock.now();
  await settle(ctx, row, {
    status: result.status,
    provider_message_id: result.providerMessageId,
    segments,
    error_code: null,
    error_message: null,
    unconfirmed_since: null,
    redact_after: redactAfter(ctx, result.status, now),
    updated_at: now.toISOString(),
  });
  return 'sent';
}

/** Back in the queue for a later try, or failed for good once it has been tried for 24 hours. */
async function retryLater(ctx: AppContext, row: SmsMessage, err: unknown, segments: number): Promise<SendResult> {
  const now = ctx.clock.now();
  const code = err instanceof SmsSendError ? (err.code ?? null) : null;
  const unconfirmed = err instanceof SmsSendError && err.details.unconfirmed === true;
  const error = {
    error_code: code,
    error_message: errorText(err),
    segments,
    updated_at: now.toISOString(),
    // The earliest try whose request may have reached the provider: the lookup starts there.
    unconfirmed_since: row.unconfirmed_since ?? (unconfirmed ? row.claimed_at : null),
  };
  const next = nextTryAt(row.attempts, row.created_at, err, now);
  if (!next) {
    await settle(ctx, row, { ...error, status: 'failed', error_code: 'gave_up', error_message: `Gave up after 24 hours of tries: ${error.error_message}` });
    return 'gave_up';
  }
  await settle(ctx, row, { ...error, status: 'pending', send_after: next.toISOString(), claimed_at: null });
  return 'retrying';
}

function skip(ctx: AppContext, row: SmsMessage, reason: string, result: 'skipped' | 'dropped'): Promise<SendResult> {
  return settle(ctx, row, { status: 'skipped', error_message: reason, updated_at: nowIso(ctx) }).then(() => result);
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

const nowIso = (ctx: AppContext) => ctx.clock.now().toISOString();

async function recipientOptedOut(ctx: AppContext, row: SmsMessage): Promise<boolean> {
  const profile = row.user_id ? await findProfile(ctx.db, row.user_id) : await findProfileByPhone(ctx.db, row.to_number);
  return profile?.is_opted_out === 1;
}

async function recipientPaused(ctx: AppContext, row: SmsMessage): Promise<boolean> {
  const profile = row.user_id ? await findProfile(ctx.db, row.user_id) : undefined;
  return profile ? isPaused(profile, ctx.clock.now()) : false;
}
