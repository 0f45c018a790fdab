import { extname } from 'node:path';
import type { Readable } from 'node:stream';
import type { AppContext } from '../context';
import type { JournalPhotoRow } from '../db/tables';
import { loadOwner } from '../journal/owner';

/**
 * Photo files at rest (local disk or S3) are sealed with the owner's key (AES-256-GCM, the key the
 * journal text uses): MAGIC | iv | ciphertext | tag. Files written before this have no MAGIC and
 * are served as they are. The storage key starts with the owner's user id (photos/keys.ts).
 */
const MAGIC = Buffer.from('JLPHOTO1', 'latin1');

/** What sealing adds to a photo's size: MAGIC, a 12-byte IV and a 16-byte tag. */
export const SEALED_OVERHEAD_BYTES = MAGIC.length + 12 + 16;

/** Stored objects are opaque bytes: the type is not kept beside them. */
export const SEALED_CONTENT_TYPE = 'application/octet-stream';

const CONTENT_TYPES: Record<string, string> = { '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.png': 'image/png', '.gif': 'image/gif', '.webp': 'image/webp' };

export function isSealedPhoto(bytes: Buffer): boolean {
  return bytes.length > MAGIC.length && bytes.subarray(0, MAGIC.length).equals(MAGIC);
}

export function sealPhotoBytes(ctx: AppContext, userId: string, salt: string, plain: Buffer): Buffer {
  return Buffer.concat([MAGIC, ctx.cipher.encryptBytes(userId, salt, plain)]);
}

/** The photo's bytes: opened when sealed, as stored when written before photos were sealed. */
export function openPhotoBytes(ctx: AppContext, userId: string, salt: string, stored: Buffer): Buffer {
  return isSealedPhoto(stored) ? ctx.cipher.decryptBytes(userId, salt, stored.subarray(MAGIC.length)) : stored;
}

/** File names are encrypted like titles; a name stored before that is read as it is. */
export const sealFileName = (ctx: AppContext, userId: string, salt: string, name: string) => ctx.cipher.encrypt(userId, salt, name);

/** Photo rows as the journal shows them: file names readable. */
export function openPhotoRows(ctx: AppContext, userId: string, salt: string, rows: JournalPhotoRow[]): JournalPhotoRow[] {
  return rows.map((row) => (row.file_name.startsWith('ENC:') ? { ...row, file_name: ctx.cipher.decrypt(userId, salt, row.file_name) } : row));
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Reads and opens a stored photo or thumbnail by its storage key; null when there is none. */
export async function readPhotoFile(ctx: AppContext, key: string): Promise<{ bytes: Buffer; contentType: string } | null> {
  const stored = await ctx.storage.get(key);
  if (!stored) return null;
  const raw = await readAll(stored.stream);
  const userId = key.split('/')[0]!;
  const bytes = isSealedPhoto(raw) ? openPhotoBytes(ctx, userId, (await loadOwner(ctx, userId)).salt, raw) : raw;
  return { bytes, contentType: CONTENT_TYPES[extname(key).toLowerCase()] ?? stored.contentType };
}
