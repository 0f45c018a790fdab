import { PHOTO_MAX_BYTES, PHOTOS_PER_ENTRY_MAX, PHOTOS_PER_ENTRY_MAX_BYTES } from '../../shared/journal';
import { STORED_CONTENT_TYPE, encryptFileName, encryptPhotoBytes } from '../at-rest/photo-files';
import type { AppContext } from '../context';
import type { JournalPhotoRow } from '../db/tables';
import { newId } from '../ids';
import { cleanFileName, prepareImage } from '../photos/images';
import { newPhotoKeys } from '../photos/keys';
import type { PreparedPhoto } from '../photos/service';
import type { ImportReader } from './reader/client';
import type { ImportedPhoto } from '../../shared/import/types';

/** A photo of the file on its way into an entry, or why it stays out. */
type PhotoOutcome = { photo: ImportedPhoto; prepared: PreparedPhoto } | { photo: ImportedPhoto; left: 'photo_unsupported' | 'photo_over_limit' };

// Unpacked and decoded this many at a time: a batch's photos are never all in memory at once, and
// sharp leaves threads of libuv's pool (four) to the requests that need one meanwhile.
const FILES_AT_ONCE = 2;

/**
 * Unpacks and decodes the photos wanted (metadata stripped, thumbnails made: photos/images.ts),
 * keeping those that fit their entry beside the photos it has (`has`: count and bytes by entry key).
 */
export async function preparePhotos(
  reader: Pick<ImportReader, 'files'>,
  wanted: ReadonlyArray<{ key: string; photo: ImportedPhoto }>,
  has: Map<string, { count: number; bytes: number }>,
): Promise<Map<ImportedPhoto, PhotoOutcome>> {
  const outcomes = new Map<ImportedPhoto, PhotoOutcome>();
  for (let i = 0; i < wanted.length; i += FILES_AT_ONCE) {
    const group = wanted.slice(i, i + FILES_AT_ONCE);
    const files = await reader.files(group.map((w) => w.photo.path!), PHOTO_MAX_BYTES);
    // Decoded side by side (sharp works in its own threads), then fitted into their entries in order.
    const images = await Promise.all(
      group.map(({ photo }) => {
        const bytes = files.get(photo.path!);
        return bytes && bytes !== 'too-large' ? prepareImage(bytes) : null;
      }),
    );
    for (const [index, { key, photo }] of group.entries()) {
      const totals = has.get(key) ?? { count: 0, bytes: 0 };
      has.set(key, totals);
      if (files.get(photo.path!) === 'too-large' || totals.count >= PHOTOS_PER_ENTRY_MAX) {
        outcomes.set(photo, { photo, left: 'photo_over_limit' });
        continue;
      }
      const image = images[index];
      if (!image) outcomes.set(photo, { photo, left: 'photo_unsupported' });
      else if (totals.bytes + image.full.length > PHOTOS_PER_ENTRY_MAX_BYTES) outcomes.set(photo, { photo, left: 'photo_over_limit' });
      else {
        totals.count += 1;
        totals.bytes += image.full.length;
        outcomes.set(photo, { photo, prepared: { ...image, fileName: cleanFileName(photo.fileName, image.ext) } });
      }
    }
  }
  return outcomes;
}

/** Stores a photo's files, encrypted with the owner's key, and answers its row (position to be set). */
export async function storePhotoFiles(ctx: AppContext, owner: { userId: string; salt: string }, entryId: string, photo: PreparedPhoto, written: string[]): Promise<JournalPhotoRow> {
  const now = ctx.clock.now();
  const keys = newPhotoKeys(owner.userId, entryId, now, photo.ext);
  await ctx.storage.put(keys.file, encryptPhotoBytes(ctx, owner.userId, owner.salt, photo.full), STORED_CONTENT_TYPE);
  written.push(keys.file);
  await ctx.storage.put(keys.thumb, encryptPhotoBytes(ctx, owner.userId, owner.salt, photo.thumb), STORED_CONTENT_TYPE);
  written.push(keys.thumb);
  return {
    id: newId(),
    entry_id: entryId,
    user_id: owner.userId,
    file_path: keys.file,
    thumb_path: keys.thumb,
    file_name: encryptFileName(ctx, owner.userId, owner.salt, photo.fileName),
    file_size: photo.full.length,
    mime_type: photo.mimeType,
    position: 0,
    created_at: now.toISOString(),
  };
}
