import type { VaultView } from '../../shared/vault';
import { vaultMessages } from '../../shared/vault-messages';
import type { AppContext } from '../context';
import { conflict, notFound } from '../errors';
import { changeJournal } from '../journal/changes';
import { sealedTextsWaiting } from '../sms/inbound';
import { deleteStaleFiles } from '../photos/service';
import { presentVault } from './present';
import * as repo from './repo';

const errors = vaultMessages.errors;

export interface VaultKeys {
  public_key: string;
  wrapped_keys: Record<string, unknown>;
}

/** GET /api/vault. */
export async function getVault(ctx: AppContext, userId: string): Promise<VaultView> {
  return presentVault(ctx.db, userId, await repo.findVault(ctx.db, userId));
}

/**
 * PUT /api/vault: turns the vault on. From this commit on, new texts are sealed to the public key;
 * the journal already written is sealed by POST /api/vault/seal, a batch at a time.
 */
export async function turnOnVault(ctx: AppContext, userId: string, keys: VaultKeys): Promise<VaultView> {
  const now = ctx.clock.now().toISOString();
  // In the journal's transaction, after its revision: a text being processed sees the vault or not, wholly.
  await changeJournal(ctx, userId, async (trx) => {
    // An import under way would go on writing the journal in the clear.
    if (await repo.importUnderWay(trx, userId)) throw conflict(errors.importUnderWay);
    const row = { user_id: userId, public_key: keys.public_key, wrapped_keys: JSON.stringify(keys.wrapped_keys), state: 'sealing' as const, created_at: now, updated_at: now };
    if (!(await repo.insertVault(trx, row))) throw conflict(errors.alreadyOn);
    return { entryId: '' };
  });
  // The journal in memory says whether it has a Vault: read it again with this one.
  ctx.journalCache.forget(userId);
  return getVault(ctx, userId);
}

/**
 * PUT /api/vault/keys: the same private key wrapped anew (a new passphrase, a new recovery code).
 * The public key sent must be the vault's: a page opened before the vault was set up again cannot
 * overwrite the new one's wrapping.
 */
export async function rewrapVault(ctx: AppContext, userId: string, keys: VaultKeys): Promise<VaultView> {
  const vault = await repo.findVault(ctx.db, userId);
  if (!vault) throw notFound(errors.off);
  if (vault.public_key !== keys.public_key) throw conflict(errors.otherKey);
  await repo.updateVault(ctx.db, userId, { wrapped_keys: JSON.stringify(keys.wrapped_keys), updated_at: ctx.clock.now().toISOString() });
  return getVault(ctx, userId);
}

/** POST /api/vault/unseal: starts turning the vault off; the browser then opens the sealed entries. */
export async function startTurningOff(ctx: AppContext, userId: string): Promise<VaultView> {
  await changeJournal(ctx, userId, async (trx) => {
    if (!(await repo.findVault(trx, userId))) throw notFound(errors.off);
    await repo.updateVault(trx, userId, { state: 'unsealing', updated_at: ctx.clock.now().toISOString() });
    return { entryId: '' };
  });
  return getVault(ctx, userId);
}

/**
 * DELETE /api/vault: the last step of turning it off, once no entry is sealed and no text sealed on
 * arrival waits (a processed text keeps no body): the public key and the wrapped private key go.
 */
export async function finishTurningOff(ctx: AppContext, userId: string): Promise<void> {
  await changeJournal(ctx, userId, async (trx) => {
    const vault = await repo.findVault(trx, userId);
    if (!vault) throw notFound(errors.off);
    if (vault.state !== 'unsealing') throw conflict(errors.notTurningOff);
    const { sealed } = await repo.entryCounts(trx, userId);
    if (sealed > 0) throw conflict(errors.stillSealed(sealed));
    // A text sealed on arrival joins the journal sealed; the browser must still open it.
    if (await sealedTextsWaiting(trx, userId)) throw conflict(errors.textsWaiting);
    await repo.deleteVault(trx, userId);
    return { entryId: '' };
  });
  ctx.journalCache.forget(userId);
  await deleteStaleFiles(ctx, userId);
}
