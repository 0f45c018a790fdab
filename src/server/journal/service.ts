import { countWords, ENTRY_CONTENT_MAX, type CreateEntryInput, type UpdateEntryInput } from '../../shared/journal';
import { messages } from '../../shared/messages';
import type { AppContext } from '../context';
import { vaultMessages } from '../../shared/vault-messages';
import { conflict, invalidInput, notFound } from '../errors';
import { newId } from '../ids';
import { celebrateMilestones } from '../milestones/service';
import { entryPhotoTotals } from '../photos/repo';
import { sealedPhotosOf } from '../photos/sealed-uploads';
import { checkPhotoRoom, preparePhotos, removePhotoFiles, savePhotos, saveSealedPhotos, writingPhotoFiles } from '../photos/service';
import type { PhotoUpload } from '../photos/uploads';
import { refusePlainWrite, requireSealed, sealBeforeSealedWrite, vaultForSealedWrite } from '../vault/journal-writes';
import { replaceSegments } from '../vault/repo';
import type { CachedEntry } from './cache';
import { changeJournal } from './changes';
import { isCalendarDay, localDate } from './dates';
import { openEntry, sealEntryChanges, sealEntryText } from './entry-cipher';
import { loadOwner, ownerSalt } from './owner';
import * as repo from './repo';
import { readEntry } from './read-entry';

/** POST /api/entries: a web entry for today (in the user's timezone) or the day given, with any photos. */
export async function createEntry(ctx: AppContext, userId: string, input: CreateEntryInput, uploads: readonly PhotoUpload[] = []): Promise<CachedEntry> {
  if (input.sealed) return createSealedEntry(ctx, userId, input, uploads);
  if (input.content === '' && uploads.length === 0) throw invalidInput(messages.entries.contentEmpty);
  if (input.entry_date && !isCalendarDay(input.entry_date)) throw invalidInput('Dates must be YYYY-MM-DD', { field: 'entry_date' });
  checkPhotoRoom(uploads, { count: 0, bytes: 0 }, true);
  const photos = await preparePhotos(uploads);
  const owner = await loadOwner(ctx, userId);
  const now = ctx.clock.now();
  const entryId = newId();
  await writingPhotoFiles(ctx, (written) =>
    changeJournal(ctx, userId, async (trx) => {
      await refusePlainWrite(trx, userId);
      await repo.insertEntry(trx, {
        id: entryId,
        user_id: userId,
        ...sealEntryText(ctx, userId, owner.salt, input),
        source: 'web',
        entry_date: input.entry_date ?? localDate(now, owner.timezone),
        time_zone: owner.timezone,
        word_count: countWords(input.content),
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      });
      await savePhotos(ctx, trx, userId, entryId, photos, written);
      return { entryId };
    }),
  );
  // The entry is saved; a congratulation that cannot be queued must not fail it.
  await celebrateMilestones(ctx, userId).catch(() => undefined);
  return readEntry(ctx, userId, entryId);
}

/**
 * A Vault entry written in the browser (docs/vault.md §5): its words are the sealed segments sent,
 * its photos sealed there too; the server keeps them as they are, with the day, the times and the
 * word count the browser counted.
 */
async function createSealedEntry(ctx: AppContext, userId: string, input: CreateEntryInput, uploads: readonly PhotoUpload[]): Promise<CachedEntry> {
  if (input.content !== '' || input.title !== null || input.tags.length > 0) throw invalidInput(vaultMessages.errors.sealedAndPlain);
  const photos = sealedPhotosOf(uploads, input.photo_names, input.photo_types);
  checkPhotoRoom(photos, { count: 0, bytes: 0 }, true);
  const owner = await loadOwner(ctx, userId);
  const now = ctx.clock.now();
  const entryId = newId();
  await writingPhotoFiles(ctx, (written) =>
    changeJournal(ctx, userId, async (trx) => {
      await vaultForSealedWrite(trx, userId);
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
      await saveSealedPhotos(ctx, trx, userId, entryId, photos, written);
      return { entryId };
    }),
  );
  await celebrateMilestones(ctx, userId).catch(() => undefined);
  return readEntry(ctx, userId, entryId);
}

/** PATCH /api/entries/:id: changes content, title or tags; content may be empty only beside photos. */
export async function updateEntry(ctx: AppContext, userId: string, entryId: string, input: UpdateEntryInput): Promise<CachedEntry> {
  if (input.sealed) return updateSealedEntry(ctx, userId, entryId, input);
  const salt = await ownerSalt(ctx, userId);
  await changeJournal(ctx, userId, async (trx) => {
    const row = await repo.findEntry(trx, userId, entryId);
    if (!row) throw notFound(messages.entries.entryNotFound);
    if (row.sealed !== null) throw conflict(vaultMessages.errors.sealedOnly);
    await refusePlainWrite(trx, userId);
    // An entry that texts made longer than the limit (before continuation entries) may be edited, but not grow.
    if (input.content !== undefined && input.content.length > ENTRY_CONTENT_MAX && input.content.length > openEntry(ctx, salt, row).content.length) {
      throw invalidInput(messages.entries.contentTooLong, { field: 'content' });
    }
    if (input.content === '' && (await entryPhotoTotals(trx, userId, entryId)).count === 0) {
      throw invalidInput(messages.entries.contentEmpty);
    }
    await repo.updateEntry(trx, userId, entryId, {
      ...sealEntryChanges(ctx, userId, salt, input),
      ...(input.content !== undefined && { word_count: countWords(input.content) }),
      updated_at: ctx.clock.now().toISOString(),
    });
    return { entryId };
  });
  return readEntry(ctx, userId, entryId);
}

/** A Vault entry edited in the browser: its segments are replaced by the ones sent (one, with title and tags). */
async function updateSealedEntry(ctx: AppContext, userId: string, entryId: string, input: UpdateEntryInput): Promise<CachedEntry> {
  if (input.content !== undefined || input.title !== undefined || input.tags !== undefined) throw invalidInput(vaultMessages.errors.sealedAndPlain);
  const before = await repo.findEntry(ctx.db, userId, entryId);
  if (!before) throw notFound(messages.entries.entryNotFound);
  await sealBeforeSealedWrite(ctx, userId, before);
  await changeJournal(ctx, userId, async (trx) => {
    const row = await repo.findEntry(trx, userId, entryId);
    if (!row) throw notFound(messages.entries.entryNotFound);
    await vaultForSealedWrite(trx, userId);
    requireSealed(row);
    const updatedAt = ctx.clock.now().toISOString();
    await replaceSegments(trx, userId, entryId, { sealed: JSON.stringify(input.sealed), word_count: input.word_count ?? row.word_count, updated_at: updatedAt });
    return { entryId };
  });
  return readEntry(ctx, userId, entryId);
}

/** DELETE /api/entries/:id: the photo files go first, then the entry and its photo records. */
export async function deleteEntry(ctx: AppContext, userId: string, entryId: string): Promise<void> {
  if (!(await repo.findEntry(ctx.db, userId, entryId))) throw notFound(messages.entries.entryNotFound);
  await removePhotoFiles(ctx, await repo.listEntryPhotos(ctx.db, userId, entryId));
  await changeJournal(ctx, userId, async (trx) => {
    // A photo added meanwhile goes too.
    await removePhotoFiles(ctx, await repo.listEntryPhotos(trx, userId, entryId));
    if (!(await repo.deleteEntry(trx, userId, entryId))) throw notFound(messages.entries.entryNotFound);
    return { entryId };
  });
}
