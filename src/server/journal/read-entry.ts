import { messages } from '../../shared/messages';
import type { AppContext } from '../context';
import { notFound } from '../errors';
import type { CachedEntry } from './cache';

/** One of the user's entries as it reads now; 404 when it is not theirs. */
export async function readEntry(ctx: AppContext, userId: string, entryId: string): Promise<CachedEntry> {
  const entry = (await ctx.journalCache.entries(userId)).find((e) => e.id === entryId);
  if (!entry) throw notFound(messages.entries.entryNotFound);
  return entry;
}
