import { extname } from 'node:path';
import type { Readable } from 'node:stream';
import type { AppContext } from '../context';
import type { JournalPhotoRow } from '../db/tables';
import { loadOwner } from '../journal/owner';

/**
 * Photo files at rest (local disk or S3) are encrypted with the owner's key (AES-256-GCM, the key the
 * journal text uses): MAGIC | master key id | iv | ciphertext | tag. Files without the magic are
 * served as they are. The storage key starts with the owner's user id (photos/keys.ts).
 */
const MAGIC = Buffer.from('JLPHOTO2', 'latin1');

/** What encryption adds to a photo's size: MAGIC, the 8-character key id, a 12-byte IV and a 16-byte tag. */
export const ENCRYPTED_OVERHEAD_BYTES = MAGIC.length + 8 + 12 + 16;

/** Stored objects are opaque bytes: the type is not kept beside them. */
export const STORED_CONTENT_TYPE = 'application/octet-stream';

const CONTENT_TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  // Voice recordings (voice/recordings.ts), kept the same way: the key's extension is the type the audio decoded as.
  '.amr': 'audio/amr',
  '.3gp': 'audio/3gpp',
  '.m4a': 'audio/mp4',
  '.aac': 'audio/aac',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.wav': 'audio/wav',
  '.webm': 'audio/webm',
};

const startsWith = (bytes: Buffer, magic: Buffer) => bytes.length > magic.length && bytes.subarray(0, magic.length).equals(magic);

export function isEncryptedPhoto(bytes: Buffer): boolean {
  return startsWith(bytes, MAGIC);
}

/** The id of the master key an encrypted photo names; null for one that is not encrypted. */
export function photoKeyId(ctx: AppContext, bytes: Buffer): string | null {
  return startsWith(bytes, MAGIC) ? ctx.cipher.keyIdOfBytes(bytes.subarray(MAGIC.length)) : null;
}

export function encryptPhotoBytes(ctx: AppContext, userId: string, salt: string, plain: Buffer): Buffer {
  return Buffer.concat([MAGIC, ctx.cipher.encryptBytes(userId, salt, plain)]);
}

/** The photo's bytes: decrypted when encrypted, as stored when written before photos were encrypted. */
export function decryptPhotoBytes(ctx: AppContext, userId: string, salt: string, stored: Buffer): Buffer {
  if (startsWith(stored, MAGIC)) return ctx.cipher.decryptBytes(userId, salt, stored.subarray(MAGIC.length));
  return stored;
}

/** File names are encrypted like titles; a name stored before that is read as it is. */
export const encryptFileName = (ctx: AppContext, userId: string, salt: string, name: string) => ctx.cipher.encrypt(userId, salt, name);

/** Photo rows as the journal shows them: file names readable. */
export function decryptPhotoRows(ctx: AppContext, userId: string, salt: string, rows: JournalPhotoRow[]): JournalPhotoRow[] {
  return rows.map((row) => (row.file_name.startsWith('ENC:') ? { ...row, file_name: ctx.cipher.decrypt(userId, salt, row.file_name) } : row));
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Reads and decrypts a stored photo or thumbnail by its storage key; null when there is none. */
export async function readPhotoFile(ctx: AppContext, key: string): Promise<{ bytes: Buffer; contentType: string } | null> {
  const stored = await ctx.storage.get(key);
  if (!stored) return null;
  const raw = await readAll(stored.stream);
  const userId = key.split('/')[0]!;
  const bytes = isEncryptedPhoto(raw) ? decryptPhotoBytes(ctx, userId, (await loadOwner(ctx, userId)).salt, raw) : raw;
  return { bytes, contentType: CONTENT_TYPES[extname(key).toLowerCase()] ?? stored.contentType };
}
