import type { AppContext } from '../context';
import type { Db } from '../db/database';
import { bumpRevision } from './repo';

/**
 * Runs one change to a user's journal in a transaction that also bumps the journal's revision
 * (first, so on PostgreSQL one user's writers take turns), then brings the in-memory copy up to
 * date and tells the user's open pages. `work` is given the revision this change makes.
 */
export async function changeJournal<T extends { entryId: string }>(ctx: AppContext, userId: string, work: (trx: Db, revision: number) => Promise<T>): Promise<T> {
  const { result, revision } = await ctx.db.transaction().execute(async (trx) => {
    const revision = await bumpRevision(trx, userId);
    return { result: await work(trx, revision), revision };
  });
  await ctx.journalCache.entryChanged(userId, revision, result.entryId);
  ctx.events.publish(userId, { type: 'entries.changed', entryId: result.entryId });
  return result;
}
