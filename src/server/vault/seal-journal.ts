import { performance } from 'node:perf_hooks';
import type { VaultView } from '../../shared/vault';
import { vaultMessages } from '../../shared/vault-messages';
import type { AppContext } from '../context';
import { notFound } from '../errors';
import { changeJournal } from '../journal/changes';
import { sealImportFingerprints } from './import-fingerprints';
import * as repo from './repo';
import { sealEntries } from '../journal/seal-entries';
import { getVault } from './service';
import { deleteStaleFiles } from '../photos/service';
import { photosOfEntries, usersWithStaleFiles } from '../photos/repo';

// Turning the vault on seals the journal already written, a batch at a time, in the server: the
// scheduler's pass (sealVaults) takes every vault being turned on, whether or not a tab is open, and
// a killed instance's work goes on at the next pass of any instance, since each batch is committed.
// POST /api/vault/seal takes a step too, for a tab that shows progress. The server seals: it holds
// these entries' text until the step ends anyway, and a journal's photos need not cross the network.

const ENTRIES_PER_STEP = 50;
const PHOTOS_PER_STEP = 20;

/**
 * POST /api/vault/seal: seals the next batch; with none left, removes the leftovers and the vault is
 * on. Once on, it seals any entry that reached the journal readable all the same (a safety net).
 */
export async function sealNextBatch(ctx: AppContext, userId: string): Promise<VaultView> {
  const vault = await repo.findVault(ctx.db, userId);
  if (!vault) throw notFound(vaultMessages.errors.off);
  if (vault.state === 'unsealing') {
    // Sealing again what turning it off had opened: the way back is the way in.
    await repo.updateVault(ctx.db, userId, { state: 'sealing', updated_at: ctx.clock.now().toISOString() });
  }
  await deleteStaleFiles(ctx, userId);
  const batch = await nextBatch(ctx, userId);
  if (batch.entries.length === 0) await finishSealing(ctx, userId);
  else await sealEntries(ctx, userId, vault.public_key, batch.entries.map((e) => e.id), batch.photos);
  await deleteStaleFiles(ctx, userId);
  return getVault(ctx, userId);
}

/** How long one pass of the scheduler seals before it lets the next job run (wall time, not the app's clock). */
const PASS_BUDGET_MS = 2_000;

/**
 * The scheduler's pass: seals the journals whose vault is being turned on, step by step, and deletes
 * the photo files a crash left listed as replaced. Steps are idempotent (an entry sealed meanwhile is
 * skipped), so two instances at one journal only repeat work; nothing is sealed twice or lost.
 */
export async function sealVaults(ctx: AppContext): Promise<void> {
  const started = performance.now();
  for (const userId of await repo.vaultsBeingSealed(ctx.db)) {
    while (performance.now() - started < PASS_BUDGET_MS) {
      if ((await sealNextBatch(ctx, userId)).state !== 'sealing') break;
    }
  }
  for (const userId of await usersWithStaleFiles(ctx.db)) await deleteStaleFiles(ctx, userId);
}

/** The next entries the server can read, with their photos: at most ENTRIES_PER_STEP, and PHOTOS_PER_STEP photos (at least one entry). */
async function nextBatch(ctx: AppContext, userId: string) {
  const candidates = await repo.entriesToConvert(ctx.db, userId, false, ENTRIES_PER_STEP);
  const photos = await photosOfEntries(ctx.db, userId, candidates.map((e) => e.id));
  const entries: typeof candidates = [];
  let photoCount = 0;
  for (const entry of candidates) {
    const count = photos.filter((p) => p.entry_id === entry.id).length;
    if (entries.length > 0 && photoCount + count > PHOTOS_PER_STEP) break;
    entries.push(entry);
    photoCount += count;
  }
  return { entries, photos: photos.filter((p) => entries.some((e) => e.id === p.entry_id)) };
}

/**
 * Every entry is sealed: the server-readable leftovers go (bodies of processed texts, the keyed
 * hashes of UNDO and imports), in the journal's transaction so a text processed meanwhile is either
 * sealed already or keeps the vault in `sealing` for one more step.
 */
async function finishSealing(ctx: AppContext, userId: string): Promise<void> {
  await changeJournal(ctx, userId, async (trx) => {
    const vault = await repo.findVault(trx, userId);
    if (!vault || vault.state === 'unsealing') return { entryId: '' };
    if ((await repo.entriesToConvert(trx, userId, false, 1)).length > 0) return { entryId: '' };
    await sealImportFingerprints(trx, userId, vault.public_key);
    await repo.dropReadableLeftovers(trx, userId);
    if (vault.state === 'sealing') await repo.updateVault(trx, userId, { state: 'on', updated_at: ctx.clock.now().toISOString() });
    return { entryId: '' };
  });
  ctx.journalCache.forget(userId);
}
