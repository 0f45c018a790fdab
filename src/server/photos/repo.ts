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
