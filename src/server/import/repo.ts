import type { Db } from '../db/database';

// SQL for import fingerprints; scoped by the owner's user id.

const CHUNK = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/** The fingerprints, of those given, that the user's journal already holds. */
export async function knownFingerprints(db: Db, userId: string, fingerprints: readonly string[]): Promise<Set<string>> {
  const known = new Set<string>();
  for (const chunk of chunks(fingerprints)) {
    const rows = await db.selectFrom('journal_imports').select('fingerprint').where('user_id', '=', userId).where('fingerprint', 'in', chunk).execute();
    for (const row of rows) known.add(row.fingerprint);
  }
  return known;
}

/** The entry ids, of those given, that are the user's own entries (our export re-imported into the same journal). */
export async function existingEntryIds(db: Db, userId: string, ids: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const chunk of chunks(ids)) {
    const rows = await db.selectFrom('journal_entries').select('id').where('user_id', '=', userId).where('id', 'in', chunk).execute();
    for (const row of rows) found.add(row.id);
  }
  return found;
}

/** The days (of those given) that already have an SMS entry: the journal holds one SMS entry a day. */
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

export async function recordImport(db: Db, row: { user_id: string; fingerprint: string; entry_id: string; imported_at: string }): Promise<void> {
  await db.insertInto('journal_imports').values(row).execute();
}
