import {
  PHOTO_MAX_BYTES,
  PHOTOS_PER_ENTRY_MAX,
  PHOTOS_PER_ENTRY_MAX_BYTES,
  photosTooLargeMessage,
  photosWouldExceedMessage,
} from '../../shared/journal';
import { messages } from '../../shared/messages';
import { SEALED_CONTENT_TYPE, sealFileName, sealPhotoBytes } from '../at-rest/photo-files';
import type { AppContext } from '../context';
import type { Db } from '../db/database';
import type { JournalEntryRow, JournalPhotoRow } from '../db/tables';
import { vaultMessages } from '../../shared/vault-messages';
import { AppError, conflict, invalidInput, notFound } from '../errors';
import { newId } from '../ids';
import type { CachedEntry } from '../journal/cache';
import { changeJournal } from '../journal/changes';
import { readEntry } from '../journal/read-entry';
import { refusePlainWrite, requireSealed, sealBeforeSealedWrite } from '../vault/journal-writes';
import { sealFileBytes, sealText } from '../vault/seal';
import { findEntry, listPhotos, touchEntry } from '../journal/repo';
import { cleanFileName, hasTooManyPixels, prepareImage, type PreparedImage } from './images';
import { newPhotoKeys } from './keys';
import { deletePhotoRow, entryPhotoTotals, findPhoto, insertPhotos, nextPhotoPosition } from './repo';
import { sealedPhotosOf, type SealedPhoto } from './sealed-uploads';
import type { PhotoUpload } from './uploads';

export interface PreparedPhoto extends PreparedImage {
  fileName: string;
}

type PhotoTotals = { count: number; bytes: number };

/** The spec's photo rules on what is being added, before anything is decoded. */
export function checkPhotoRoom(uploads: readonly Pick<PhotoUpload, 'size'>[], current: PhotoTotals, newEntry: boolean): void {
  if (uploads.some((u) => u.size > PHOTO_MAX_BYTES)) throw new AppError('PAYLOAD_TOO_LARGE', messages.entries.fileTooLarge);
  if (current.count + uploads.length > PHOTOS_PER_ENTRY_MAX) throw invalidInput(messages.entries.tooManyPhotos);
  const adding = uploads.reduce((sum, u) => sum + u.size, 0);
  if (current.bytes + adding > PHOTOS_PER_ENTRY_MAX_BYTES) {
    throw invalidInput(newEntry ? photosTooLargeMessage(adding) : photosWouldExceedMessage(current.bytes + adding, current.bytes));
  }
}

/**
 * Decodes every upload (one at a time, to bound memory); any that is not an allowed image refuses
 * all. Sizes are read from the headers first: one oversized image refuses all before any is decoded.
 */
export async function preparePhotos(uploads: readonly PhotoUpload[]): Promise<PreparedPhoto[]> {
  for (const upload of uploads) if (await hasTooManyPixels(upload.bytes)) throw invalidInput(messages.entries.tooManyPixels);
  const prepared: PreparedPhoto[] = [];
  for (const upload of uploads) {
    const image = await prepareImage(upload.bytes);
    if (!image) throw invalidInput(messages.entries.invalidFileType);
    prepared.push({ ...image, fileName: cleanFileName(upload.fileName, image.ext) });
  }
  return prepared;
}

/**
 * Runs work that writes photo files; if it fails, the files it wrote are removed again.
 * `written` collects their keys.
 */
export async function writingPhotoFiles<T>(ctx: AppContext, work: (written: string[]) => Promise<T>): Promise<T> {
  const written: string[] = [];
  try {
    return await work(written);
  } catch (error) {
    const storage = ctx.storage;
    await Promise.all(written.map((key) => storage.delete(key).catch(() => undefined)));
    throw error;
  }
}

/** A photo as it is kept: its files and name sealed (by the server's key, or to a Vault's public key). */
interface PhotoToStore {
  full: Buffer;
  thumb: Buffer;
  fileName: string;
  size: number;
  mimeType: string;
  ext: string;
}

async function storePhotos(ctx: AppContext, trx: Db, userId: string, entryId: string, photos: readonly PhotoToStore[], written: string[]): Promise<void> {
  const storage = ctx.storage;
  const now = ctx.clock.now();
  const rows: JournalPhotoRow[] = [];
  let position = await nextPhotoPosition(trx, userId, entryId);
  for (const photo of photos) {
    const keys = newPhotoKeys(userId, entryId, now, photo.ext);
    await storage.put(keys.file, photo.full, SEALED_CONTENT_TYPE);
    written.push(keys.file);
    await storage.put(keys.thumb, photo.thumb, SEALED_CONTENT_TYPE);
    written.push(keys.thumb);
    rows.push({
      id: newId(),
      entry_id: entryId,
      user_id: userId,
      file_path: keys.file,
      thumb_path: keys.thumb,
      file_name: photo.fileName,
      file_size: photo.size,
      mime_type: photo.mimeType,
      position: position++,
      created_at: now.toISOString(),
    });
  }
  await insertPhotos(trx, rows);
}

/**
 * Stores prepared photos (full image and thumbnail) and records them, inside the caller's
 * transaction. Files and file names are encrypted with the owner's key (at-rest/photo-files.ts), or,
 * for a Vault entry, sealed to `vaultKey` (the Vault's public key: the server keeps no way to open them).
 */
export async function savePhotos(
  ctx: AppContext,
  trx: Db,
  userId: string,
  entryId: string,
  photos: readonly PreparedPhoto[],
  written: string[],
  vaultKey: string | null = null,
): Promise<void> {
  if (photos.length === 0) return;
  const stored: PhotoToStore[] = [];
  if (vaultKey) {
    for (const photo of photos) {
      stored.push({ ...photo, full: await sealFileBytes(vaultKey, photo.full), thumb: await sealFileBytes(vaultKey, photo.thumb), fileName: await sealText(vaultKey, photo.fileName), size: photo.full.length });
    }
  } else {
    const salt = await ownerSaltIn(ctx, trx, userId);
    for (const photo of photos) {
      stored.push({ ...photo, full: sealPhotoBytes(ctx, userId, salt, photo.full), thumb: sealPhotoBytes(ctx, userId, salt, photo.thumb), fileName: sealFileName(ctx, userId, salt, photo.fileName), size: photo.full.length });
    }
  }
  await storePhotos(ctx, trx, userId, entryId, stored, written);
}

/** Stores a Vault entry's photos as the browser sealed them, inside the caller's transaction. */
export async function saveSealedPhotos(ctx: AppContext, trx: Db, userId: string, entryId: string, photos: readonly SealedPhoto[], written: string[]): Promise<void> {
  await storePhotos(ctx, trx, userId, entryId, photos, written);
}

/** The owner's key salt, read in the caller's transaction (SQLite has one connection: ctx.db would wait on it). */
async function ownerSaltIn(ctx: AppContext, trx: Db, userId: string): Promise<string> {
  const { key_salt: salt } = await trx.selectFrom('profiles').select('key_salt').where('id', '=', userId).executeTakeFirstOrThrow();
  return salt;
}

export async function removePhotoFiles(ctx: AppContext, photos: readonly Pick<JournalPhotoRow, 'file_path' | 'thumb_path'>[]): Promise<void> {
  const storage = ctx.storage;
  await Promise.all(photos.flatMap((p) => [storage.delete(p.file_path), storage.delete(p.thumb_path)]));
}

/** The sealed names and types of a Vault entry's photos, when the form brings sealed photos. */
interface SealedPhotoFields {
  photo_names?: string[];
  photo_types?: SealedPhoto['mimeType'][];
}

/**
 * POST /api/entries/:id/photos: adds photos to one of the user's entries. A Vault entry takes only
 * photos sealed in the browser (with `sealed` fields); an entry the server reads takes only images it
 * can decode, except a Vault user's entry not sealed yet, which is sealed first.
 */
export async function addPhotos(ctx: AppContext, userId: string, entryId: string, uploads: readonly PhotoUpload[], sealedFields: SealedPhotoFields = {}): Promise<CachedEntry> {
  const entry = await findEntry(ctx.db, userId, entryId);
  if (!entry) throw notFound(messages.entries.entryNotFound);
  if (uploads.length === 0) throw invalidInput(messages.entries.noPhotos);
  if (sealedFields.photo_names) return addSealedPhotos(ctx, userId, entry, sealedPhotosOf(uploads, sealedFields.photo_names, sealedFields.photo_types));
  if (entry.sealed !== null) throw conflict(vaultMessages.errors.sealedPhotosOnly);
  checkPhotoRoom(uploads, await entryPhotoTotals(ctx.db, userId, entryId), false);
  const prepared = await preparePhotos(uploads);
  await writingPhotoFiles(ctx, (written) =>
    changeJournal(ctx, userId, async (trx) => {
      // Again, now that this user's writers take turns: two uploads at once must not pass 10.
      const now = await findEntry(trx, userId, entryId);
      if (!now) throw notFound(messages.entries.entryNotFound);
      if (now.sealed !== null) throw conflict(vaultMessages.errors.sealedPhotosOnly);
      await refusePlainWrite(trx, userId);
      checkPhotoRoom(uploads, await entryPhotoTotals(trx, userId, entryId), false);
      await savePhotos(ctx, trx, userId, entryId, prepared, written);
      await touchEntry(trx, userId, entryId, ctx.clock.now().toISOString());
      return { entryId };
    }),
  );
  return readEntry(ctx, userId, entryId);
}

async function addSealedPhotos(ctx: AppContext, userId: string, entry: JournalEntryRow, photos: readonly SealedPhoto[]): Promise<CachedEntry> {
  checkPhotoRoom(photos, await entryPhotoTotals(ctx.db, userId, entry.id), false);
  await sealBeforeSealedWrite(ctx, userId, entry);
  await writingPhotoFiles(ctx, (written) =>
    changeJournal(ctx, userId, async (trx) => {
      const now = await findEntry(trx, userId, entry.id);
      if (!now) throw notFound(messages.entries.entryNotFound);
      requireSealed(now);
      checkPhotoRoom(photos, await entryPhotoTotals(trx, userId, entry.id), false);
      await saveSealedPhotos(ctx, trx, userId, entry.id, photos, written);
      await touchEntry(trx, userId, entry.id, ctx.clock.now().toISOString());
      return { entryId: entry.id };
    }),
  );
  return readEntry(ctx, userId, entry.id);
}

/** DELETE /api/entries/:id/photos/:photoId: the files go first, then the record. */
export async function deletePhoto(ctx: AppContext, userId: string, entryId: string, photoId: string): Promise<void> {
  const photo = await findPhoto(ctx.db, userId, entryId, photoId);
  if (!photo) throw notFound(messages.entries.photoNotFound);
  await removePhotoFiles(ctx, [photo]);
  await changeJournal(ctx, userId, async (trx) => {
    await deletePhotoRow(trx, userId, photoId);
    await touchEntry(trx, userId, entryId, ctx.clock.now().toISOString());
    return { entryId };
  });
}

/** Removes every photo file of a user (before their account is deleted); returns the keys removed. */
export async function removeAllPhotoFiles(ctx: AppContext, userId: string): Promise<string[]> {
  const photos = await listPhotos(ctx.db, userId);
  await removePhotoFiles(ctx, photos);
  return photos.flatMap((p) => [p.file_path, p.thumb_path]);
}
