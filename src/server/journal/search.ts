import type { EntryFilter } from '../../shared/journal';
import { messages } from '../../shared/messages';
import { invalidInput } from '../errors';
import { listOrder, type CachedEntry } from './cached-entry';
import { searchTerms } from '../../shared/search-text';

// Folding and terms are shared with the browser, which searches a Vault journal itself.
export { foldText, searchableText, searchTerms } from '../../shared/search-text';

/** The filters other than the words, as one predicate built once per request. */
function entryMatcher(filter: Omit<EntryFilter, 'q' | 'limit' | 'cursor'>): (entry: CachedEntry) => boolean {
  const tags = filter.tags.map((t) => t.toLowerCase());
  return (entry) =>
    (filter.source === 'all' || (filter.source === 'voice' ? entry.recordings.length > 0 : entry.source === filter.source)) &&
    (!filter.from || entry.entry_date >= filter.from) &&
    (!filter.to || entry.entry_date <= filter.to) &&
    (!filter.hasPhotos || entry.photos.length > 0) &&
    tags.every((tag) => entry.foldedTags.includes(tag));
}

/** Where a page ends: the last entry's place in the list order, opaque to clients. */
type Cursor = Pick<CachedEntry, 'entry_date' | 'placed_at' | 'id'>;

export function encodeCursor(entry: Cursor): string {
  return Buffer.from(JSON.stringify([entry.entry_date, entry.placed_at, entry.id])).toString('base64url');
}

export function decodeCursor(cursor: string): Cursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 3 && value.every((v) => typeof v === 'string')) {
      return { entry_date: value[0] as string, placed_at: value[1] as string, id: value[2] as string };
    }
  } catch {
    // fall through
  }
  throw invalidInput(messages.entries.invalidCursor);
}

/** First index in a list (in list order) that comes after the cursor (binary search). */
function startIndex(entries: readonly CachedEntry[], cursor: Cursor): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (listOrder(entries[mid]!, cursor) > 0) high = mid;
    else low = mid + 1;
  }
  return low;
}

// Each journal snapshot's folded texts side by side, made on its first search (a change makes a new
// snapshot): reading 3,650 entry objects for their text took twice as long (bench/RESULTS.md).
const snapshotTexts = new WeakMap<readonly CachedEntry[], string[]>();

function searchTextsOf(entries: readonly CachedEntry[]): string[] {
  let texts = snapshotTexts.get(entries);
  if (!texts) snapshotTexts.set(entries, (texts = entries.map((entry) => entry.searchText)));
  return texts;
}

/** One page of matching entries from a journal in list order, and the cursor for the next. */
export function pageOfEntries(entries: readonly CachedEntry[], filter: EntryFilter): { page: CachedEntry[]; nextCursor: string | null } {
  const terms = searchTerms(filter.q);
  const texts = terms.length ? searchTextsOf(entries) : [];
  const matches = entryMatcher(filter);
  const page: CachedEntry[] = [];
  for (let i = filter.cursor ? startIndex(entries, decodeCursor(filter.cursor)) : 0; i < entries.length && page.length <= filter.limit; i++) {
    const entry = entries[i]!;
    if (matches(entry) && terms.every((term) => texts[i]!.includes(term))) page.push(entry);
  }
  const more = page.length > filter.limit;
  if (more) page.pop();
  return { page, nextCursor: more ? encodeCursor(page[page.length - 1]!) : null };
}
