import { extname } from 'node:path';
import type { VaultSegment, VaultView } from '../../shared/vault';
import { vaultMessages } from '../../shared/vault-messages';
import { readPhotoFile, SEALED_CONTENT_TYPE } from '../at-rest/photo-files';
import type { AppContext } from '../context';
import type { JournalPhotoRow } from '../db/tables';
import { conflict, notFound } from '../errors';
import { changeJournal } from '../journal/changes';
import { openEntry } from '../journal/entry-cipher';
import { ownerSalt } from '../journal/owner';
import { findEntry, listEntryPhotos } from '../journal/repo';
import { newPhotoKeys } from '../photos/keys';
import * as repo from './repo';
import { isVaultFile, sealFileBytes, sealSegment, sealText } from './seal';
import { deleteStaleFiles, getVault } from './service';

// Turning the vault on seals the journal already written, a batch per POST /api/vault/seal, so the
// browser shows progress and a closed tab resumes where it stopped. The server seals: it holds these
// entries' text until the step ends anyway, and a journal's photos need not cross the network twice.

const ENTRIES_PER_STEP = 50;
const PHOTOS_PER_STEP = 20;

/** An entry's photo files sealed to the public key under new storage keys, before the switch. */
interface SealedFiles {
  photo: JournalPhotoRow;
  file: string;
  thumb: string;
  /** Keys written by this step (deleted again if the entry is not switched). */
  written: string[];
}

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
  if (batch.entries.length === 0) {
    await finishSealing(ctx, userId);
    return getVault(ctx, userId);
  }
  const salt = await ownerSalt(ctx, userId);
  const files: SealedFiles[] = [];
  try {
    for (const photo of batch.photos) files.push(await sealPhotoFiles(ctx, userId, vault.public_key, photo));
    const switched = new Set<string>();
    await changeJournal(ctx, userId, async (trx) => {
      const current = await repo.findVault(trx, userId);
      if (current?.public_key !== vault.public_key || current.state === 'unsealing') throw conflict(vaultMessages.errors.otherKey);
      const stale: string[] = [];
      for (const { id } of batch.entries) {
        const row = await findEntry(trx, userId, id);
        if (!row || row.sealed !== null) continue;
        const mine = files.filter((f) => f.photo.entry_id === id);
        // A photo added or removed since the files were sealed: this entry waits for the next step.
        const photosNow = await listEntryPhotos(trx, userId, id);
        if (photosNow.length !== mine.length || photosNow.some((p) => !mine.some((f) => f.photo.id === p.id && f.photo.file_path === p.file_path))) continue;
        const entry = openEntry(ctx, salt, row);
        const segment: VaultSegment = { text: entry.content, ...(entry.title !== null && { title: entry.title }), ...(entry.tags.length > 0 && { tags: entry.tags }), at: entry.created_at, source: entry.source };
        await repo.sealEntryRow(trx, userId, id, JSON.stringify([await sealSegment(vault.public_key, segment)]));
        for (const f of mine) {
          const name = ctx.cipher.decrypt(userId, salt, f.photo.file_name);
          await repo.updatePhotoFiles(trx, userId, f.photo.id, { file_path: f.file, thumb_path: f.thumb, file_name: await sealText(vault.public_key, name) });
          if (f.file !== f.photo.file_path) stale.push(f.photo.file_path);
          if (f.thumb !== f.photo.thumb_path) stale.push(f.photo.thumb_path);
        }
        switched.add(id);
      }
      // Listed in the same commit: a crash before the old files are deleted cannot leave them behind.
      await repo.recordStaleFiles(trx, userId, stale, ctx.clock.now().toISOString());
      return { entryId: '', changedEntryIds: [...switched] };
    });
    // No decrypted copy of a sealed entry stays in memory here; other instances read the new revision.
    ctx.journalCache.forget(userId);
    await removeFiles(ctx, files.filter((f) => !switched.has(f.photo.entry_id)).flatMap((f) => f.written));
  } catch (error) {
    await removeFiles(ctx, files.flatMap((f) => f.written));
    throw error;
  }
  await deleteStaleFiles(ctx, userId);
  return getVault(ctx, userId);
}

/** The next entries the server can read, with their photos: at most ENTRIES_PER_STEP, and PHOTOS_PER_STEP photos (at least one entry). */
async function nextBatch(ctx: AppContext, userId: string) {
  const candidates = await repo.entriesToConvert(ctx.db, userId, false, ENTRIES_PER_STEP);
  const photos = await repo.photosOfEntries(ctx.db, userId, candidates.map((e) => e.id));
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

/** Seals a photo and its thumbnail into new files; a file that is missing, or already sealed, stays where it is. */
async function sealPhotoFiles(ctx: AppContext, userId: string, publicKey: string, photo: JournalPhotoRow): Promise<SealedFiles> {
  const now = ctx.clock.now();
  const keys = newPhotoKeys(userId, photo.entry_id, now, extname(photo.file_path).slice(1) || 'jpg');
  const sealed: SealedFiles = { photo, file: photo.file_path, thumb: photo.thumb_path, written: [] };
  for (const [from, to, field] of [[photo.file_path, keys.file, 'file'], [photo.thumb_path, keys.thumb, 'thumb']] as const) {
    const stored = await readPhotoFile(ctx, from);
    if (!stored || isVaultFile(stored.bytes)) continue;
    await ctx.storage.put(to, await sealFileBytes(publicKey, stored.bytes), SEALED_CONTENT_TYPE);
    sealed.written.push(to);
    sealed[field] = to;
  }
  return sealed;
}

async function removeFiles(ctx: AppContext, keys: readonly string[]): Promise<void> {
  await Promise.all(keys.map((key) => ctx.storage.delete(key).catch(() => undefined)));
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
    await repo.dropReadableLeftovers(trx, userId);
    if (vault.state === 'sealing') await repo.updateVault(trx, userId, { state: 'on', updated_at: ctx.clock.now().toISOString() });
    return { entryId: '' };
  });
  ctx.journalCache.forget(userId);
}
