import { messages } from '../../shared/messages';
import { vaultMessages } from '../../shared/vault-messages';
import type { AppContext } from '../context';
import type { JournalEntryRow } from '../db/tables';
import { conflict, invalidInput, notFound } from '../errors';
import { deletePhotoRow, entryPhotoTotals, findPhoto } from '../photos/repo';
import { sealedPhotosOf, type SealedPhoto } from '../photos/sealed-uploads';
import { checkPhotoRoom, preparePhotos, removePhotoFiles, savePhotos, saveSealedPhotos, writingPhotoFiles } from '../photos/service';
import type { PhotoUpload } from '../photos/uploads';
import type { CachedEntry } from './cache';
import { changeJournal } from './changes';
import { readEntry } from './read-entry';
import { findEntry, listPhotos, touchEntry } from './repo';
import { sealEntryFirst } from './seal-entries';

// An entry's photos added and removed: each change through the journal's one write path.

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
  // Refused before any photo is decoded; the change asks the entry's words again.
  if (entry.sealed !== null) throw conflict(vaultMessages.errors.sealedPhotosOnly);
  checkPhotoRoom(uploads, await entryPhotoTotals(ctx.db, userId, entryId), false);
  const prepared = await preparePhotos(uploads);
  await writingPhotoFiles(ctx, (written) =>
    changeJournal(ctx, userId, async (trx, _revision, words) => {
      // Again, now that this user's writers take turns: two uploads at once must not pass 10.
      const now = await findEntry(trx, userId, entryId);
      if (!now) throw notFound(messages.entries.entryNotFound);
      const codec = words.readableEntry(now, vaultMessages.errors.sealedPhotosOnly);
      checkPhotoRoom(uploads, await entryPhotoTotals(trx, userId, entryId), false);
      await savePhotos(ctx, trx, userId, entryId, prepared, written, codec);
      await touchEntry(trx, userId, entryId, ctx.clock.now().toISOString());
      return { entryId };
    }),
  );
  return readEntry(ctx, userId, entryId);
}

async function addSealedPhotos(ctx: AppContext, userId: string, entry: JournalEntryRow, photos: readonly SealedPhoto[]): Promise<CachedEntry> {
  checkPhotoRoom(photos, await entryPhotoTotals(ctx.db, userId, entry.id), false);
  await sealEntryFirst(ctx, userId, entry);
  await writingPhotoFiles(ctx, (written) =>
    changeJournal(ctx, userId, async (trx, _revision, words) => {
      const now = await findEntry(trx, userId, entry.id);
      if (!now) throw notFound(messages.entries.entryNotFound);
      words.requireSealed(now);
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
