import { sql, type Insertable } from 'kysely';
import type { Db } from '../db/database';
import { namedRow, preparedQuery } from '../db/prepared';
import type { JournalEntriesTable, JournalEntryRow, JournalPhotoRow, JournalSmsAppliedTable } from '../db/tables';

// SQL for journal entries. Every query is scoped by the owner's user id.

export type NewEntryRow = Insertable<JournalEntriesTable>;

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

export async function findEntry(db: Db, userId: string, entryId: string): Promise<JournalEntryRow | undefined> {
  return db.selectFrom('journal_entries').selectAll().where('user_id', '=', userId).where('id', '=', entryId).executeTakeFirst();
}

/**
 * `source = 'sms'` written into the SQL rather than bound: only then can the planner use the partial
 * index of a day's SMS entries (… WHERE source = 'sms'); with a bound value SQLite read the day's
 * entries by the general index and sorted them.
 */
export const SMS_SOURCE = sql.lit<'sms'>('sms');

/** The day's SMS entry (its latest part); on PostgreSQL the row stays locked until the transaction ends. */
export async function findSmsDayEntry(db: Db, userId: string, entryDate: string, lock: boolean): Promise<JournalEntryRow | undefined> {
  const [entry] = await (lock ? latestSmsPartLocked : latestSmsPart)(db, { userId, entryDate });
  return entry;
}

const latestSmsPartQuery = (lock: boolean) =>
  preparedQuery<{ userId: string; entryDate: string }, JournalEntryRow>((db, param) =>
    db
      .selectFrom('journal_entries')
      .selectAll()
      .where('user_id', '=', param('userId'))
      .where('entry_date', '=', param('entryDate'))
      .where('source', '=', SMS_SOURCE)
      // The latest part: earlier parts are full.
      .orderBy('sms_part', 'desc')
      .limit(1)
      .$if(lock, (qb) => qb.forUpdate()),
  );
const latestSmsPart = latestSmsPartQuery(false);
const latestSmsPartLocked = latestSmsPartQuery(true);

export async function updateEntry(
  db: Db,
  userId: string,
  entryId: string,
  changes: Partial<Pick<JournalEntriesTable, 'content' | 'title' | 'tags' | 'word_count' | 'updated_at'>>,
): Promise<void> {
  await db.updateTable('journal_entries').set(changes).where('user_id', '=', userId).where('id', '=', entryId).execute();
}

export async function touchEntry(db: Db, userId: string, entryId: string, at: string): Promise<void> {
  await updateEntry(db, userId, entryId, { updated_at: at });
}

export async function deleteEntry(db: Db, userId: string, entryId: string): Promise<boolean> {
  const result = await db.deleteFrom('journal_entries').where('user_id', '=', userId).where('id', '=', entryId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Every entry of one journal, newest first. */
export async function listEntries(db: Db, userId: string): Promise<JournalEntryRow[]> {
  return db.selectFrom('journal_entries').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
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
  const [row] = await nextRevision(db, { userId });
  return Number(row!.revision);
}

const nextRevision = preparedQuery<{ userId: string }, { revision: number }>((db, param) =>
  db
    .insertInto('journal_revisions')
    .values({ user_id: param('userId'), revision: 1 })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ revision: sql`journal_revisions.revision + 1` }))
    .returning('revision'),
);

// Every read of the journal cache checks it (db/prepared.ts).
const revisionOf = preparedQuery<{ userId: string }, { revision: number }>((db, param) =>
  db.selectFrom('journal_revisions').select('revision').where('user_id', '=', param('userId')),
);

export async function currentRevision(db: Db, userId: string): Promise<number> {
  const [row] = await revisionOf(db, { userId });
  return Number(row?.revision ?? 0);
}

/** Where an inbound text (sms_messages.id) went, if the user's journal already holds it. */
export async function findAppliedSms(db: Db, userId: string, messageId: string): Promise<JournalSmsAppliedTable | undefined> {
  const [applied] = await appliedSms(db, { userId, messageId });
  return applied;
}

const appliedSms = preparedQuery<{ userId: string; messageId: string }, JournalSmsAppliedTable>((db, param) =>
  db.selectFrom('journal_sms_applied').selectAll().where('user_id', '=', param('userId')).where('message_id', '=', param('messageId')),
);

/** Notes that a text is in the journal; inside the append's transaction, so both happen or neither. */
export async function recordAppliedSms(db: Db, row: JournalSmsAppliedTable): Promise<void> {
  await insertAppliedSms(db, row);
}

const insertAppliedSms = preparedQuery<JournalSmsAppliedTable, never>((db, param) =>
  db.insertInto('journal_sms_applied').values(namedRow<JournalSmsAppliedTable>({ message_id: true, user_id: true, entry_id: true, entry_date: true, applied_at: true }, param)),
);
