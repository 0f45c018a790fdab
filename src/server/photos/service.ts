import {
  PHOTO_MAX_BYTES,
  PHOTOS_PER_ENTRY_MAX,
  PHOTOS_PER_ENTRY_MAX_BYTES,
  photosTooLargeMessage,
  photosWouldExceedMessage,
} from '../../shared/journal';
import { messages } from '../../shared/messages';
import { STORED_CONTENT_TYPE } from '../at-rest/photo-files';
import type { AppContext } from '../context';
import type { Db } from '../db/database';
import type { JournalPhotoRow } from '../db/tables';
import { AppError, invalidInput } from '../errors';
import { newId } from '../ids';
import type { EntryCodec } from '../journal/words';
import { cleanFileName, hasTooManyPixels, prepareImage, type PreparedImage } from './images';
import { newPhotoKeys } from './keys';
import { forgetStaleFiles, insertPhotos, nextPhotoPosition, staleFiles } from './repo';
import type { SealedPhoto } from './sealed-uploads';
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

/** A photo as it is kept: its files and name encrypted with the server's key, or sealed to a Vault's public key. */
interface PhotoToStore {
  full: Buffer;
  thumb: Buffer;
  fileName: string;
  size: number;
  mimeType: string;
  ext: string;
}

async function storePhotos(ctx: AppContext, trx: Db, userId: string, entryId: string, photos: readonly PhotoToStore[], written: string[]): Promise<string[]> {
  const storage = ctx.storage;
  const now = ctx.clock.now();
  const rows: JournalPhotoRow[] = [];
  let position = await nextPhotoPosition(trx, userId, entryId);
  for (const photo of photos) {
    const keys = newPhotoKeys(userId, entryId, now, photo.ext);
    await storage.put(keys.file, photo.full, STORED_CONTENT_TYPE);
    written.push(keys.file);
    await storage.put(keys.thumb, photo.thumb, STORED_CONTENT_TYPE);
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
  return rows.map((row) => row.id);
}

/**
 * Stores prepared photos (full image and thumbnail) and records them, inside the caller's
 * transaction. Files and file names are kept as the entry's codec keeps them (journal/words):
 * encrypted with the owner's key, or, for a Vault entry, sealed to the Vault's public key. Answers
 * the new photos' ids.
 */
export async function savePhotos(
  ctx: AppContext,
  trx: Db,
  userId: string,
  entryId: string,
  photos: readonly PreparedPhoto[],
  written: string[],
  codec: Pick<EntryCodec, 'photo'>,
): Promise<string[]> {
  if (photos.length === 0) return [];
  const stored: PhotoToStore[] = [];
  for (const photo of photos) stored.push({ ...photo, ...(await codec.photo(photo)), size: photo.full.length });
  return storePhotos(ctx, trx, userId, entryId, stored, written);
}

/** Stores a Vault entry's photos as the browser sealed them, inside the caller's transaction. */
export async function saveSealedPhotos(ctx: AppContext, trx: Db, userId: string, entryId: string, photos: readonly SealedPhoto[], written: string[]): Promise<void> {
  await storePhotos(ctx, trx, userId, entryId, photos, written);
}

export async function removePhotoFiles(ctx: AppContext, photos: readonly Pick<JournalPhotoRow, 'file_path' | 'thumb_path'>[]): Promise<void> {
  const storage = ctx.storage;
  await Promise.all(photos.flatMap((p) => [storage.delete(p.file_path), storage.delete(p.thumb_path)]));
}

/** Deletes the photo files that sealed or opened copies replaced; a failure leaves them listed for next time. */
export async function deleteStaleFiles(ctx: AppContext, userId: string): Promise<void> {
  const keys = await staleFiles(ctx.db, userId);
  const deleted: string[] = [];
  await Promise.all(
    keys.map(async (key) => {
      try {
        await ctx.storage.delete(key);
        deleted.push(key);
      } catch {
        // Listed still: the next step (or the finish) tries again.
      }
    }),
  );
  await forgetStaleFiles(ctx.db, userId, deleted);
}

/** Deleting an account: the replaced photo files still listed go too (the list goes with the account). */
export async function removeStaleFiles(ctx: AppContext, userId: string): Promise<void> {
  const keys = await staleFiles(ctx.db, userId);
  await Promise.all(keys.map((key) => ctx.storage.delete(key)));
}
