import { vaultMessages } from '../../shared/vault-messages';
import type { AppContext } from '../context';
import type { Db } from '../db/database';
import type { JournalEntryRow } from '../db/tables';
import { conflict } from '../errors';
import { findVault, type VaultRow } from './repo';
import { sealEntryNow } from './seal-entries';

// What web writes may be for a Vault user (docs/vault.md §5): the browser seals their words and
// photos; the server keeps what it is sent and refuses words in the clear while the journal is sealed.

const errors = vaultMessages.errors;

/** Words or photos in the clear: refused while the journal is sealed in the browser (a Vault sealing or on). Pass the write's transaction. */
export async function refusePlainWrite(db: Db, userId: string): Promise<void> {
  const vault = await findVault(db, userId);
  if (vault && vault.state !== 'unsealing') throw conflict(errors.sealedOnly);
}

/** The Vault a sealed write goes to; 409 without one. Pass the write's transaction. */
export async function vaultForSealedWrite(db: Db, userId: string): Promise<VaultRow> {
  const vault = await findVault(db, userId);
  if (!vault) throw conflict(errors.off);
  return vault;
}

/**
 * Before a sealed write to an entry the server can still read (the sealing of the journal has not
 * reached it), the entry is sealed now with its photos, so an entry is never part sealed. While the
 * Vault is being turned off, such an entry stays readable and the write is refused.
 */
export async function sealBeforeSealedWrite(ctx: AppContext, userId: string, entry: Pick<JournalEntryRow, 'id' | 'sealed'>): Promise<void> {
  if (entry.sealed !== null) return;
  const vault = await vaultForSealedWrite(ctx.db, userId);
  if (vault.state === 'unsealing') throw conflict(errors.turningOff);
  await sealEntryNow(ctx, userId, entry.id);
}

/** Inside the write's transaction: the entry must be sealed by now (it was, or sealBeforeSealedWrite did it). */
export function requireSealed(entry: Pick<JournalEntryRow, 'sealed'>): void {
  if (entry.sealed === null) throw conflict(errors.turningOff);
}
