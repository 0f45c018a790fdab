import { sql, type Insertable } from 'kysely';
import type { Db } from '../db/database';
import type { JournalEntriesTable, JournalImportsTable } from '../db/tables';

// SQL for imported entries, photos and recordings; scoped by the owner's user id.

const CHUNK = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/** Of the fingerprints given, those the journal holds, with the entry each came in as. */
export async function knownFingerprints(db: Db, userId: string, fingerprints: readonly string[]): Promise<Map<string, string>> {
  const known = new Map<string, string>();
  for (const chunk of chunks([...new Set(fingerprints)])) {
    const rows = await db.selectFrom('journal_imports').select(['fingerprint', 'entry_id']).where('user_id', '=', userId).where('fingerprint', 'in', chunk).execute();
    for (const row of rows) known.set(row.fingerprint, row.entry_id);
  }
  return known;
}

/** The ids, of those given, of the user's entries (our export re-imported into the same journal). */
export async function existingEntryIds(db: Db, userId: string, ids: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const chunk of chunks(ids)) {
    const rows = await db.selectFrom('journal_entries').select('id').where('user_id', '=', userId).where('id', 'in', chunk).execute();
    for (const row of rows) found.add(row.id);
  }
  return found;
}

/** The ids, of those given, of the user's photos. */
export async function existingPhotoIds(db: Db, userId: string, ids: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const chunk of chunks(ids)) {
    const rows = await db.selectFrom('journal_photos').select('id').where('user_id', '=', userId).where('id', 'in', chunk).execute();
    for (const row of rows) found.add(row.id);
  }
  return found;
}

/** Of the source keys and recording ids given, those the user's recordings have. */
export async function existingRecordings(db: Db, userId: string, sourceKeys: readonly string[], ids: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const chunk of chunks([...new Set(sourceKeys)])) {
    const rows = await db.selectFrom('journal_recordings').select('source_key').where('user_id', '=', userId).where('source_key', 'in', chunk).execute();
    for (const row of rows) if (row.source_key !== null) found.add(row.source_key);
  }
  for (const chunk of chunks([...new Set(ids)])) {
    const rows = await db.selectFrom('journal_recordings').select('id').where('user_id', '=', userId).where('id', 'in', chunk).execute();
    for (const row of rows) found.add(row.id);
  }
  return found;
}

/** Photos each entry already has: how many, their bytes, and the next position. */
export async function photoTotals(db: Db, userId: string, entryIds: readonly string[]): Promise<Map<string, { count: number; bytes: number; next: number }>> {
  const totals = new Map<string, { count: number; bytes: number; next: number }>();
  for (const chunk of chunks([...new Set(entryIds)])) {
    const rows = await db
      .selectFrom('journal_photos')
      .select(['entry_id', sql<number>`count(*)`.as('count'), sql<number>`coalesce(sum(file_size), 0)`.as('bytes'), sql<number>`max(position)`.as('last')])
      .where('user_id', '=', userId)
      .where('entry_id', 'in', chunk)
      .groupBy('entry_id')
      .execute();
    for (const row of rows) totals.set(row.entry_id, { count: Number(row.count), bytes: Number(row.bytes), next: Number(row.last) + 1 });
  }
  return totals;
}

/** The SMS parts the days (of those given) already have: the journal holds one SMS entry a day. */
export async function smsDays(db: Db, userId: string, days: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const chunk of chunks(days)) {
    const rows = await db
      .selectFrom('journal_entries')
      .select('entry_date')
      .where('user_id', '=', userId)
      .where('source', '=', 'sms')
      .where('entry_date', 'in', chunk)
      .execute();
    for (const row of rows) found.add(row.entry_date);
  }
  return found;
}

export async function insertEntries(db: Db, rows: Insertable<JournalEntriesTable>[]): Promise<void> {
  for (const chunk of chunks(rows)) await db.insertInto('journal_entries').values(chunk).execute();
}

export async function recordImports(db: Db, rows: JournalImportsTable[]): Promise<void> {
  for (const chunk of chunks(rows)) await db.insertInto('journal_imports').values(chunk).execute();
}
