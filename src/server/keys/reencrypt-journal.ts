import type { Readable } from 'node:stream';
import { isEncryptedPhoto, decryptPhotoBytes, photoKeyId, STORED_CONTENT_TYPE, encryptPhotoBytes } from '../at-rest/photo-files';
import type { AppContext } from '../context';
import type { Db } from '../db/database';
import { reencryptValue } from './reencrypt-value';

/** What a rotation run re-encrypted, and what no configured key could decrypt (left as it was). */
export interface RotationCounts {
  users: number;
  entries: number;
  photoNames: number;
  photoFiles: number;
  messages: number;
  /** The service's own secrets (keys/encrypted-secrets.ts). */
  secrets: number;
  unreadable: number;
}

export const emptyCounts = (): RotationCounts => ({ users: 0, entries: 0, photoNames: 0, photoFiles: 0, messages: 0, secrets: 0, unreadable: 0 });

/** A write that lost to a concurrent change is read again and retried, this many times at most. */
const ATTEMPTS = 5;

interface Owner {
  userId: string;
  salt: string;
}

/** Re-encrypts one entry's content, title and tags; false when the row changed under us (retry). */
async function reencryptEntry(ctx: AppContext, trx: Db, owner: Owner, entryId: string, counts: RotationCounts): Promise<boolean> {
  const row = await trx.selectFrom('journal_entries').select(['content', 'title', 'tags']).where('id', '=', entryId).where('user_id', '=', owner.userId).executeTakeFirst();
  if (!row) return true;
  const fields = { content: row.content, title: row.title, tags: row.tags };
  const changes: Partial<typeof fields> = {};
  let unreadable = 0;
  for (const name of ['content', 'title', 'tags'] as const) {
    const result = reencryptValue(ctx.cipher, owner.userId, owner.salt, fields[name]);
    if (result.kind === 'reencrypted') changes[name] = result.value;
    if (result.kind === 'unreadable') unreadable += 1;
  }
  if (Object.keys(changes).length === 0) {
    counts.unreadable += unreadable;
    return true;
  }
  // Compare-and-set: an edit made meanwhile (already under the new key) wins. Not an edit: updated_at stays.
  const updated = await trx
    .updateTable('journal_entries')
    .set(changes)
    .where('id', '=', entryId)
    .where('content', '=', row.content)
    .where('tags', '=', row.tags)
    .where((eb) => (row.title === null ? eb('title', 'is', null) : eb('title', '=', row.title)))
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) return false;
  counts.entries += 1;
  counts.unreadable += unreadable;
  return true;
}

async function reencryptPhotoName(ctx: AppContext, trx: Db, owner: Owner, photoId: string, counts: RotationCounts): Promise<boolean> {
  const row = await trx.selectFrom('journal_photos').select(['file_name']).where('id', '=', photoId).where('user_id', '=', owner.userId).executeTakeFirst();
  if (!row) return true;
  const result = reencryptValue(ctx.cipher, owner.userId, owner.salt, row.file_name);
  if (result.kind === 'unreadable') counts.unreadable += 1;
  if (result.kind !== 'reencrypted') return true;
  const updated = await trx
    .updateTable('journal_photos')
    .set({ file_name: result.value })
    .where('id', '=', photoId)
    .where('file_name', '=', row.file_name)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) return false;
  counts.photoNames += 1;
  return true;
}

/** Walks a user's rows of one table in id order, a transaction per batch. */
async function reencryptRows(
  ctx: AppContext,
  table: 'journal_entries' | 'journal_photos',
  owner: Owner,
  batchSize: number,
  reencrypt: (trx: Db, id: string) => Promise<boolean>,
): Promise<void> {
  let after = '';
  for (;;) {
    const ids = (
      await ctx.db.selectFrom(table).select('id').where('user_id', '=', owner.userId).where('id', '>', after).orderBy('id').limit(batchSize).execute()
    ).map((row) => row.id);
    if (ids.length === 0) return;
    after = ids.at(-1)!;
    await ctx.db.transaction().execute(async (trx) => {
      for (const id of ids) {
        let attempts = 0;
        while (!(await reencrypt(trx, id))) {
          if (++attempts >= ATTEMPTS) throw new Error(`A row kept changing while it was re-encrypted (${table} ${id}); run the command again`);
        }
      }
    });
  }
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Re-encrypts a photo file in place: the new object replaces the old whole (storage `replace`), so a
 * crash leaves the old, still readable one. A photo deleted meanwhile is not brought back.
 */
async function reencryptPhotoFile(ctx: AppContext, owner: Owner, photoId: string, key: string, counts: RotationCounts): Promise<void> {
  const stored = await ctx.storage.get(key);
  if (!stored) return;
  const bytes = await readAll(stored.stream);
  if (!isEncryptedPhoto(bytes) || photoKeyId(ctx, bytes) === ctx.cipher.keyId) return;
  let plain: Buffer;
  try {
    plain = decryptPhotoBytes(ctx, owner.userId, owner.salt, bytes);
  } catch {
    counts.unreadable += 1;
    return;
  }
  await ctx.storage.replace(key, encryptPhotoBytes(ctx, owner.userId, owner.salt, plain), STORED_CONTENT_TYPE);
  const stillThere = await ctx.db.selectFrom('journal_photos').select('id').where('id', '=', photoId).executeTakeFirst();
  if (!stillThere) await ctx.storage.delete(key);
  else counts.photoFiles += 1;
}

/** Re-encrypts everything of one user under the current key: entries, photo names, photo files. */
export async function reencryptJournal(ctx: AppContext, owner: Owner, batchSize: number, counts: RotationCounts): Promise<void> {
  await reencryptRows(ctx, 'journal_entries', owner, batchSize, (trx, id) => reencryptEntry(ctx, trx, owner, id, counts));
  await reencryptRows(ctx, 'journal_photos', owner, batchSize, (trx, id) => reencryptPhotoName(ctx, trx, owner, id, counts));
  let after = '';
  for (;;) {
    const photos = await ctx.db
      .selectFrom('journal_photos')
      .select(['id', 'file_path', 'thumb_path'])
      .where('user_id', '=', owner.userId)
      .where('id', '>', after)
      .orderBy('id')
      .limit(batchSize)
      .execute();
    if (photos.length === 0) return;
    after = photos.at(-1)!.id;
    for (const photo of photos) {
      await reencryptPhotoFile(ctx, owner, photo.id, photo.file_path, counts);
      await reencryptPhotoFile(ctx, owner, photo.id, photo.thumb_path, counts);
    }
  }
}
