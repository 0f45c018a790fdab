import { sql } from 'kysely';
import type { Db } from '../db/database';
import type { JournalRecordingRow } from '../db/tables';

// SQL for voice recordings; every query scoped by the owner's user id.

export async function insertRecording(db: Db, row: JournalRecordingRow): Promise<void> {
  await db
    .insertInto('journal_recordings')
    .values({ ...row, transcribe_attempts: Number(row.transcribe_attempts) })
    .execute();
}

export async function findRecording(db: Db, userId: string, recordingId: string): Promise<JournalRecordingRow | undefined> {
  return db.selectFrom('journal_recordings').selectAll().where('user_id', '=', userId).where('id', '=', recordingId).executeTakeFirst();
}

export async function findRecordingBySource(db: Db, userId: string, sourceKey: string): Promise<JournalRecordingRow | undefined> {
  return db.selectFrom('journal_recordings').selectAll().where('user_id', '=', userId).where('source_key', '=', sourceKey).executeTakeFirst();
}

/** Every recording of a journal, oldest first. */
export async function listRecordings(db: Db, userId: string): Promise<JournalRecordingRow[]> {
  return db.selectFrom('journal_recordings').selectAll().where('user_id', '=', userId).orderBy('entry_id').orderBy('position').execute();
}

export async function listEntryRecordings(db: Db, userId: string, entryId: string): Promise<JournalRecordingRow[]> {
  return db
    .selectFrom('journal_recordings')
    .selectAll()
    .where('user_id', '=', userId)
    .where('entry_id', '=', entryId)
    .orderBy('position')
    .execute();
}

export async function updateRecording(
  db: Db,
  userId: string,
  recordingId: string,
  changes: Partial<Pick<JournalRecordingRow, 'transcript' | 'transcript_status' | 'transcribe_next_at' | 'transcribe_claimed_at' | 'transcribe_error' | 'transcribe_attempts'>>,
): Promise<void> {
  await db.updateTable('journal_recordings').set(changes).where('user_id', '=', userId).where('id', '=', recordingId).execute();
}

export async function deleteRecordingRow(db: Db, userId: string, recordingId: string): Promise<void> {
  await db.deleteFrom('journal_recordings').where('user_id', '=', userId).where('id', '=', recordingId).execute();
}

/** Where the next recording of an entry goes. */
export async function nextRecordingPosition(db: Db, userId: string, entryId: string): Promise<number> {
  const row = await db
    .selectFrom('journal_recordings')
    .select(sql<number | null>`max(position)`.as('last'))
    .where('user_id', '=', userId)
    .where('entry_id', '=', entryId)
    .executeTakeFirst();
  return row?.last === null || row?.last === undefined ? 0 : Number(row.last) + 1;
}

/** The recordings of some of the user's entries, in order. */
export async function recordingsOfEntries(db: Db, userId: string, entryIds: readonly string[]): Promise<JournalRecordingRow[]> {
  if (entryIds.length === 0) return [];
  return db.selectFrom('journal_recordings').selectAll().where('user_id', '=', userId).where('entry_id', 'in', entryIds).orderBy('entry_id').orderBy('position').execute();
}

/** A recording's audio and transcript replaced by copies sealed to the vault (sealing a journal). */
export async function sealRecordingRow(db: Db, userId: string, recordingId: string, change: { file_path: string; transcript: string }): Promise<void> {
  await db.updateTable('journal_recordings').set({ ...change, sealed: 1 }).where('user_id', '=', userId).where('id', '=', recordingId).execute();
}

/** A recording the browser opened (turning the vault off): its audio and transcript under the server's key again. */
export async function openRecordingRow(
  db: Db,
  userId: string,
  recordingId: string,
  change: Pick<JournalRecordingRow, 'file_path' | 'transcript' | 'transcript_status' | 'transcribe_next_at' | 'transcribe_claimed_at' | 'transcribe_error'>,
): Promise<void> {
  await db.updateTable('journal_recordings').set({ ...change, sealed: 0 }).where('user_id', '=', userId).where('id', '=', recordingId).execute();
}

/** The source keys of the recordings some of the user's entries hold, by entry (those without one left out). */
export async function recordingKeysOf(db: Db, userId: string, entryIds: readonly string[]): Promise<Map<string, string[]>> {
  const byEntry = new Map<string, string[]>();
  if (entryIds.length === 0) return byEntry;
  const rows = await db.selectFrom('journal_recordings').select(['entry_id', 'source_key']).where('user_id', '=', userId).where('entry_id', 'in', entryIds).where('source_key', 'is not', null).execute();
  for (const row of rows) byEntry.set(row.entry_id, [...(byEntry.get(row.entry_id) ?? []), row.source_key!]);
  return byEntry;
}
