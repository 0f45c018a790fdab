import { sql } from 'kysely';
import { TEXTED_SIGN_IN_LINK_TTL_MINUTES } from '../auth/limits';
import { PENDING_SIGN_UP_MS } from '../auth/pending-sign-ups';
import type { AppContext } from '../context';
import { SYSTEM_SUBJECT } from '../crypto/encryption';
import type { Db } from '../db/database';
import type { SmsMessage } from '../db/tables';
import { newTimeOrderedId } from '../ids';
import { eachAtOnce, workOffClaims } from '../jobs/claim';
import { deliver, droppedBecause, type SendResult } from './outbound-deliver';
import { returnSendSlots, sendRateOf, takeSendSlots } from './send-rate';
import { sendingStopped, trackSend } from './sends-in-flight';
import { OUTBOUND_SENDER } from '../jobs/wakeups';

export { ALWAYS_SENT_KINDS, PAUSABLE_KINDS } from './outbound-deliver';

interface QueueSmsInput {
  /** The recipient's account, when there is one. */
  userId: string | null;
  to: string;
  body: string;
  /** What the text is for: verification, help, signup_hint, reminder… */
  kind: string;
  /** Unique per automated text (`reminder:USER:DATE`); a second enqueue with the same key is a no-op. */
  dedupeKey?: string;
  /** A scheduled text's due time: scheduled texts go out in the order they fell due. */
  dueAt?: Date;
  /** Past this the text is pointless and is dropped instead of sent (sign-in links and verifications have their own). */
  expiresAt?: Date;
}

/** Texts sent at a time of day, not in answer to someone: they wait behind replies in a backlog. */
const SCHEDULED_KINDS: ReadonlySet<string> = new Set(['reminder', 'nudge', 'weekly_recap']);
/** How long a text of these kinds is worth sending after it was queued. */
const LIFETIME_MS: Record<string, number> = {
  sign_in_link: TEXTED_SIGN_IN_LINK_TTL_MINUTES * 60_000,
  verification: PENDING_SIGN_UP_MS,
};
/** A claim older than this belongs to a sender that died mid-send; the row is offered again. */
const STALE_CLAIM_MS = 2 * 60_000;

function outboundRow(ctx: AppContext, input: QueueSmsInput, at: Date) {
  const now = at.toISOString();
  const lifetime = LIFETIME_MS[input.kind];
  const expiresAt = input.expiresAt ?? (lifetime === undefined ? undefined : new Date(at.getTime() + lifetime));
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
    priority: SCHEDULED_KINDS.has(input.kind) ? 1 : 0,
    send_after: (input.dueAt ?? at).toISOString(),
    expires_at: expiresAt?.toISOString() ?? null,
    created_at: now,
    updated_at: now,
  } as const;
}

/**
 * Queues a text: a row per message, body encrypted at rest, sent by the outbound worker.
 * Returns queued=false when the dedupe key was already used. Given a transaction, the text is
 * queued with it (the sender's next run, within a second, finds it once committed).
 */
export async function enqueueSms(ctx: AppContext, input: QueueSmsInput, db: Db = ctx.db): Promise<{ id: string; queued: boolean }> {
  const row = outboundRow(ctx, input, ctx.clock.now());
  const result = await db
    .insertInto('sms_messages')
    .values(row)
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .executeTakeFirst();
  const queued = Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  if (queued) ctx.jobs.wake(OUTBOUND_SENDER);
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
  if (inserted.length) ctx.jobs.wake(OUTBOUND_SENDER);
  return new Set(inserted.map((r) => r.dedupe_key!));
}

/** How a sender run's texts ended, by result (skipped: opted out or paused; dropped: past their expiry). */
type SendSummary = Record<SendResult, number>;

/** Texts claimed at a time, and sent at once (each send waits on the provider's HTTP answer). */
const SEND_BATCH = 100;
const SEND_CONCURRENCY = 24;
/** At most this many texts a run; the next run (a second later, or at once when kicked) goes on. */
const SENDS_PER_RUN = 5_000;

/**
 * Sends due texts, replies first, then scheduled texts in the order they fell due. Claims a batch
 * with one compare-and-set UPDATE (only rows still pending are taken, so any number of senders, in
 * this process or on other instances, can run at once and each text still goes out once), then sends
 * the batch several at a time. With SMS_SEND_RATE, a batch is as large as the shared budget allows,
 * and the sender comes back when the budget has room again.
 */
export async function sendDueMessages(ctx: AppContext, options: { limit?: number } = {}): Promise<SendSummary> {
  const summary: SendSummary = { sent: 0, skipped: 0, dropped: 0, failed: 0, gave_up: 0, retrying: 0 };
  const rate = sendRateOf(ctx);
  await releaseStaleClaims(ctx, ctx.clock.now());
  await workOffClaims({
    limit: options.limit ?? SENDS_PER_RUN,
    stopped: () => sendingStopped(ctx),
    claim: async (room) => {
      const selected = await selectDue(ctx, Math.min(SEND_BATCH, room));
      if (selected.length === 0) return null;
      // Texts past their use are dropped here, without a send slot: after an outage they can be many.
      const now = ctx.clock.now().toISOString();
      const stale = selected.filter((r) => r.expires_at !== null && r.expires_at <= now && r.unconfirmed_since === null);
      if (stale.length) summary.dropped += await dropStale(ctx, stale, now);
      const due = selected.filter((r) => !stale.includes(r)).map((r) => r.id);
      if (due.length === 0) return { rows: [], used: stale.length };
      const slots = rate ? await takeSendSlots(ctx, due.length, rate) : undefined;
      if (slots && slots.granted === 0) {
        comeBackAt(ctx, slots.nextFreeAt);
        return null;
      }
      const batch = await claim(ctx, due.slice(0, slots?.granted ?? due.length));
      if (slots) await returnSendSlots(ctx, slots, slots.granted - batch.length, rate!);
      return { rows: batch, used: stale.length + batch.length };
    },
    handle: (batch) =>
      eachAtOnce(batch, SEND_CONCURRENCY, async (row) => {
        // Shutting down: what has not started goes back to the queue for another sender.
        if (sendingStopped(ctx)) return releaseClaim(ctx, row.id);
        const result = await trackSend(ctx, row.id, () => deliver(ctx, row));
        summary[result]++;
        ctx.metrics.outboundText(result);
      }),
  });
  return summary;
}

/** Wakes the sender when the send budget has room again (the budget's clock is the app's). */
function comeBackAt(ctx: AppContext, freeAtUs: number): void {
  const waitMs = Math.min(1_000, Math.max(10, freeAtUs / 1000 - ctx.clock.now().getTime()));
  setTimeout(() => ctx.jobs.wake(OUTBOUND_SENDER), waitMs).unref();
}

/**
 * Claims a sender left when it died: its request may have reached the provider, so the text is
 * looked up there before it is sent again.
 */
async function releaseStaleClaims(ctx: AppContext, now: Date): Promise<void> {
  await ctx.db
    .updateTable('sms_messages')
    .set({ status: 'pending', unconfirmed_since: sql`coalesce(unconfirmed_since, claimed_at)`, updated_at: now.toISOString() })
    .where('direction', '=', 'outbound')
    .where('status', '=', 'sending')
    .where('claimed_at', '<', new Date(now.getTime() - STALE_CLAIM_MS).toISOString())
    .execute();
}

// Written out as the partial index sms_messages_outbound_due_idx (migration 0500) says, so both databases use it.
const waitingToGo = sql<boolean>`direction = 'outbound' and status = 'pending'`;

type Due = Pick<SmsMessage, 'id' | 'kind' | 'expires_at' | 'unconfirmed_since'>;

/** Up to `count` due texts: replies first, then scheduled texts; each by due time. */
async function selectDue(ctx: AppContext, count: number): Promise<Due[]> {
  const due: Due[] = [];
  // One query a priority: each walks the index in due order (one ORDER BY over both sorted them all).
  for (const priority of [0, 1]) {
    if (due.length === count) break;
    const rows = await ctx.db
      .selectFrom('sms_messages')
      .select(['id', 'kind', 'expires_at', 'unconfirmed_since'])
      .where(waitingToGo)
      .where('priority', '=', priority)
      .where('send_after', '<=', ctx.clock.now().toISOString())
      .orderBy('send_after')
      .limit(count - due.length)
      .execute();
    due.push(...rows);
  }
  return due;
}

/** Marks texts past their use skipped, with the reason, unless another sender took them; answers how many. */
async function dropStale(ctx: AppContext, stale: Due[], now: string): Promise<number> {
  let dropped = 0;
  for (const kind of new Set(stale.map((r) => r.kind))) {
    const result = await ctx.db
      .updateTable('sms_messages')
      .set({ status: 'skipped', error_message: droppedBecause(kind), updated_at: now })
      .where('id', 'in', stale.filter((r) => r.kind === kind).map((r) => r.id))
      .where('status', '=', 'pending')
      .where('unconfirmed_since', 'is', null)
      .executeTakeFirst();
    dropped += Number(result.numUpdatedRows);
  }
  for (let i = 0; i < dropped; i++) ctx.metrics.outboundText('dropped');
  return dropped;
}

/** Claims the texts still pending among `ids`; answers the rows this caller won, in the order given. */
async function claim(ctx: AppContext, ids: string[]): Promise<SmsMessage[]> {
  if (ids.length === 0) return [];
  const now = ctx.clock.now().toISOString();
  const claimed = await ctx.db
    .updateTable('sms_messages')
    .set((eb) => ({ status: 'sending', claimed_at: now, updated_at: now, attempts: eb('attempts', '+', 1) }))
    .where('id', 'in', ids)
    .where('status', '=', 'pending')
    .returningAll()
    .execute();
  const order = new Map(ids.map((id, i) => [id, i]));
  return claimed.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
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
