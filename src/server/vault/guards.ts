import { vaultMessages } from '../../shared/vault-messages';
import type { AppContext } from '../context';
import { conflict } from '../errors';
import { findVault } from './repo';

/**
 * The server's export reads the journal in the clear and its import writes it so: for a Vault user
 * both are made in the browser, where the journal is unlocked (409 here).
 */
export async function refuseForVault(ctx: AppContext, userId: string): Promise<void> {
  if (await findVault(ctx.db, userId)) throw conflict(vaultMessages.errors.browserOnly);
}
