import { sql, type Insertable } from 'kysely';
import type { Db } from '../db/database';
import type { JournalEntriesTable, JournalEntryRow, JournalPhotoRow, JournalSmsAppliedTable, VaultsTable } from '../db/tables';

// SQL for journal entries. Every query is scoped by the owner's user id.

type NewEntryRow = Insertable<JournalEntriesTable>;

export async function insertEntry(db: Db, row: NewEntryRow): Promise<void> {
  await db.insertInto('journal_entries').values(row).execute();
}

/** Inserts unless the user already has an SMS entry that day; true when inserted. */
export async function insertSmsDayEntry(db: Db, row: NewEntryRow): Promise<boolean> {
  const result = await db
    .insertInto('journal_entries')
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** The entry a POST with this `Idempotency-Key` made, with when. */
export async function findKeyedEntry(db: Db, userId: string, key: string): Promise<{ entry_id: string; created_at: string } | undefined> {
  return db.selectFrom('entry_idempotency_keys').select(['entry_id', 'created_at']).where('user_id', '=', userId).where('key', '=', key).executeTakeFirst();
}

/** Ties the key to the entry just made; false when another save with the key got there first. */
export async function claimEntryKey(db: Db, row: { user_id: string; key: string; entry_id: string; created_at: string }): Promise<boolean> {
  const result = await db.insertInto('entry_idempotency_keys').values(row).onConflict((oc) => oc.doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Keys older than `before` (the whole table's, or one user's one key) are forgotten. */
export async function forgetEntryKeys(db: Db, before: string, only?: { userId: string; key: string }): Promise<void> {
  await db
    .deleteFrom('entry_idempotency_keys')
    .where('created_at', '<', before)
    .$if(only !== undefined, (qb) => qb.where('user_id', '=', only!.userId).where('key', '=', only!.key))
    .execute();
}

export async function findEntry(db: Db, userId: string, entryId: string): Promise<JournalEntryRow | undefined> {
  return db.selectFrom('journal_entries').selectAll().where('user_id', '=', userId).where('id', '=', entryId).executeTakeFirst();
}

/** The day's SMS entry (its latest part); on PostgreSQL the row stays locked until the transaction ends. */
export async function findSmsDayEntry(db: Db, userId: string, entryDate: string, lock: boolean): Promise<JournalEntryRow | undefined> {
  return db
    .selectFrom('journal_entries')
    .selectAll()
    .where('user_id', '=', userId)
    .where('entry_date', '=', entryDate)
    .where('source', '=', 'sms')
    // The latest part: earlier parts are full.
    .orderBy('sms_part', 'desc')
    .limit(1)
    .$if(lock, (qb) => qb.forUpdate())
    .executeTakeFirst();
}

export async function updateEntry(
  db: Db,
  userId: string,
  entryId: string,
  changes: Partial<Pick<JournalEntriesTable, 'content' | 'title' | 'tags' | 'word_count' | 'updated_at'>>,
): Promise<void> {
  await db.updateTable('journal_entries').set(changes).where('user_id', '=', userId).where('id', '=', entryId).execute();
}

/** The entry's version (changes.ts), or undefined when the user has no such entry. */
export async function entryVersion(db: Db, userId: string, entryId: string): Promise<number | undefined> {
  const row = await db.selectFrom('journal_entries').select('version').where('user_id', '=', userId).where('id', '=', entryId).executeTakeFirst();
  return row === undefined ? undefined : Number(row.version);
}

/** One more version for each entry a change touched (those it deleted are simply not there). */
export async function raiseVersions(db: Db, userId: string, entryIds: readonly string[]): Promise<void> {
  if (entryIds.length === 0) return;
  await db
    .updateTable('journal_entries')
    .set({ version: sql`version + 1` })
    .where('user_id', '=', userId)
    .where('id', 'in', entryIds)
    .execute();
}

export async function touchEntry(db: Db, userId: string, entryId: string, at: string): Promise<void> {
  await updateEntry(db, userId, entryId, { updated_at: at });
}

export async function deleteEntry(db: Db, userId: string, entryId: string): Promise<boolean> {
  const result = await db.deleteFrom('journal_entries').where('user_id', '=', userId).where('id', '=', entryId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Every entry of one journal, in list order (cached-entry.ts listOrder). */
export async function listEntries(db: Db, userId: string): Promise<JournalEntryRow[]> {
  return db
    .selectFrom('journal_entries')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('entry_date', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function listPhotos(db: Db, userId: string): Promise<JournalPhotoRow[]> {
  return db.selectFrom('journal_photos').selectAll().where('user_id', '=', userId).orderBy('position').execute();
}

export async function listEntryPhotos(db: Db, userId: string, entryId: string): Promise<JournalPhotoRow[]> {
  return db
    .selectFrom('journal_photos')
    .selectAll()
    .where('user_id', '=', userId)
    .where('entry_id', '=', entryId)
    .orderBy('position')
    .execute();
}

/**
 * Counts one more change to the user's journal and returns the new revision. Call it inside the
 * transaction that makes the change; on PostgreSQL it also serialises one user's writers.
 */
export async function bumpRevision(db: Db, userId: string): Promise<number> {
  const row = await db
    .insertInto('journal_revisions')
    .values({ user_id: userId, revision: 1 })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ revision: sql`journal_revisions.revision + 1` }))
    .returning('revision')
    .executeTakeFirstOrThrow();
  return Number(row.revision);
}

export async function currentRevision(db: Db, userId: string): Promise<number> {
  const row = await db.selectFrom('journal_revisions').select('revision').where('user_id', '=', userId).executeTakeFirst();
  return Number(row?.revision ?? 0);
}

/** Where an inbound text (sms_messages.id) went, if the user's journal already holds it. */
export async function findAppliedSms(db: Db, userId: string, messageId: string): Promise<JournalSmsAppliedTable | undefined> {
  return db.selectFrom('journal_sms_applied').selectAll().where('user_id', '=', userId).where('message_id', '=', messageId).executeTakeFirst();
}

/** Notes that a text is in the journal; inside the append's transaction, so both happen or neither. */
export async function recordAppliedSms(db: Db, row: JournalSmsAppliedTable): Promise<void> {
  await db.insertInto('journal_sms_applied').values(row).execute();
}

/** The journal's vault as its writers see it: the public key new words are sealed to, and its state. */
export async function findJournalSeal(db: Db, userId: string): Promise<Pick<VaultsTable, 'public_key' | 'state'> | undefined> {
  return db.selectFrom('vaults').select(['public_key', 'state']).where('user_id', '=', userId).executeTakeFirst();
}

/**
 * What a journal's words are written with, in one read: the owner's key salt (undefined without a
 * profile) and the vault, when there is one (undefined otherwise).
 */
export async function findJournalKeys(db: Db, userId: string): Promise<{ salt: string | undefined; seal: Pick<VaultsTable, 'public_key' | 'state'> | undefined }> {
  const row = await db
    .selectFrom('users')
    .leftJoin('profiles', 'profiles.id', 'users.id')
    .leftJoin('vaults', 'vaults.user_id', 'users.id')
    .select(['profiles.key_salt', 'vaults.public_key', 'vaults.state'])
    .where('users.id', '=', userId)
    .executeTakeFirst();
  const seal = row?.public_key != null && row.state != null ? { public_key: row.public_key, state: row.state } : undefined;
  return { salt: row?.key_salt ?? undefined, seal };
}

/** A sealed entry's segments replaced (a browser edit, a text appended, UNDO), with the word count the writer counted. */
export async function replaceSegments(db: Db, userId: string, entryId: string, change: { sealed: string; word_count: number; updated_at: string }): Promise<void> {
  await db.updateTable('journal_entries').set({ ...change, content: '', title: null, tags: '[]' }).where('user_id', '=', userId).where('id', '=', entryId).execute();
}

/** An entry's words replaced by its sealed segments (JSON list); the server keeps none of them. */
export async function sealEntryRow(db: Db, userId: string, entryId: string, sealed: string): Promise<void> {
  await db.updateTable('journal_entries').set({ content: '', title: null, tags: '[]', sealed }).where('user_id', '=', userId).where('id', '=', entryId).execute();
}
