import { sql } from 'kysely';
import type { Db } from '../db/database';
import type { JournalPhotoRow } from '../db/tables';

// SQL for photo records; scoped by the owner's user id.

export async function insertPhotos(db: Db, rows: JournalPhotoRow[]): Promise<void> {
  if (rows.length) await db.insertInto('journal_photos').values(rows).execute();
}

export async function findPhoto(db: Db, userId: string, entryId: string, photoId: string): Promise<JournalPhotoRow | undefined> {
  return db
    .selectFrom('journal_photos')
    .selectAll()
    .where('user_id', '=', userId)
    .where('entry_id', '=', entryId)
    .where('id', '=', photoId)
    .executeTakeFirst();
}

export async function deletePhotoRow(db: Db, userId: string, photoId: string): Promise<void> {
  await db.deleteFrom('journal_photos').where('user_id', '=', userId).where('id', '=', photoId).execute();
}

/** How many photos an entry has and their stored size in bytes. */
export async function entryPhotoTotals(db: Db, userId: string, entryId: string): Promise<{ count: number; bytes: number }> {
  const row = await db
    .selectFrom('journal_photos')
    .select([sql<number>`count(*)`.as('count'), sql<number>`coalesce(sum(file_size), 0)`.as('bytes')])
    .where('user_id', '=', userId)
    .where('entry_id', '=', entryId)
    .executeTakeFirst();
  return { count: Number(row?.count ?? 0), bytes: Number(row?.bytes ?? 0) };
}

/** Where the next photo of an entry goes. */
export async function nextPhotoPosition(db: Db, userId: string, entryId: string): Promise<number> {
  const row = await db
    .selectFrom('journal_photos')
    .select(sql<number | null>`max(position)`.as('last'))
    .where('user_id', '=', userId)
    .where('entry_id', '=', entryId)
    .executeTakeFirst();
  return row?.last === null || row?.last === undefined ? 0 : Number(row.last) + 1;
}

/** The photos of some of the user's entries, in order. */
export async function photosOfEntries(db: Db, userId: string, entryIds: readonly string[]): Promise<JournalPhotoRow[]> {
  if (entryIds.length === 0) return [];
  return db
    .selectFrom('journal_photos')
    .selectAll()
    .where('user_id', '=', userId)
    .where('entry_id', 'in', entryIds)
    .orderBy('entry_id')
    .orderBy('position')
    .execute();
}

/** Which of the user's entries have at least one photo. */
export async function entriesWithPhotos(db: Db, userId: string, entryIds: readonly string[]): Promise<Set<string>> {
  if (entryIds.length === 0) return new Set();
  const rows = await db.selectFrom('journal_photos').select('entry_id').distinct().where('user_id', '=', userId).where('entry_id', 'in', entryIds).execute();
  return new Set(rows.map((row) => row.entry_id));
}

export async function updatePhotoFiles(db: Db, userId: string, photoId: string, changes: Pick<JournalPhotoRow, 'file_path' | 'thumb_path' | 'file_name'>): Promise<void> {
  await db.updateTable('journal_photos').set(changes).where('user_id', '=', userId).where('id', '=', photoId).execute();
}

export async function recordStaleFiles(db: Db, userId: string, keys: readonly string[], at: string): Promise<void> {
  if (keys.length === 0) return;
  await db
    .insertInto('vault_stale_files')
    .values(keys.map((storage_key) => ({ storage_key, user_id: userId, created_at: at })))
    .onConflict((oc) => oc.column('storage_key').doNothing())
    .execute();
}

/** The users with replaced photo files still listed (a crash between the switch and the delete). */
export async function usersWithStaleFiles(db: Db): Promise<string[]> {
  return (await db.selectFrom('vault_stale_files').select('user_id').distinct().execute()).map((row) => row.user_id);
}

export async function staleFiles(db: Db, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('vault_stale_files').select('storage_key').where('user_id', '=', userId).execute();
  return rows.map((r) => r.storage_key);
}

export async function forgetStaleFiles(db: Db, userId: string, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.deleteFrom('vault_stale_files').where('user_id', '=', userId).where('storage_key', 'in', keys).execute();
}
