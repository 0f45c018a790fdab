import { countWords, ENTRY_CONTENT_MAX, type CreateEntryInput, type UpdateEntryInput } from '../../shared/journal';
import { messages } from '../../shared/messages';
import type { AppContext } from '../context';
import { invalidInput, notFound } from '../errors';
import { newId } from '../ids';
import { celebrateMilestones } from '../milestones/service';
import { entryPhotoTotals } from '../photos/repo';
import { checkPhotoRoom, preparePhotos, removePhotoFiles, savePhotos, writingPhotoFiles } from '../photos/service';
import type { PhotoUpload } from '../photos/uploads';
import type { CachedEntry } from './cache';
import { changeJournal } from './changes';
import { isCalendarDay, localDate } from './dates';
import { openEntry, sealEntryChanges, sealEntryText } from './entry-cipher';
import { loadOwner, ownerSalt } from './owner';
import * as repo from './repo';
import { readEntry } from './read-entry';

/** POST /api/entries: a web entry for today (in the user's timezone) or the day given, with any photos. */
export async function createEntry(ctx: AppContext, userId: string, input: CreateEntryInput, uploads: readonly PhotoUpload[] = []): Promise<CachedEntry> {
  if (input.content === '' && uploads.length === 0) throw invalidInput(messages.entries.contentEmpty);
  if (input.entry_date && !isCalendarDay(input.entry_date)) throw invalidInput('Dates must be YYYY-MM-DD', { field: 'entry_date' });
  checkPhotoRoom(uploads, { count: 0, bytes: 0 }, true);
  const photos = await preparePhotos(uploads);
  const owner = await loadOwner(ctx, userId);
  const now = ctx.clock.now();
  const entryId = newId();
  await writingPhotoFiles(ctx, (written) =>
    changeJournal(ctx, userId, async (trx) => {
      await repo.insertEntry(trx, {
        id: entryId,
        user_id: userId,
        ...sealEntryText(ctx, userId, owner.salt, input),
        source: 'web',
        entry_date: input.entry_date ?? localDate(now, owner.timezone),
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

/** PATCH /api/entries/:id: changes content, title or tags; content may be empty only beside photos. */
export async function updateEntry(ctx: AppContext, userId: string, entryId: string, input: UpdateEntryInput): Promise<CachedEntry> {
  const salt = await ownerSalt(ctx, userId);
  await changeJournal(ctx, userId, async (trx) => {
    const row = await repo.findEntry(trx, userId, entryId);
    if (!row) throw notFound(messages.entries.entryNotFound);
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
