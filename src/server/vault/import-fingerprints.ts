import type { ImportedFingerprints } from '../../shared/vault-import';
import { vaultMessages } from '../../shared/vault-messages';
import type { AppContext } from '../context';
import type { Db } from '../db/database';
import { conflict } from '../errors';
import { importFingerprintKey, KEYED_FINGERPRINT_PREFIX } from '../import/fingerprints';
import { recordImports } from '../import/repo';
import { findVault, SEALED_FINGERPRINT_PREFIX } from './repo';
import { sealText } from '../crypto/sealed-box';

// What came in by import before the Vault was on, kept across it: the fingerprints made under the
// journal's own key (import/fingerprints.ts) are sealed to the vault's public key when the journal
// is sealed, each in its row, so deleting an entry still forgets it. A sealed box is randomised: the
// server can neither open one nor match a guess against it. The owner's browser opens them, computes
// a file's fingerprints with the journal's key, and leaves out what came in before (vault-import.ts).

const like = (prefix: string) => `${prefix}%`;

/** Sealing the journal: its readable fingerprints become sealed ones (in the sealing's transaction). */
export async function sealImportFingerprints(trx: Db, userId: string, publicKey: string): Promise<void> {
  const rows = await trx
    .selectFrom('journal_imports')
    .selectAll()
    .where('user_id', '=', userId)
    .where('fingerprint', 'like', like(KEYED_FINGERPRINT_PREFIX))
    .execute();
  if (rows.length === 0) return;
  const sealed = [];
  for (const row of rows) sealed.push({ ...row, fingerprint: SEALED_FINGERPRINT_PREFIX + (await sealText(publicKey, row.fingerprint.slice(KEYED_FINGERPRINT_PREFIX.length))) });
  await trx.deleteFrom('journal_imports').where('user_id', '=', userId).where('fingerprint', 'like', like(KEYED_FINGERPRINT_PREFIX)).execute();
  await recordImports(trx, sealed);
}

/**
 * GET /api/vault/imported: the journal's fingerprint key and its fingerprints of what came in before
 * the Vault (still readable while the journal is being sealed, sealed after), for the browser to
 * check a file against. Only with a vault: without one the server checks imports itself.
 */
export async function importedFingerprints(ctx: AppContext, userId: string): Promise<ImportedFingerprints> {
  if (!(await findVault(ctx.db, userId))) throw conflict(vaultMessages.errors.off);
  const rows = await ctx.db
    .selectFrom('journal_imports')
    .select('fingerprint')
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('fingerprint', 'like', like(KEYED_FINGERPRINT_PREFIX)), eb('fingerprint', 'like', like(SEALED_FINGERPRINT_PREFIX))]))
    .execute();
  const readable: string[] = [];
  const sealed: string[] = [];
  for (const { fingerprint } of rows) {
    if (fingerprint.startsWith(KEYED_FINGERPRINT_PREFIX)) readable.push(fingerprint.slice(KEYED_FINGERPRINT_PREFIX.length));
    else sealed.push(fingerprint.slice(SEALED_FINGERPRINT_PREFIX.length));
  }
  return { key: importFingerprintKey(ctx, userId).toString('base64url'), fingerprints: readable, sealed };
}
