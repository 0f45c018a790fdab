import { ENTRY_CONTENT_MAX, type CreateEntryInput, type UpdateEntryInput } from '../../shared/journal';
import { messages } from '../../shared/messages';
import type { AppContext } from '../context';
import type { Db } from '../db/database';
import { vaultMessages } from '../../shared/vault-messages';
import { invalidInput, notFound } from '../errors';
import { newId } from '../ids';
import { celebrateMilestones } from '../milestones/service';
import { entryPhotoTotals } from '../photos/repo';
import { sealedPhotosOf } from '../photos/sealed-uploads';
import { checkPhotoRoom, preparePhotos, removePhotoFiles, savePhotos, saveSealedPhotos, writingPhotoFiles } from '../photos/service';
import type { PhotoUpload } from '../photos/uploads';
import { removeRecordingFiles } from '../voice/recordings';
import { listEntryRecordings } from '../voice/repo';
import type { CachedEntry } from './cache';
import { changeJournal } from './changes';
import { isCalendarDay, localDate } from './dates';
import { loadOwner } from './owner';
import * as repo from './repo';
import { readEntry } from './read-entry';
import { sealEntryFirst } from './seal-entries';

/** How long a new entry's `Idempotency-Key` answers the entry it made (DESIGN 6). */
const ENTRY_KEY_MS = 24 * 60 * 60 * 1000;

/** Another save with the same key made its entry first: this one rolls back and answers that entry. */
class KeyTaken extends Error {}

/**
 * POST /api/entries: a web entry for today (in the user's timezone) or the day given, with any photos.
 * With an `Idempotency-Key`, a save repeated within 24 hours (a double click, a retry after a lost
 * answer) answers the entry the first one made and writes nothing.
 */
export async function createEntry(
  ctx: AppContext,
  userId: string,
  input: CreateEntryInput,
  uploads: readonly PhotoUpload[] = [],
  idempotencyKey?: string,
): Promise<CachedEntry> {
  const key = idempotencyKey === undefined ? undefined : { userId, key: idempotencyKey };
  if (key) {
    const earlier = await keyedEntry(ctx, key);
    if (earlier) return earlier;
  }
  let entryId: string;
  try {
    entryId = input.sealed ? await createSealedEntry(ctx, userId, input, uploads, key) : await createPlainEntry(ctx, userId, input, uploads, key);
  } catch (error) {
    const earlier = error instanceof KeyTaken && key ? await keyedEntry(ctx, key) : undefined;
    if (earlier) return earlier;
    throw error;
  }
  // The entry is saved; a congratulation that cannot be queued must not fail it.
  await celebrateMilestones(ctx, userId).catch(() => undefined);
  return readEntry(ctx, userId, entryId);
}

type EntryKey = { userId: string; key: string };

/** The entry an earlier save with this key made, if it was within 24 hours and the entry is still there. */
async function keyedEntry(ctx: AppContext, key: EntryKey): Promise<CachedEntry | undefined> {
  const row = await repo.findKeyedEntry(ctx.db, key.userId, key.key);
  if (!row) return undefined;
  const since = new Date(ctx.clock.now().getTime() - ENTRY_KEY_MS).toISOString();
  if (row.created_at < since) {
    await repo.forgetEntryKeys(ctx.db, since, key);
    return undefined;
  }
  return (await ctx.journalCache.entries(key.userId)).find((e) => e.id === row.entry_id);
}

/** Inside the entry's transaction: the key is this entry's, or the save gives way to the one that has it. */
async function claimKey(trx: Db, key: EntryKey | undefined, entryId: string, at: string): Promise<void> {
  if (key && !(await repo.claimEntryKey(trx, { user_id: key.userId, key: key.key, entry_id: entryId, created_at: at }))) throw new KeyTaken();
}

/** Keys past their 24 hours are forgotten (a scheduler job). */
export async function forgetOldEntryKeys(ctx: AppContext): Promise<void> {
  await repo.forgetEntryKeys(ctx.db, new Date(ctx.clock.now().getTime() - ENTRY_KEY_MS).toISOString());
}

async function createPlainEntry(ctx: AppContext, userId: string, input: CreateEntryInput, uploads: readonly PhotoUpload[], key: EntryKey | undefined): Promise<string> {
  if (input.content === '' && uploads.length === 0) throw invalidInput(messages.entries.contentEmpty);
  if (input.entry_date && !isCalendarDay(input.entry_date)) throw invalidInput('Dates must be YYYY-MM-DD', { field: 'entry_date' });
  checkPhotoRoom(uploads, { count: 0, bytes: 0 }, true);
  const photos = await preparePhotos(uploads);
  const owner = await loadOwner(ctx, userId);
  const now = ctx.clock.now();
  const entryId = newId();
  await writingPhotoFiles(ctx, (written) =>
    changeJournal(ctx, userId, async (trx, _revision, words) => {
      const codec = words.takeReadable();
      const { row } = await codec.newEntry({ text: input.content, title: input.title, tags: input.tags, at: now });
      await repo.insertEntry(trx, {
        id: entryId,
        user_id: userId,
        ...row,
        source: 'web',
        entry_date: input.entry_date ?? localDate(now, owner.timezone),
        time_zone: owner.timezone,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      });
      await claimKey(trx, key, entryId, now.toISOString());
      await savePhotos(ctx, trx, userId, entryId, photos, written, codec);
      return { entryId };
    }),
  );
  return entryId;
}

/**
 * A Vault entry written in the browser (docs/vault.md §5): its words are the sealed segments sent,
 * its photos sealed there too; the server keeps them as they are, with the day, the times and the
 * word count the browser counted.
 */
async function createSealedEntry(ctx: AppContext, userId: string, input: CreateEntryInput, uploads: readonly PhotoUpload[], key: EntryKey | undefined): Promise<string> {
  if (input.content !== '' || input.title !== null || input.tags.length > 0) throw invalidInput(vaultMessages.errors.sealedAndPlain);
  const photos = sealedPhotosOf(uploads, input.photo_names, input.photo_types);
  checkPhotoRoom(photos, { count: 0, bytes: 0 }, true);
  const owner = await loadOwner(ctx, userId);
  const now = ctx.clock.now();
  const entryId = newId();
  await writingPhotoFiles(ctx, (written) =>
    changeJournal(ctx, userId, async (trx, _revision, words) => {
      words.takeSealed();
      await repo.insertEntry(trx, {
        id: entryId,
        user_id: userId,
        content: '',
        title: null,
        tags: '[]',
        sealed: JSON.stringify(input.sealed),
        source: 'web',
        entry_date: input.entry_date ?? localDate(now, owner.timezone),
        time_zone: owner.timezone,
        word_count: input.word_count ?? 0,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      });
      await claimKey(trx, key, entryId, now.toISOString());
      await saveSealedPhotos(ctx, trx, userId, entryId, photos, written);
      return { entryId };
    }),
  );
  return entryId;
}

/** PATCH /api/entries/:id: changes content, title or tags; content may be empty only beside photos. */
export async function updateEntry(ctx: AppContext, userId: string, entryId: string, input: UpdateEntryInput): Promise<CachedEntry> {
  if (input.sealed) return updateSealedEntry(ctx, userId, entryId, input);
  await changeJournal(ctx, userId, async (trx, _revision, words) => {
    const row = await repo.findEntry(trx, userId, entryId);
    if (!row) throw notFound(messages.entries.entryNotFound);
    const codec = words.readableEntry(row);
    // An entry that texts made longer than the limit (before continuation entries) may be edited, but not grow.
    if (input.content !== undefined && input.content.length > ENTRY_CONTENT_MAX && input.content.length > codec.decryptContent(row).length) {
      throw invalidInput(messages.entries.contentTooLong, { field: 'content' });
    }
    if (input.content === '' && (await entryPhotoTotals(trx, userId, entryId)).count === 0) {
      throw invalidInput(messages.entries.contentEmpty);
    }
    await codec.replace(trx, entryId, input, ctx.clock.now().toISOString());
    return { entryId };
  }, basedOn(entryId, input));
  return readEntry(ctx, userId, entryId);
}

/** What a save was based on, when the editor said (DESIGN 6: `base_version`). */
function basedOn(entryId: string, input: UpdateEntryInput) {
  return input.base_version === undefined ? {} : { basedOn: { entryId, version: input.base_version } };
}

/** A Vault entry edited in the browser: its segments are replaced by the ones sent (one, with title and tags). */
async function updateSealedEntry(ctx: AppContext, userId: string, entryId: string, input: UpdateEntryInput): Promise<CachedEntry> {
  if (input.content !== undefined || input.title !== undefined || input.tags !== undefined) throw invalidInput(vaultMessages.errors.sealedAndPlain);
  const before = await repo.findEntry(ctx.db, userId, entryId);
  if (!before) throw notFound(messages.entries.entryNotFound);
  await sealEntryFirst(ctx, userId, before);
  await changeJournal(ctx, userId, async (trx, _revision, words) => {
    const row = await repo.findEntry(trx, userId, entryId);
    if (!row) throw notFound(messages.entries.entryNotFound);
    words.takeSealed();
    words.requireSealed(row);
    const updatedAt = ctx.clock.now().toISOString();
    await repo.replaceSegments(trx, userId, entryId, { sealed: JSON.stringify(input.sealed), word_count: input.word_count ?? row.word_count, updated_at: updatedAt });
    return { entryId };
  }, basedOn(entryId, input));
  return readEntry(ctx, userId, entryId);
}

/** DELETE /api/entries/:id: the photo and recording files go first, then the entry and its records. */
export async function deleteEntry(ctx: AppContext, userId: string, entryId: string): Promise<void> {
  if (!(await repo.findEntry(ctx.db, userId, entryId))) throw notFound(messages.entries.entryNotFound);
  await removePhotoFiles(ctx, await repo.listEntryPhotos(ctx.db, userId, entryId));
  await removeRecordingFiles(ctx, await listEntryRecordings(ctx.db, userId, entryId));
  await changeJournal(ctx, userId, async (trx) => {
    // A photo or recording added meanwhile goes too.
    await removePhotoFiles(ctx, await repo.listEntryPhotos(trx, userId, entryId));
    await removeRecordingFiles(ctx, await listEntryRecordings(trx, userId, entryId));
    if (!(await repo.deleteEntry(trx, userId, entryId))) throw notFound(messages.entries.entryNotFound);
    return { entryId };
  });
}
