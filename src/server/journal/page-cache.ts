import type { EntryFilter } from '../../shared/journal';
import type { AppContext } from '../context';
import { mediaLinkExpiry } from '../photos/signed-url';
import type { CachedEntry } from './cache';
import { presentEntry } from './present';
import { pageOfEntries } from './search';

/** Pages kept per journal snapshot: the first page and a search or two. */
const PAGES_PER_SNAPSHOT = 4;

// Keyed by the journal snapshot the journal cache hands out: a change makes a new snapshot, so a
// page can never outlive the entries it shows, and the pages go with the snapshot they came from.
const pages = new WeakMap<readonly CachedEntry[], Map<string, string>>();

/**
 * GET /api/entries as JSON text: one page, presented with its signed photo links. The same page
 * asked again for the same snapshot and while links issued now are the same (a five-minute grid)
 * is the same text, so it is kept: presenting, signing photo links and serialising were a fifth of
 * the request's CPU time, for the page the app asks for every time it opens. `revision`: the
 * journal's, when the request already read it (journal/gate.ts).
 */
export async function entriesPageJson(ctx: AppContext, userId: string, filter: EntryFilter, revision?: number): Promise<string> {
  const entries = await ctx.journalCache.entries(userId, revision);
  const key = `${mediaLinkExpiry(ctx)}\n${JSON.stringify(filter)}`;
  let kept = pages.get(entries);
  const known = kept?.get(key);
  if (known !== undefined) return known;
  const { page, nextCursor } = pageOfEntries(entries, filter);
  const json = JSON.stringify({ entries: page.map((entry) => presentEntry(ctx, entry)), nextCursor });
  if (!kept) {
    kept = new Map();
    pages.set(entries, kept);
  }
  if (kept.size >= PAGES_PER_SNAPSHOT) kept.delete(kept.keys().next().value!);
  kept.set(key, json);
  return json;
}
