import type { AppContext } from '../context';
import { SYSTEM_SUBJECT } from '../crypto/encryption';
import { newId } from '../ids';

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

/**
 * Queues a text: a row per message, body encrypted at rest, sent by the outbound worker.
 * Returns queued=false when the dedupe key was already used.
 */
export async function enqueueSms(ctx: AppContext, input: QueueSmsInput): Promise<{ id: string; queued: boolean }> {
  const now = ctx.clock.now().toISOString();
  const id = newId();
  const result = await ctx.db
    .insertInto('sms_messages')
    .values({
      id,
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
    })
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .executeTakeFirst();
  const queued = Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  if (queued) ctx.outbox.kick();
  return { id, queued };
}
