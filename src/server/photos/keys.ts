import { randomBytes } from 'node:crypto';

/** Storage keys of a new photo: `user/entry/timestamp-rand.ext` and its thumbnail beside it. */
export function newPhotoKeys(userId: string, entryId: string, now: Date, ext: string): { file: string; thumb: string } {
  const stem = `${userId}/${entryId}/${now.getTime()}-${randomBytes(8).toString('hex')}`;
  return { file: `${stem}.${ext}`, thumb: `${stem}.thumb.webp` };
}

/** The thumbnail's key for a photo's key (links name the photo; the variant picks the file). */
export function thumbKeyOf(fileKey: string): string {
  return fileKey.replace(/\.[A-Za-z0-9]+$/, '.thumb.webp');
}
