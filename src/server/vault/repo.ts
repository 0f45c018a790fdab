import { sql } from 'kysely';
import type { Db } from '../db/database';
import type { JournalEntryRow, VaultsTable } from '../db/tables';

// SQL for the vault; every query is scoped by the owner's user id.

export type VaultRow = VaultsTable;

/** A Vault import's keys (import-sealed.ts) sit beside the server's own import fingerprints, told apart by this prefix. */
export const VAULT_IMPORT_PREFIX = 'vault:';
/** Import fingerprints from before the Vault, sealed to its public key (vault/import-fingerprints.ts). */
export const SEALED_FINGERPRINT_PREFIX = 'sealed:';

export async function findVault(db: Db, userId: string): Promise<VaultRow | undefined> {
  return db.selectFrom('vaults').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** Inserts the vault unless the user has one; true when inserted. */
export async function insertVault(db: Db, row: VaultRow): Promise<boolean> {
  const result = await db.insertInto('vaults').values(row).onConflict((oc) => oc.column('user_id').doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function updateVault(db: Db, userId: string, changes: Partial<Pick<VaultRow, 'state' | 'wrapped_keys' | 'updated_at'>>): Promise<void> {
  await db.updateTable('vaults').set(changes).where('user_id', '=', userId).execute();
}

export async function deleteVault(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('vaults').where('user_id', '=', userId).execute();
}

/** How many of the user's entries are sealed, of all of them. */
export async function entryCounts(db: Db, userId: string): Promise<{ sealed: number; total: number }> {
  const row = await db
    .selectFrom('journal_entries')
    .select([sql<number>`count(*)`.as('total'), sql<number>`count(sealed)`.as('sealed')])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return { sealed: Number(row?.sealed ?? 0), total: Number(row?.total ?? 0) };
}

/** Up to `limit` entries the server can still read (sealed = false) or can no longer read (true), by id. */
export async function entriesToConvert(db: Db, userId: string, sealed: boolean, limit: number): Promise<JournalEntryRow[]> {
  return db
    .selectFrom('journal_entries')
    .selectAll()
    .where('user_id', '=', userId)
    .where('sealed', sealed ? 'is not' : 'is', null)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The users whose vault is being turned on (their journals are being sealed). */
export async function vaultsBeingSealed(db: Db): Promise<string[]> {
  return (await db.selectFrom('vaults').select('user_id').where('state', '=', 'sealing').execute()).map((row) => row.user_id);
}

/**
 * What the server could still read of the journal once every entry is sealed: the keyed hashes that
 * would confirm a guess of a text (UNDO's) or of an imported entry (import fingerprints). A processed
 * text keeps no body to drop (sms/repo.ts markTextProcessed).
 */
export async function dropReadableLeftovers(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('journal_sms_undo').where('user_id', '=', userId).execute();
  // A Vault import's keys stay: made under a key only the browser holds, they confirm no guess; so do
  // the fingerprints sealed to the vault's key. Those made under the server's key alone go.
  await db
    .deleteFrom('journal_imports')
    .where('user_id', '=', userId)
    .where('fingerprint', 'not like', `${VAULT_IMPORT_PREFIX}%`)
    .where('fingerprint', 'not like', `${SEALED_FINGERPRINT_PREFIX}%`)
    .execute();
}

/** An entry the browser opened, stored under the server's key again (content, title, tags as sealed by the caller). */
export async function unsealEntryRow(db: Db, userId: string, entryId: string, text: { content: string; title: string | null; tags: string; word_count: number }): Promise<void> {
  await db.updateTable('journal_entries').set({ ...text, sealed: null }).where('user_id', '=', userId).where('id', '=', entryId).execute();
}

/** Whether one of the user's imports is queued or running. */
export async function importUnderWay(db: Db, userId: string): Promise<boolean> {
  const row = await db.selectFrom('import_jobs').select('id').where('user_id', '=', userId).where('status', 'in', ['queued', 'running']).limit(1).executeTakeFirst();
  return row !== undefined;
}
