import { buffer } from 'node:stream/consumers';
import { decryptPhotoBytes, STORED_CONTENT_TYPE, encryptPhotoBytes } from '../at-rest/photo-files';
import type { AppContext } from '../context';

// An upload waits for its import in the photo store, which every instance shares, so any of them can
// take the job (or take it over after a crash). It is kept in parts, each encrypted with the owner's
// key like a photo: memory holds one part while it arrives, and reading one back costs little.

/** The size of every part but the last. */
export const PART_BYTES = 4 * 1024 * 1024;

export interface UploadRef {
  userId: string;
  importId: string;
  /** The owner's key salt. */
  salt: string;
}

const partKey = (ref: Omit<UploadRef, 'salt'>, index: number) => `${ref.userId}/imports/${ref.importId}/${String(index).padStart(5, '0')}.part`;

export async function storePart(ctx: AppContext, ref: UploadRef, index: number, bytes: Buffer): Promise<void> {
  await ctx.storage.put(partKey(ref, index), encryptPhotoBytes(ctx, ref.userId, ref.salt, bytes), STORED_CONTENT_TYPE);
}

export async function readPart(ctx: AppContext, ref: UploadRef, index: number): Promise<Buffer> {
  const stored = await ctx.storage.get(partKey(ref, index));
  if (!stored) throw new Error(`Part ${index} of the upload is missing`);
  return decryptPhotoBytes(ctx, ref.userId, ref.salt, await buffer(stored.stream));
}

/** Removes the upload's parts (once its import is over, or when it is refused). */
export async function deleteParts(ctx: AppContext, ref: Omit<UploadRef, 'salt'>, count: number): Promise<void> {
  const storage = ctx.storage;
  await Promise.all(Array.from({ length: count }, (_, i) => storage.delete(partKey(ref, i)).catch(() => undefined)));
}
