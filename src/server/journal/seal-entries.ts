import { extname } from 'node:path';
import type { VaultSegment } from '../../shared/vault';
import { vaultMessages } from '../../shared/vault-messages';
import { readPhotoFile, SEALED_CONTENT_TYPE } from '../at-rest/photo-files';
import type { AppContext } from '../context';
import type { JournalEntryRow, JournalPhotoRow } from '../db/tables';
import { conflict } from '../errors';
import { isVaultFile, sealFileBytes, sealSegment, sealText } from '../crypto/sealed-box';
import { newPhotoKeys } from '../photos/keys';
import { photosOfEntries, recordStaleFiles, updatePhotoFiles } from '../photos/repo';
import { deleteStaleFiles } from '../photos/service';
import { changeJournal } from './changes';
import { openEntry } from './entry-cipher';
import { ownerSalt } from './owner';
import { findEntry, findJournalSeal, listEntryPhotos, sealEntryRow } from './repo';
import { JournalWords } from './words';

/** An entry's photo files sealed to the public key under new storage keys, before the switch. */
interface SealedFiles {
  photo: JournalPhotoRow;
  file: string;
  thumb: string;
  /** Keys written here (deleted again if the entry is not switched). */
  written: string[];
}

/** Seals a photo and its thumbnail into new files; a file that is missing, or already sealed, stays where it is. */
async function sealPhotoFiles(ctx: AppContext, userId: string, publicKey: string, photo: JournalPhotoRow): Promise<SealedFiles> {
  const keys = newPhotoKeys(userId, photo.entry_id, ctx.clock.now(), extname(photo.file_path).slice(1) || 'jpg');
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
 * Seals readable entries (text, title, tags as one segment) and their photos (files and names) to
 * the vault's public key; answers the ids sealed. The photo files are sealed first, outside the
 * transaction; in it, an entry changed meanwhile (sealed already, or a photo added or removed) is
 * left for later. Old files are listed as stale in the same commit, then deleted.
 */
export async function sealEntries(ctx: AppContext, userId: string, publicKey: string, entryIds: readonly string[], photos: readonly JournalPhotoRow[]): Promise<string[]> {
  const salt = await ownerSalt(ctx, userId);
  const files: SealedFiles[] = [];
  const switched = new Set<string>();
  try {
    for (const photo of photos) files.push(await sealPhotoFiles(ctx, userId, publicKey, photo));
    await changeJournal(ctx, userId, async (trx) => {
      const current = await findJournalSeal(trx, userId);
      if (current?.public_key !== publicKey || current.state === 'unsealing') throw conflict(vaultMessages.errors.otherKey);
      const stale: string[] = [];
      for (const id of entryIds) {
        const row = await findEntry(trx, userId, id);
        if (!row || row.sealed !== null) continue;
        const mine = files.filter((f) => f.photo.entry_id === id);
        const photosNow = await listEntryPhotos(trx, userId, id);
        if (photosNow.length !== mine.length || photosNow.some((p) => !mine.some((f) => f.photo.id === p.id && f.photo.file_path === p.file_path))) continue;
        const entry = openEntry(ctx, salt, row);
        const segment: VaultSegment = { text: entry.content, ...(entry.title !== null && { title: entry.title }), ...(entry.tags.length > 0 && { tags: entry.tags }), at: entry.created_at, source: entry.source };
        await sealEntryRow(trx, userId, id, JSON.stringify([await sealSegment(publicKey, segment)]));
        for (const f of mine) {
          const name = ctx.cipher.decrypt(userId, salt, f.photo.file_name);
          await updatePhotoFiles(trx, userId, f.photo.id, { file_path: f.file, thumb_path: f.thumb, file_name: await sealText(publicKey, name) });
          if (f.file !== f.photo.file_path) stale.push(f.photo.file_path);
          if (f.thumb !== f.photo.thumb_path) stale.push(f.photo.thumb_path);
        }
        switched.add(id);
      }
      // Listed in the same commit: a crash before the old files are deleted cannot leave them behind.
      await recordStaleFiles(trx, userId, stale, ctx.clock.now().toISOString());
      return { entryId: '', changedEntryIds: [...switched] };
    });
    // No decrypted copy of a sealed entry stays in memory here; other instances read the new revision.
    ctx.journalCache.forget(userId);
    await removeFiles(ctx, files.filter((f) => !switched.has(f.photo.entry_id)).flatMap((f) => f.written));
    // The readable files the sealed ones replaced go now; after a crash here, the sealing pass's sweep.
    await deleteStaleFiles(ctx, userId);
  } catch (error) {
    await removeFiles(ctx, files.flatMap((f) => f.written));
    throw error;
  }
  return [...switched];
}

/**
 * Seals one readable entry of a vault user now (with its photos): for processing, before it adds a
 * text to a day whose entry the sealing of the journal has not reached yet. False when there is no
 * vault, it is being turned off, or the entry is sealed already.
 */
export async function sealEntryNow(ctx: AppContext, userId: string, entryId: string): Promise<boolean> {
  const vault = await findJournalSeal(ctx.db, userId);
  if (!vault || vault.state === 'unsealing') return false;
  const photos = await photosOfEntries(ctx.db, userId, [entryId]);
  return (await sealEntries(ctx, userId, vault.public_key, [entryId], photos)).length > 0;
}

/**
 * Before a sealed write to an entry the server can still read (the sealing of the journal has not
 * reached it), the entry is sealed now with its photos, so an entry is never part sealed. While the
 * vault is being turned off, such an entry stays readable and the write is refused.
 */
export async function sealEntryFirst(ctx: AppContext, userId: string, entry: Pick<JournalEntryRow, 'id' | 'sealed'>): Promise<void> {
  if (entry.sealed !== null) return;
  const seal = (await JournalWords.read(ctx.db, userId)).takeSealed();
  if (seal.state === 'unsealing') throw conflict(vaultMessages.errors.turningOff);
  await sealEntryNow(ctx, userId, entry.id);
}
