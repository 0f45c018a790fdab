import type { AppContext } from '../context';
import type { Db } from '../db/database';
import { sql, type Insertable } from 'kysely';
import type { Profile, SmsMessage, SmsMessagesTable } from '../db/tables';

// SQL for sms_messages and the few profile fields the SMS rules touch. No rules here.

export async function findOutboundByProviderId(db: Db, providerMessageId: string): Promise<SmsMessage | undefined> {
  return db
    .selectFrom('sms_messages')
    .selectAll()
    .where('provider_message_id', '=', providerMessageId)
    .where('direction', '=', 'outbound')
    .executeTakeFirst();
}

/** Inserts unless the provider id is already recorded; true when this call inserted it. */
async function insertMessageOnce(db: Db, row: Insertable<SmsMessagesTable>): Promise<boolean> {
  const result = await db
    .insertInto('sms_messages')
    .values(row)
    .onConflict((oc) => oc.column('provider_message_id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/**
 * Records an inbound text as the provider delivered it, with what the caller knows of it (`fields`);
 * every other column starts empty. True when this call recorded it (see insertMessageOnce).
 */
export async function insertInboundOnce(
  db: Db,
  text: { id: string; messageSid: string; from: string; to: string; at: string },
  fields: Pick<Insertable<SmsMessagesTable>, 'kind' | 'status'> & Partial<Insertable<SmsMessagesTable>>,
): Promise<boolean> {
  return insertMessageOnce(db, {
    id: text.id,
    direction: 'inbound',
    provider_message_id: text.messageSid,
    from_number: text.from,
    to_number: text.to,
    created_at: text.at,
    updated_at: text.at,
    ...fields,
  });
}

/** The verified holder of a number, with their vault's public key and state when they have one. */
export async function findHolderAndVault(db: Db, phone: string) {
  return db
    .selectFrom('profiles')
    .leftJoin('vaults', 'vaults.user_id', 'profiles.id')
    .select(['profiles.id', 'profiles.is_opted_out', 'vaults.public_key', 'vaults.state'])
    .where('profiles.phone_number', '=', phone)
    .where('profiles.phone_verified', '=', 1)
    .executeTakeFirst();
}

/** Whether the user has an inbound text not processed yet whose stored body matches `pattern` (LIKE). */
export async function unprocessedTextsLike(db: Db, userId: string, pattern: string): Promise<boolean> {
  const row = await db
    .selectFrom('sms_messages')
    .select('id')
    .where('direction', '=', 'inbound')
    .where('user_id', '=', userId)
    .where('processed', '=', 0)
    .where('body', 'like', pattern)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function updateMessage(db: Db, id: string, changes: Partial<SmsMessage>): Promise<void> {
  await db.updateTable('sms_messages').set(changes).where('id', '=', id).execute();
}

/** The account on a number: the one that verified it, before any sign-up still claiming it (auth/phone-claims.ts). */
export async function findProfileByPhone(db: Db, phone: string): Promise<Profile | undefined> {
  return db.selectFrom('profiles').selectAll().where('phone_number', '=', phone).orderBy('phone_verified', 'desc').executeTakeFirst();
}

export async function findProfile(db: Db, userId: string): Promise<Profile | undefined> {
  return db.selectFrom('profiles').selectAll().where('id', '=', userId).executeTakeFirst();
}

/** Sets is_opted_out; true when it changed. */
export async function setOptedOut(db: Db, userId: string, optedOut: boolean, now: string): Promise<boolean> {
  const result = await db
    .updateTable('profiles')
    .set({ is_opted_out: optedOut ? 1 : 0, updated_at: now })
    .where('id', '=', userId)
    .where('is_opted_out', '=', optedOut ? 0 : 1)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The last keyword outcome (opt_out or opt_in) a number without an account texted. */
export async function lastOptChoiceOf(ctx: Pick<AppContext, 'db' | 'dbKind'>, phone: string): Promise<string | undefined> {
  // Through the index of keyword texts (migration 2026-11-24-0020): the planner takes a partial
  // index only when the query states its condition word for word, values written in (not bound).
  const row = await ctx.db
    .selectFrom('sms_messages')
    .select('kind')
    .where('direction', '=', 'inbound')
    .where('from_number', '=', phone)
    .where('processed', '=', 1)
    .where('kind', 'in', [sql.lit('opt_out'), sql.lit('opt_in')])
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.kind;
}

/** How a text ended, as its row records it. */
export interface TextOutcome {
  kind: string;
  userId: string | null;
  entryId: string | null;
  entryDate: string | null;
  processingMs: number;
}

/**
 * Marks a text processed unless another worker did first, and lets its stored body and the links to
 * its media at the provider go: a journaled text lives in the journal alone, and no other kind is
 * read again. True when this call marked it.
 */
export async function markTextProcessed(db: Db, id: string, outcome: TextOutcome, now: string): Promise<boolean> {
  const result = await db
    .updateTable('sms_messages')
    .set({
      processed: 1,
      status: 'processed',
      kind: outcome.kind,
      user_id: outcome.userId,
      entry_id: outcome.entryId,
      entry_date: outcome.entryDate,
      processing_ms: outcome.processingMs,
      error_code: null,
      error_message: null,
      updated_at: now,
      // Read only while it is processed: whatever it was (a journal text, a command, a text from a
      // number no one has verified), its words and media links go now.
      body: null,
      media: null,
    })
    .where('id', '=', id)
    .where('processed', '=', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
