import type { Db } from '../../db/database';
import type { JournalSmsUndoTable } from '../../db/tables';

// SQL for journal_sms_undo (what each journaled text added) and the photos it names. Scoped by user.

export async function insertUndoRecord(db: Db, row: JournalSmsUndoTable): Promise<void> {
  await db.insertInto('journal_sms_undo').values(row).execute();
}

/** Forgets the user's records of texts that arrived before `day`: UNDO only reaches today's. */
export async function forgetUndoRecordsBefore(db: Db, userId: string, day: string): Promise<void> {
  await db.deleteFrom('journal_sms_undo').where('user_id', '=', userId).where('received_on', '<', day).execute();
}

/** The latest text that arrived on `receivedOn` and is not undone yet. */
export async function latestUndoable(db: Db, userId: string, receivedOn: string): Promise<JournalSmsUndoTable | undefined> {
  return db
    .selectFrom('journal_sms_undo')
    .selectAll()
    .where('user_id', '=', userId)
    .where('received_on', '=', receivedOn)
    .where('undone_at', 'is', null)
    .orderBy('revision', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function markUndone(db: Db, userId: string, messageId: string, at: string, undoneBy: string): Promise<void> {
  await db
    .updateTable('journal_sms_undo')
    .set({ undone_at: at, undone_by: undoneBy })
    .where('user_id', '=', userId)
    .where('message_id', '=', messageId)
    .execute();
}

/** The text an UNDO already took out, if it did. */
export async function undoneBy(db: Db, userId: string, undoMessageId: string): Promise<JournalSmsUndoTable | undefined> {
  return db
    .selectFrom('journal_sms_undo')
    .selectAll()
    .where('user_id', '=', userId)
    .where('undone_by', '=', undoMessageId)
    .orderBy('revision', 'asc')
    .limit(1)
    .executeTakeFirst();
}

export async function photosById(db: Db, userId: string, photoIds: readonly string[]) {
  if (!photoIds.length) return [];
  return db.selectFrom('journal_photos').selectAll().where('user_id', '=', userId).where('id', 'in', photoIds).execute();
}

export async function deletePhotoRows(db: Db, userId: string, photoIds: readonly string[]): Promise<void> {
  if (!photoIds.length) return;
  await db.deleteFrom('journal_photos').where('user_id', '=', userId).where('id', 'in', photoIds).execute();
}

export async function countEntryPhotos(db: Db, userId: string, entryId: string): Promise<number> {
  const rows = await db.selectFrom('journal_photos').select('id').where('user_id', '=', userId).where('entry_id', '=', entryId).execute();
  return rows.length;
}
