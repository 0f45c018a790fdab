import { extname } from 'node:path';
import type { VaultSegment } from '../../shared/vault';
import { vaultMessages } from '../../shared/vault-messages';
import { readPhotoFile, STORED_CONTENT_TYPE } from '../at-rest/photo-files';
import type { AppContext } from '../context';
import type { JournalEntryRow, JournalPhotoRow, JournalRecordingRow } from '../db/tables';
import { conflict } from '../errors';
import { isVaultFile, sealFileBytes, sealSegment, sealText } from '../crypto/sealed-box';
import { newPhotoKeys } from '../photos/keys';
import { photosOfEntries, recordStaleFiles, updatePhotoFiles } from '../photos/repo';
import { deleteStaleFiles } from '../photos/service';
import { recordingsOfEntries, sealRecordingRow } from '../voice/repo';
import { changeJournal } from './changes';
import { decryptEntry } from './entry-cipher';
import { ownerSalt } from './owner';
import { findEntry, findJournalSeal, findSmsDayEntry, listEntryPhotos, sealEntryRow } from './repo';
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
    await ctx.storage.put(to, await sealFileBytes(publicKey, stored.bytes), STORED_CONTENT_TYPE);
    sealed.written.push(to);
    sealed[field] = to;
  }
  return sealed;
}

/** A readable recording's audio sealed to the public key under a new storage key, before the switch. */
interface SealedRecording {
  recording: JournalRecordingRow;
  file: string;
  written: string[];
}

async function sealRecordingFile(ctx: AppContext, userId: string, publicKey: string, recording: JournalRecordingRow): Promise<SealedRecording> {
  const sealed: SealedRecording = { recording, file: recording.file_path, written: [] };
  const stored = await readPhotoFile(ctx, recording.file_path);
  if (!stored || isVaultFile(stored.bytes)) return sealed;
  const key = newPhotoKeys(userId, recording.entry_id, ctx.clock.now(), extname(recording.file_path).slice(1) || 'bin').file;
  await ctx.storage.put(key, await sealFileBytes(publicKey, stored.bytes), STORED_CONTENT_TYPE);
  sealed.written.push(key);
  sealed.file = key;
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
  const voice: SealedRecording[] = [];
  const switched = new Set<string>();
  try {
    for (const photo of photos) files.push(await sealPhotoFiles(ctx, userId, publicKey, photo));
    // Voice recordings too: their audio sealed like a photo, their transcript to {"transcript": …}.
    for (const recording of await recordingsOfEntries(ctx.db, userId, entryIds)) {
      if (!Number(recording.sealed)) voice.push(await sealRecordingFile(ctx, userId, publicKey, recording));
    }
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
        const spoken = voice.filter((v) => v.recording.entry_id === id);
        const recordingsNow = (await recordingsOfEntries(trx, userId, [id])).filter((r) => !Number(r.sealed));
        if (recordingsNow.length !== spoken.length || recordingsNow.some((r) => !spoken.some((v) => v.recording.id === r.id && v.recording.file_path === r.file_path && v.recording.transcript === r.transcript))) continue;
        const entry = decryptEntry(ctx, salt, row);
        const segment: VaultSegment = { text: entry.content, ...(entry.title !== null && { title: entry.title }), ...(entry.tags.length > 0 && { tags: entry.tags }), at: entry.created_at, source: entry.source };
        await sealEntryRow(trx, userId, id, JSON.stringify([await sealSegment(publicKey, segment)]));
        for (const f of mine) {
          const name = ctx.cipher.decrypt(userId, salt, f.photo.file_name);
          await updatePhotoFiles(trx, userId, f.photo.id, { file_path: f.file, thumb_path: f.thumb, file_name: await sealText(publicKey, name) });
          if (f.file !== f.photo.file_path) stale.push(f.photo.file_path);
          if (f.thumb !== f.photo.thumb_path) stale.push(f.photo.thumb_path);
        }
        for (const v of spoken) {
          const transcript = v.recording.transcript === null ? null : ctx.cipher.decrypt(userId, salt, v.recording.transcript);
          await sealRecordingRow(trx, userId, v.recording.id, { file_path: v.file, transcript: await sealText(publicKey, JSON.stringify({ transcript })) });
          if (v.file !== v.recording.file_path) stale.push(v.recording.file_path);
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
    await removeFiles(ctx, voice.filter((v) => !switched.has(v.recording.entry_id)).flatMap((v) => v.written));
    // The readable files the sealed ones replaced go now; after a crash here, the sealing pass's sweep.
    await deleteStaleFiles(ctx, userId);
  } catch (error) {
    await removeFiles(ctx, [...files, ...voice].flatMap((f) => f.written));
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
  const seal = (await JournalWords.read(ctx, ctx.db, userId)).takeSealed();
  if (seal.state === 'unsealing') throw conflict(vaultMessages.errors.turningOff);
  await sealEntryNow(ctx, userId, entry.id);
}

/**
 * A Vault user's entry that the sealing of their journal has not reached yet is sealed (with its
 * photos) before the server adds to it (a voice note and its transcript), so what it adds is sealed
 * as it goes in. Nothing happens without a vault, or while it is being turned off.
 */
export async function sealEntryBeforeAdding(ctx: AppContext, userId: string, entry: Pick<JournalEntryRow, 'id' | 'sealed'>): Promise<void> {
  if (entry.sealed !== null || !(await JournalWords.read(ctx, ctx.db, userId)).sealedTo) return;
  await sealEntryNow(ctx, userId, entry.id);
}

/**
 * The same for the day's SMS entry, before a text joins it. Should it still be readable in the
 * append's transaction (sealed meanwhile, or the Vault turned off), the text joins it readable and
 * the next seal step takes both.
 */
export async function sealDayEntryFirst(ctx: AppContext, userId: string, entryDate: string): Promise<void> {
  if (!(await JournalWords.read(ctx, ctx.db, userId)).sealedTo) return;
  const entry = await findSmsDayEntry(ctx.db, userId, entryDate, false);
  if (entry && entry.sealed === null) await sealEntryNow(ctx, userId, entry.id);
}
