import type { AppContext } from '../../context';
import type { Db } from '../../db/database';
import type { JournalPhotoRow, JournalSmsUndoTable } from '../../db/tables';
import { removePhotoFiles } from '../../photos/service';
import { changeJournal } from '../changes';
import { localDate } from '../dates';
import { loadOwner } from '../owner';
import { deleteEntry, findAppliedSms, findEntry } from '../repo';
import { countEntryPhotos, deletePhotoRows, latestUndoable, markUndone, photosById, undoneBy } from './repo';

type UndoOutcome =
  | { status: 'nothing' }
  /** The entry was changed on the web after the text: taking text out by position could cut the wrong words. */
  | { status: 'edited'; entryDate: string }
  | { status: 'undone'; entryDate: string; photos: number; entryDeleted: boolean };

/**
 * UNDO: takes the last text that arrived today (local day) back out of the journal, with its photos;
 * an entry goes when nothing is left of it. Each UNDO takes out the one before. One journal change,
 * so the search cache, the revision and open pages see it. `undoMessageId` is the UNDO text's own id:
 * processed again (after a crash), it answers what it did the first time and takes out nothing more.
 */
export async function undoLastText(ctx: AppContext, userId: string, undoMessageId: string): Promise<UndoOutcome> {
  const owner = await loadOwner(ctx, userId);
  const today = localDate(ctx.clock.now(), owner.timezone);
  const done = await undoneBy(ctx.db, userId, undoMessageId);
  if (done) return alreadyUndone(ctx.db, userId, done);
  if (!(await latestUndoable(ctx.db, userId, today))) return { status: 'nothing' };

  const removedPhotos: JournalPhotoRow[] = [];
  const alsoChanged: string[] = [];
  const { outcome } = await changeJournal(ctx, userId, async (trx, _revision, words) => {
    const now = ctx.clock.now().toISOString();
    const again = await undoneBy(trx, userId, undoMessageId);
    if (again) return { entryId: again.entry_id, outcome: await alreadyUndone(trx, userId, again) };
    for (;;) {
      const record = await latestUndoable(trx, userId, today);
      if (!record) return { entryId: '', outcome: { status: 'nothing' } as UndoOutcome };
      const entry = await findEntry(trx, userId, record.entry_id);
      if (!entry) {
        // Deleted on the web: nothing of that text is left to take out; look at the one before.
        await markUndone(trx, userId, record.message_id, now, undoMessageId);
        continue;
      }
      // The entry's codec takes the text back (a Vault entry by its segments, never read), if nothing changed it since.
      const back = words.forEntry(entry).takeBack(entry, record);
      if (!back) {
        return { entryId: entry.id, outcome: { status: 'edited', entryDate: entry.entry_date } as UndoOutcome };
      }
      const photos = await photosById(trx, userId, JSON.parse(record.photo_ids) as string[]);
      await deletePhotoRows(trx, userId, photos.map((p) => p.id));
      removedPhotos.push(...photos);
      // Entries the text started before its last one (a text longer than an entry) held only it.
      for (const id of JSON.parse(record.created_entry_ids) as string[]) {
        if (id === entry.id) continue;
        const started = await findEntry(trx, userId, id);
        if ((await countEntryPhotos(trx, userId, id)) === 0) await deleteEntry(trx, userId, id);
        else if (started) await words.forEntry(started).clear(trx, id, now);
        alsoChanged.push(id);
      }
      const entryDeleted = back.empty && (await countEntryPhotos(trx, userId, entry.id)) === 0;
      if (entryDeleted) await deleteEntry(trx, userId, entry.id);
      else await back.write(trx, now);
      await markUndone(trx, userId, record.message_id, now, undoMessageId);
      return { entryId: entry.id, changedEntryIds: alsoChanged, outcome: { status: 'undone', entryDate: entry.entry_date, photos: photos.length, entryDeleted } as UndoOutcome };
    }
  });
  // The rows went with the change; a file that fails to go is an orphan, never a broken photo.
  await removePhotoFiles(ctx, removedPhotos).catch(() => undefined);
  return outcome;
}

async function alreadyUndone(db: Db, userId: string, record: JournalSmsUndoTable): Promise<UndoOutcome> {
  const entry = await findEntry(db, userId, record.entry_id);
  const applied = await findAppliedSms(db, userId, record.message_id);
  const photos = (JSON.parse(record.photo_ids) as string[]).length;
  return { status: 'undone', entryDate: applied?.entry_date ?? entry?.entry_date ?? '', photos, entryDeleted: !entry };
}
