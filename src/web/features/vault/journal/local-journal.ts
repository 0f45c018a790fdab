import type { EntriesPage, JournalEntry, JournalStats } from '../../../../shared/journal';
import { countWords, ENTRIES_PAGE_DEFAULT } from '../../../../shared/journal-rules';
import { listOrder, placesOf, type Place } from '../../../../shared/journal-order';
import { isOnThisDay } from '../../../../shared/on-this-day';
import { currentStreak, searchableText, searchTerms } from '../../../../shared/search-text';
import type { SearchFilter } from '../../journal/filters';

// A Vault journal searched, filtered, paged and counted in the browser, by the rules the server uses
// for every other journal (src/shared/search-text.ts, on-this-day.ts; journal/search.ts there).

/** An opened entry with what search reads worked out once, and its place in the journal's order. */
export interface LocalEntry {
  entry: JournalEntry;
  searchText: string;
  foldedTags: string[];
  place: Place;
}

/** An entry as it stands alone; `inPlace` places it among the others (a day's SMS parts). */
export const localEntry = (entry: JournalEntry): LocalEntry => ({
  entry,
  searchText: searchableText(entry),
  foldedTags: entry.tags.map((t) => t.toLowerCase()),
  place: { entry_date: entry.entry_date, placed_at: entry.created_at, id: entry.id },
});

/** The journal's entries placed as the server places them (shared/journal-order.ts), in list order. */
export function inPlace(entries: readonly LocalEntry[]): LocalEntry[] {
  const places = placesOf(entries.map((local) => local.entry));
  return entries
    .map((local) => {
      const placed_at = places.get(local.entry.id)!;
      return placed_at === local.place.placed_at ? local : { ...local, place: { ...local.place, placed_at } };
    })
    .sort((a, b) => listOrder(a.place, b.place));
}

export { listOrder };

// The server's cursor format (base64url of [entry_date, placed_at, id]), so its first page's cursor goes on here.
function encodeCursor(place: Place): string {
  const bytes = new TextEncoder().encode(JSON.stringify([place.entry_date, place.placed_at, place.id]));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function decodeCursor(cursor: string): Place | null {
  try {
    const binary = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'));
    const value: unknown = JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))));
    if (Array.isArray(value) && value.length === 3 && value.every((v) => typeof v === 'string')) return { entry_date: value[0] as string, placed_at: value[1] as string, id: value[2] as string };
  } catch {
    // an unreadable cursor starts from the top
  }
  return null;
}

function matcher(filter: SearchFilter): (local: LocalEntry) => boolean {
  const terms = searchTerms(filter.text);
  const tags = filter.tags.map((t) => t.toLowerCase());
  return ({ entry, searchText, foldedTags }) =>
    (filter.source === 'all' || (filter.source === 'voice' ? (entry.recordings?.length ?? 0) > 0 : entry.source === filter.source)) &&
    (!filter.dateFrom || entry.entry_date >= filter.dateFrom) &&
    (!filter.dateTo || entry.entry_date <= filter.dateTo) &&
    (!filter.hasPhotos || entry.photos.length > 0) &&
    tags.every((tag) => foldedTags.includes(tag)) &&
    terms.every((term) => searchText.includes(term));
}

/** One page of the entries matching the filter (a journal in list order), after the cursor. */
export function pageOf(journal: readonly LocalEntry[], filter: SearchFilter, cursor: string | null, limit = ENTRIES_PAGE_DEFAULT): EntriesPage {
  const after = cursor ? decodeCursor(cursor) : null;
  const matches = matcher(filter);
  const page: LocalEntry[] = [];
  let more = false;
  for (const local of journal) {
    if (after && listOrder(local.place, after) <= 0) continue;
    if (!matches(local)) continue;
    if (page.length === limit) {
      more = true;
      break;
    }
    page.push(local);
  }
  return { entries: page.map((local) => local.entry), nextCursor: more ? encodeCursor(page[page.length - 1]!.place) : null };
}

/** The statistics row, counted from the opened journal; `today` in the profile's zone. */
export function statsOf(journal: readonly LocalEntry[], today: string): JournalStats {
  const days = [...new Set(journal.map(({ entry }) => entry.entry_date))].sort().reverse();
  return {
    current_streak: currentStreak(days, today),
    total_days: days.length,
    total_photos: journal.reduce((sum, { entry }) => sum + entry.photos.length, 0),
    total_words: journal.reduce((sum, { entry }) => sum + countWords(entry.content), 0),
  };
}

/** The entries of today's month and day in earlier years, newest first. */
export function onThisDayOf(journal: readonly LocalEntry[], today: string): JournalEntry[] {
  return journal.filter(({ entry }) => isOnThisDay(entry.entry_date, today)).map(({ entry }) => entry);
}
