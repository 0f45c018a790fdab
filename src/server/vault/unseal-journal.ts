import { countWords } from '../../shared/journal';
import type { SealedEntry } from '../../shared/vault';
import { vaultMessages } from '../../shared/vault-messages';
import { SEALED_CONTENT_TYPE, sealFileName, sealPhotoBytes } from '../at-rest/photo-files';
import type { AppContext } from '../context';
import { conflict, invalidInput, notFound } from '../errors';
import { changeJournal } from '../journal/changes';
import { sealEntryText } from '../journal/entry-cipher';
import { ownerSalt } from '../journal/owner';
import { presentPhoto } from '../journal/present';
import { findEntry, listEntryPhotos } from '../journal/repo';
import { cleanFileName, detectImageFormat } from '../photos/images';
import { newPhotoKeys } from '../photos/keys';
import * as repo from './repo';
import type { OpenedEntriesInput } from './schemas';
import { deleteStaleFiles } from '../photos/service';
import { photosOfEntries, recordStaleFiles, updatePhotoFiles } from '../photos/repo';

// Turning the vault off: only the browser holds the private key, so it opens each sealed entry and
// sends it back; the server keeps it under its own key again (as before the vault).

const errors = vaultMessages.errors;

async function requireTurningOff(ctx: AppContext, userId: string) {
  const vault = await repo.findVault(ctx.db, userId);
  if (!vault) throw notFound(errors.off);
  if (vault.state !== 'unsealing') throw conflict(errors.notTurningOff);
  return vault;
}

/** GET /api/vault/sealed: the next sealed entries for the browser to open, with links to their sealed photos. */
export async function sealedBatch(ctx: AppContext, userId: string, limit: number): Promise<{ entries: SealedEntry[] }> {
  await requireTurningOff(ctx, userId);
  const rows = await repo.entriesToConvert(ctx.db, userId, true, limit);
  const photos = await photosOfEntries(ctx.db, userId, rows.map((r) => r.id));
  return {
    entries: rows.map((row) => ({
      id: row.id,
      entry_date: row.entry_date,
      source: row.source,
      created_at: row.created_at,
      updated_at: row.updated_at,
      sealed: JSON.parse(row.sealed!) as string[],
      photos: photos
        .filter((p) => p.entry_id === row.id)
        .map((p) => {
          const { url, thumbnail_url } = presentPhoto(ctx, p);
          return { id: p.id, file_name: p.file_name, mime_type: p.mime_type, url, thumbnail_url };
        }),
    })),
  };
}

type OpenedEntry = OpenedEntriesInput['entries'][number];

/** The opened photos, decoded and checked to be pictures, then stored under the server's key in new files. */
async function storeOpenedPhotos(ctx: AppContext, userId: string, salt: string, entry: OpenedEntry, written: string[]) {
  const stored = [];
  for (const photo of entry.photos) {
    const full = Buffer.from(photo.full, 'base64');
    const thumb = Buffer.from(photo.thumb, 'base64');
    const format = await detectImageFormat(full);
    if (!format || !(await detectImageFormat(thumb))) throw invalidInput(errors.photoInvalid);
    const ext = format === 'jpeg' ? 'jpg' : format;
    const keys = newPhotoKeys(userId, entry.id, ctx.clock.now(), ext);
    await ctx.storage.put(keys.file, sealPhotoBytes(ctx, userId, salt, full), SEALED_CONTENT_TYPE);
    written.push(keys.file);
    await ctx.storage.put(keys.thumb, sealPhotoBytes(ctx, userId, salt, thumb), SEALED_CONTENT_TYPE);
    written.push(keys.thumb);
    stored.push({ id: photo.id, fileName: cleanFileName(photo.file_name, ext), file: keys.file, thumb: keys.thumb, size: full.length });
  }
  return stored;
}

/**
 * POST /api/vault/opened: keeps what the browser opened under the server's key. An entry that got
 * another segment meanwhile (a text arrived), or whose photos changed, is skipped and comes back in
 * the next batch.
 */
export async function saveOpenedEntries(ctx: AppContext, userId: string, input: OpenedEntriesInput): Promise<{ opened: string[]; skipped: string[] }> {
  await requireTurningOff(ctx, userId);
  const salt = await ownerSalt(ctx, userId);
  const opened: string[] = [];
  const skipped: string[] = [];
  for (const entry of input.entries) {
    const before = await listEntryPhotos(ctx.db, userId, entry.id);
    if (before.length !== entry.photos.length || before.some((p) => !entry.photos.some((o) => o.id === p.id))) throw invalidInput(errors.photosMismatch);
    const written: string[] = [];
    try {
      const photos = await storeOpenedPhotos(ctx, userId, salt, entry, written);
      const done = await changeJournal(ctx, userId, async (trx) => {
        const vault = await repo.findVault(trx, userId);
        const row = await findEntry(trx, userId, entry.id);
        const photosNow = await listEntryPhotos(trx, userId, entry.id);
        const unchanged =
          vault?.state === 'unsealing' &&
          row?.sealed != null &&
          (JSON.parse(row.sealed) as string[]).length === entry.segments &&
          photosNow.length === before.length &&
          photosNow.every((p) => before.some((b) => b.id === p.id && b.file_path === p.file_path));
        if (!unchanged) return { entryId: '', done: false };
        const text = sealEntryText(ctx, userId, salt, { content: entry.content, title: entry.title, tags: entry.tags });
        await repo.unsealEntryRow(trx, userId, entry.id, { ...text, word_count: countWords(entry.content) });
        for (const photo of photos) {
          await updatePhotoFiles(trx, userId, photo.id, { file_path: photo.file, thumb_path: photo.thumb, file_name: sealFileName(ctx, userId, salt, photo.fileName) });
        }
        await recordStaleFiles(trx, userId, photosNow.flatMap((p) => [p.file_path, p.thumb_path]), ctx.clock.now().toISOString());
        return { entryId: entry.id, done: true };
      });
      if (done.done) opened.push(entry.id);
      else {
        skipped.push(entry.id);
        await Promise.all(written.map((key) => ctx.storage.delete(key).catch(() => undefined)));
      }
    } catch (error) {
      await Promise.all(written.map((key) => ctx.storage.delete(key).catch(() => undefined)));
      throw error;
    }
  }
  await deleteStaleFiles(ctx, userId);
  return { opened, skipped };
}
