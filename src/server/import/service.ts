import { createHmac } from 'node:crypto';
import { countWords, PHOTOS_PER_ENTRY_MAX, PHOTOS_PER_ENTRY_MAX_BYTES } from '../../shared/journal';
import { RATE_WINDOW_MS } from '../../shared/limits';
import { messages } from '../../shared/messages';
import type { AppContext } from '../context';
import type { Db } from '../db/database';
import { rateLimited } from '../errors';
import { newId } from '../ids';
import { sealEntryText } from '../journal/entry-cipher';
import { loadOwner } from '../journal/owner';
import { bumpRevision, insertEntry } from '../journal/repo';
import { cleanFileName, prepareImage } from '../photos/images';
import { savePhotos, writingPhotoFiles, type PreparedPhoto } from '../photos/service';
import { hit, rateLimitKey } from '../rate-limit';
import { parseImportFile } from './parse';
import * as repo from './repo';
import type { ImportedEntry } from './types';

/** POST /api/import's answer. */
export interface ImportResult {
  /** Entries added to the journal. */
  imported: number;
  /** Entries already in the journal (imported before), repeated in the file, or empty. */
  skipped: number;
  /** Photos left out: not an image we keep (HEIC, video…), or past an entry's 10 photos / 10 MB. */
  photos_skipped: number;
}

export const IMPORTS_PER_WINDOW = 10;

/** A keyed hash of where an entry came from: the stored fingerprint says nothing about the entry. */
function fingerprintOf(ctx: AppContext, userId: string, origin: string): string {
  return createHmac('sha256', ctx.keys.storedHashes).update(`import:${userId}:${origin}`).digest('base64url');
}

/** Decodes an entry's photos (EXIF and all other metadata dropped) and keeps those that fit in an entry. */
async function preparePhotosThatFit(entry: ImportedEntry): Promise<{ photos: PreparedPhoto[]; left: number }> {
  const photos: PreparedPhoto[] = [];
  let bytes = 0;
  let left = 0;
  for (const file of entry.photos) {
    const image = photos.length < PHOTOS_PER_ENTRY_MAX ? await prepareImage(file.bytes) : null;
    if (!image || bytes + image.full.length > PHOTOS_PER_ENTRY_MAX_BYTES) {
      left += 1;
      continue;
    }
    bytes += image.full.length;
    photos.push({ ...image, fileName: cleanFileName(file.fileName, image.ext) });
  }
  return { photos, left };
}

interface Candidate {
  entry: ImportedEntry;
  fingerprint: string;
}

/** The entries not yet in the journal (by fingerprint, or by id for our own export), first of each kind. */
async function newEntries(db: Db, userId: string, candidates: readonly Candidate[]): Promise<Candidate[]> {
  const known = await repo.knownFingerprints(db, userId, candidates.map((c) => c.fingerprint));
  const ids = candidates.flatMap((c) => (c.entry.originalId ? [c.entry.originalId] : []));
  const own = await repo.existingEntryIds(db, userId, ids);
  const seen = new Set<string>();
  return candidates.filter((c) => {
    if (known.has(c.fingerprint) || seen.has(c.fingerprint) || (c.entry.originalId && own.has(c.entry.originalId))) return false;
    seen.add(c.fingerprint);
    return true;
  });
}

/**
 * POST /api/import: adds the entries of an export file to the user's journal, all or nothing, in one
 * transaction (photo files written before a failure are removed again). Entries are encrypted like
 * any other; an entry imported before (same fingerprint) is skipped, so the same file imports once.
 * Needs sign-in only, like export: a user whose access ended may still bring their journal in.
 */
export async function importJournal(ctx: AppContext, userId: string, file: Buffer): Promise<ImportResult> {
  if (!(await hit(ctx, rateLimitKey('import', userId), { limit: IMPORTS_PER_WINDOW, windowMs: RATE_WINDOW_MS }))) {
    throw rateLimited(messages.importer.rateLimited);
  }
  const owner = await loadOwner(ctx, userId);
  const { entries } = parseImportFile(file, owner.timezone);
  const candidates = entries.map((entry) => ({ entry, fingerprint: fingerprintOf(ctx, userId, entry.origin) }));

  // Photos of entries already imported are not decoded again.
  const fresh = await newEntries(ctx.db, userId, candidates);
  let photosSkipped = 0;
  const prepared = new Map<string, PreparedPhoto[]>();
  for (const { entry, fingerprint } of fresh) {
    if (entry.photos.length === 0) continue;
    const { photos, left } = await preparePhotosThatFit(entry);
    prepared.set(fingerprint, photos);
    photosSkipped += left;
  }

  const now = ctx.clock.now().toISOString();
  let imported = 0;
  await writingPhotoFiles(ctx, (written) =>
    ctx.db.transaction().execute(async (trx) => {
      // First: on PostgreSQL this user's writers (another import of the same file) now take turns.
      await bumpRevision(trx, userId);
      const adding = await newEntries(trx, userId, fresh);
      const smsTaken = await repo.smsDays(trx, userId, [...new Set(adding.filter((c) => c.entry.source === 'sms').map((c) => c.entry.entryDate))]);
      for (const { entry, fingerprint } of adding) {
        const photos = prepared.get(fingerprint) ?? [];
        if (entry.content === '' && photos.length === 0) continue;
        // The journal holds one SMS entry a day: a second one for a day comes in as a web entry.
        const source = entry.source === 'sms' && !smsTaken.has(entry.entryDate) ? 'sms' : 'web';
        if (source === 'sms') smsTaken.add(entry.entryDate);
        const entryId = newId();
        await insertEntry(trx, {
          id: entryId,
          user_id: userId,
          ...sealEntryText(ctx, userId, owner.salt, entry),
          source,
          entry_date: entry.entryDate,
          word_count: countWords(entry.content),
          created_at: entry.createdAt,
          updated_at: entry.updatedAt,
        });
        await repo.recordImport(trx, { user_id: userId, fingerprint, entry_id: entryId, imported_at: now });
        if (photos.length) await savePhotos(ctx, trx, userId, entryId, photos, written);
        imported += 1;
      }
    }),
  );
  if (imported > 0) {
    // Many entries changed at once: the in-memory copy reloads on the next read.
    ctx.journalCache.forget(userId);
    ctx.events.publish(userId, { type: 'entries.changed' });
  }
  return { imported, skipped: entries.length - imported, photos_skipped: photosSkipped };
}
