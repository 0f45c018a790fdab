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
import type { JournalPhotoRow } from '../db/tables';
import { AppError, invalidInput, notFound } from '../errors';
import { newId } from '../ids';
import type { CachedEntry } from '../journal/cache';
import { changeJournal } from '../journal/changes';
import { readEntry } from '../journal/read-entry';
import { findEntry, listPhotos, touchEntry } from '../journal/repo';
import { cleanFileName, hasTooManyPixels, prepareImage, type PreparedImage } from './images';
import { newPhotoKeys } from './keys';
import { deletePhotoRow, entryPhotoTotals, findPhoto, insertPhotos, nextPhotoPosition } from './repo';
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

/**
 * Stores prepared photos (full image and thumbnail) and records them, inside the caller's
 * transaction. Files and file names are encrypted with the owner's key (at-rest/photo-files.ts).
 */
export async function savePhotos(ctx: AppContext, trx: Db, userId: string, entryId: string, photos: readonly PreparedPhoto[], written: string[]): Promise<void> {
  const storage = ctx.storage;
  const now = ctx.clock.now();
  const salt = photos.length ? await ownerSaltIn(ctx, trx, userId) : '';
  const rows: JournalPhotoRow[] = [];
  let position = await nextPhotoPosition(trx, userId, entryId);
  for (const photo of photos) {
    const keys = newPhotoKeys(userId, entryId, now, photo.ext);
    await storage.put(keys.file, sealPhotoBytes(ctx, userId, salt, photo.full), SEALED_CONTENT_TYPE);
    written.push(keys.file);
    await storage.put(keys.thumb, sealPhotoBytes(ctx, userId, salt, photo.thumb), SEALED_CONTENT_TYPE);
    written.push(keys.thumb);
    rows.push({
      id: newId(),
      entry_id: entryId,
      user_id: userId,
      file_path: keys.file,
      thumb_path: keys.thumb,
      file_name: sealFileName(ctx, userId, salt, photo.fileName),
      file_size: photo.full.length,
      mime_type: photo.mimeType,
      position: position++,
      created_at: now.toISOString(),
    });
  }
  await insertPhotos(trx, rows);
}

/** The owner's key salt, read in the caller's transaction (SQLite has one connection: ctx.db would wait on it). */
async function ownerSaltIn(ctx: AppContext, trx: Db, userId: string): Promise<string> {
  const { key_salt: salt } = await trx.selectFrom('profiles').select('key_salt').where('id', '=', userId).executeTakeFirstOrThrow();
  await ctx.cipher.prepare(userId, salt);
  return salt;
}

export async function removePhotoFiles(ctx: AppContext, photos: readonly Pick<JournalPhotoRow, 'file_path' | 'thumb_path'>[]): Promise<void> {
  const storage = ctx.storage;
  await Promise.all(photos.flatMap((p) => [storage.delete(p.file_path), storage.delete(p.thumb_path)]));
}

/** POST /api/entries/:id/photos: adds photos to one of the user's entries. */
export async function addPhotos(ctx: AppContext, userId: string, entryId: string, uploads: readonly PhotoUpload[]): Promise<CachedEntry> {
  if (!(await findEntry(ctx.db, userId, entryId))) throw notFound(messages.entries.entryNotFound);
  if (uploads.length === 0) throw invalidInput(messages.entries.noPhotos);
  checkPhotoRoom(uploads, await entryPhotoTotals(ctx.db, userId, entryId), false);
  const prepared = await preparePhotos(uploads);
  await writingPhotoFiles(ctx, (written) =>
    changeJournal(ctx, userId, async (trx) => {
      // Again, now that this user's writers take turns: two uploads at once must not pass 10.
      if (!(await findEntry(trx, userId, entryId))) throw notFound(messages.entries.entryNotFound);
      checkPhotoRoom(uploads, await entryPhotoTotals(trx, userId, entryId), false);
      await savePhotos(ctx, trx, userId, entryId, prepared, written);
      await touchEntry(trx, userId, entryId, ctx.clock.now().toISOString());
      return { entryId };
    }),
  );
  return readEntry(ctx, userId, entryId);
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
