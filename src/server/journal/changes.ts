import { sql } from 'kysely';
import type { AppContext } from '../context';
import type { Db } from '../db/database';
import { AppError } from '../errors';
import { messages } from '../../shared/messages';
import { presentEntry } from './present';
import { readEntry } from './read-entry';
import { bumpRevision, entryVersion, raiseVersions } from './repo';
import { JournalWords } from './words';

/** What a change touched: its entry, and any other entries it added, changed or deleted. */
interface JournalChange {
  entryId: string;
  changedEntryIds?: readonly string[];
  /** The journal went whole (the account deleted): nothing is read again, the pages hear of it once. */
  journalGone?: boolean;
}

interface ChangeOptions {
  /**
   * The change is made again from a durable record if it is lost (an inbound text, recorded before
   * it was acknowledged): on SQLite its commit does not wait for the disk. The next commit that does
   * wait (every write someone was told is saved) makes it durable too.
   */
  redoable?: boolean;
  /**
   * A save made from what the user saw: refused, with nothing written, when the entry has changed
   * since (a text arrived, another tab saved). Without it the change applies to the entry as it is.
   */
  basedOn?: { entryId: string; version: number };
}

/** Past this many entries in one change, the journal in memory is read again whole, and pages get one event. */
const ENTRIES_READ_AGAIN = 10;

/** Thrown inside the transaction, so it rolls back; answered as ENTRY_CHANGED with the entry as it is now. */
class StaleSave extends Error {}

/**
 * Runs one change to a user's journal in a transaction that also bumps the journal's revision
 * (first, so on PostgreSQL one user's writers take turns) and raises the version of every entry it
 * touched, then brings the in-memory copy up to date and tells the user's open pages. `work` is
 * given the revision this change makes and the journal's words: the codec each entry's words,
 * photos and recordings are written with (under the server's key, or sealed to its vault), read in
 * the same transaction. Every write to a journal passes here, so no writer can leave an
 * entry's version behind, overwrite a change it never saw, or write readable words into a vault.
 */
export async function changeJournal<T extends JournalChange>(
  ctx: AppContext,
  userId: string,
  work: (trx: Db, revision: number, words: JournalWords) => Promise<T>,
  options: ChangeOptions = {},
): Promise<T> {
  const change = (db: Db) =>
    db.transaction().execute(async (trx) => {
      const revision = await bumpRevision(trx, userId);
      const { basedOn } = options;
      if (basedOn) {
        const version = await entryVersion(trx, userId, basedOn.entryId);
        // A missing entry is the writer's to refuse (404).
        if (version !== undefined && version !== basedOn.version) throw new StaleSave();
      }
      // Read after the revision: a vault turned on or off now is seen wholly or not at all.
      const result = await work(trx, revision, await JournalWords.read(ctx, trx, userId));
      const touched = touchedEntries(result);
      await raiseVersions(trx, userId, touched);
      return { result, revision, touched };
    });
  let done: { result: T; revision: number; touched: string[] };
  try {
    done = options.redoable && ctx.dbKind === 'sqlite' ? await withoutWaitingForDisk(ctx.db, change) : await change(ctx.db);
  } catch (error) {
    if (!(error instanceof StaleSave) || !options.basedOn) throw error;
    const current = await readEntry(ctx, userId, options.basedOn.entryId);
    throw new AppError('ENTRY_CHANGED', messages.entries.entryChanged, undefined, { entry: presentEntry(ctx, current) });
  }
  const { result, revision, touched } = done;
  // A chunk of an import touches many entries: the journal in memory reloads on its next read, and
  // the open pages hear of it once.
  if (touched.length > ENTRIES_READ_AGAIN || result.journalGone) {
    ctx.journalCache.forget(userId);
    ctx.events.publish(userId, { type: 'entries.changed' });
    return result;
  }
  await ctx.journalCache.entriesChanged(userId, revision, touched);
  for (const entryId of touched) ctx.events.publish(userId, { type: 'entries.changed', entryId });
  return result;
}

function touchedEntries(change: JournalChange): string[] {
  return [...new Set([change.entryId, ...(change.changedEntryIds ?? [])])].filter(Boolean);
}

/** Runs `work` on SQLite's connection with commits that skip the disk flush, then restores FULL. */
async function withoutWaitingForDisk<T>(db: Db, work: (db: Db) => Promise<T>): Promise<T> {
  return db.connection().execute(async (connection) => {
    await sql`pragma synchronous = NORMAL`.execute(connection);
    try {
      return await work(connection);
    } finally {
      await sql`pragma synchronous = FULL`.execute(connection);
    }
  });
}
