// The journal's order, shared by the server (journal/cached-entry.ts, search cursors, exports) and
// the Vault journal opened in the browser: by the entry's day, newest first; within a day, newest
// first, except that a day's SMS entry continued past the content limit reads in order: each
// continuation sits just below the part it continues, while it shows the time of its own first text.

/** What the order reads of an entry. */
export interface OrderedEntry {
  id: string;
  entry_date: string;
  created_at: string;
  source: string;
}

/** An entry's place: its day, the instant it is listed by within the day, and its id. */
export interface Place {
  entry_date: string;
  placed_at: string;
  id: string;
}

/**
 * The instant each entry is listed by within its day, by id: its own time, except the parts of a day's
 * SMS entry after the first (oldest first), each listed a millisecond below the part before it.
 */
export function placesOf(entries: Iterable<OrderedEntry>): Map<string, string> {
  const places = new Map<string, string>();
  const smsDays = new Map<string, OrderedEntry[]>();
  for (const entry of entries) {
    places.set(entry.id, entry.created_at);
    if (entry.source !== 'sms') continue;
    const day = smsDays.get(entry.entry_date);
    if (day) day.push(entry);
    else smsDays.set(entry.entry_date, [entry]);
  }
  for (const parts of smsDays.values()) {
    if (parts.length < 2) continue;
    parts.sort((a, b) => (a.created_at !== b.created_at ? (a.created_at < b.created_at ? -1 : 1) : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const first = Date.parse(parts[0]!.created_at);
    parts.forEach((part, index) => {
      if (index > 0) places.set(part.id, new Date(first - index).toISOString());
    });
  }
  return places;
}

/** The journal's order: by the entry's date, newest first; within a day, by place, the latest first. */
export function listOrder(a: Place, b: Place): number {
  if (a.entry_date !== b.entry_date) return a.entry_date > b.entry_date ? -1 : 1;
  if (a.placed_at !== b.placed_at) return a.placed_at > b.placed_at ? -1 : 1;
  return a.id > b.id ? -1 : a.id < b.id ? 1 : 0;
}

/** Entries with their places, in list order; an entry whose place is unchanged stays the same object. */
export function inListOrder<T extends OrderedEntry & { placed_at?: string }>(entries: readonly T[]): Array<T & Place> {
  const places = placesOf(entries);
  return entries
    .map((entry) => {
      const placed_at = places.get(entry.id)!;
      return (entry.placed_at === placed_at ? entry : { ...entry, placed_at }) as T & Place;
    })
    .sort(listOrder);
}
