import { sql } from 'kysely';
import type { AppContext } from '../context';
import type { Db } from '../db/database';
import { bumpRevision } from './repo';

/** What a change touched: its entry, and any other entries it added, changed or deleted. */
interface JournalChange {
  entryId: string;
  changedEntryIds?: readonly string[];
}

interface ChangeOptions {
  /**
   * The change is made again from a durable record if it is lost (an inbound text, recorded before
   * it was acknowledged): on SQLite its commit does not wait for the disk. The next commit that does
   * wait (every write someone was told is saved) makes it durable too.
   */
  redoable?: boolean;
}

/**
 * Runs one change to a user's journal in a transaction that also bumps the journal's revision
 * (first, so on PostgreSQL one user's writers take turns), then brings the in-memory copy up to
 * date and tells the user's open pages. `work` is given the revision this change makes.
 */
export async function changeJournal<T extends JournalChange>(
  ctx: AppContext,
  userId: string,
  work: (trx: Db, revision: number) => Promise<T>,
  options: ChangeOptions = {},
): Promise<T> {
  const change = (db: Db) =>
    db.transaction().execute(async (trx) => {
      const revision = await bumpRevision(trx, userId);
      return { result: await work(trx, revision), revision };
    });
  const { result, revision } = options.redoable && ctx.dbKind === 'sqlite' ? await withoutWaitingForDisk(ctx.db, change) : await change(ctx.db);
  const touched = [...new Set([result.entryId, ...(result.changedEntryIds ?? [])])].filter(Boolean);
  await ctx.journalCache.entriesChanged(userId, revision, touched);
  for (const entryId of touched) ctx.events.publish(userId, { type: 'entries.changed', entryId });
  return result;
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
