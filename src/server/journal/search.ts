import type { EntryFilter } from '../../shared/journal';
import { messages } from '../../shared/messages';
import { invalidInput } from '../errors';
import type { CachedEntry } from './cache';

/** Case- and accent-insensitive form of text for matching: "Café" and "cafe" meet. */
export function foldText(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** Search terms: words, or "quoted phrases"; an entry must contain every term. */
export function searchTerms(q: string | undefined): string[] {
  if (!q) return [];
  const terms: string[] = [];
  // eslint-disable-next-line no-control-regex
  for (const match of foldText(q).replace(/\u0000/g, '').matchAll(/"([^"]*)"|(\S+)/g)) {
    const term = (match[1] ?? match[2] ?? '').replace(/\s+/g, ' ').trim();
    if (term) terms.push(term);
  }
  return terms;
}

/** The filters other than the words, as one predicate built once per request. */
export function entryMatcher(filter: Omit<EntryFilter, 'q' | 'limit' | 'cursor'>): (entry: CachedEntry) => boolean {
  const tags = filter.tags.map((t) => t.toLowerCase());
  return (entry) =>
    (filter.source === 'all' || entry.source === filter.source) &&
    (!filter.from || entry.entry_date >= filter.from) &&
    (!filter.to || entry.entry_date <= filter.to) &&
    (!filter.hasPhotos || entry.photos.length > 0) &&
    tags.every((tag) => entry.foldedTags.includes(tag));
}

/** An entry's text as search reads it: folded, whitespace as single spaces. */
export function searchableText(entry: { title: string | null; content: string; tags: readonly string[] }): string {
  // Whitespace first, folding second: a global regexp replace leaves a rope of its pieces (some
  // fourteen bytes a character, measured), and folding copies the text into one flat string.
  const folded = foldText([entry.title ?? '', entry.content, ...entry.tags].join('\n').replace(/\s+/g, ' '));
  // Folding can make a space of its own ("¨" is a space and a mark): rare, so few pieces.
  return folded.replace(/\s{2,}|[^\S ]/g, ' ');
}

/** Every entry's searchable text, in list order, separated by NUL, with where each one starts. */
export interface TextIndex {
  text: string;
  starts: Int32Array;
}

export function buildTextIndex(texts: readonly string[]): TextIndex {
  const starts = new Int32Array(texts.length);
  let offset = 0;
  texts.forEach((text, i) => {
    starts[i] = offset;
    offset += text.length + 1;
  });
  return { text: texts.join('\u0000'), starts };
}

/**
 * The index after one entry changed: entry `removed` of the old list taken out (-1: none), and `text`
 * put in at `at` in the list without it (null: nothing put in). The text around the change is kept
 * as slices of the old joined text, not copied entry by entry, so a change costs about as much as
 * the changed entry, not the whole journal; the pieces become one flat string on the next search.
 */
export function spliceTextIndex(index: TextIndex, removed: number, at: number, text: string | null): TextIndex {
  const n = index.starts.length;
  const end = (k: number) => (k + 1 < n ? index.starts[k + 1]! - 1 : index.text.length);
  // Old entries [from, to) as one piece of joined text.
  const span = (from: number, to: number) => ({ text: index.text.slice(index.starts[from], end(to - 1)), from, to });
  // Where the new text goes, counted in the old list.
  const insertAt = removed === -1 || at < removed ? at : at + 1;
  const kept = removed === -1 ? [[0, n]] : [[0, removed], [removed + 1, n]];
  const pieces: { text: string; from: number; to: number }[] = [];
  for (const [from, to] of kept as [number, number][]) {
    if (text !== null && insertAt >= from && insertAt <= to) {
      if (insertAt > from) pieces.push(span(from, insertAt));
      pieces.push({ text, from: -1, to: -1 });
      if (to > insertAt) pieces.push(span(insertAt, to));
      text = null;
    } else if (to > from) {
      pieces.push(span(from, to));
    }
  }
  if (text !== null) pieces.push({ text, from: -1, to: -1 });

  const count = pieces.reduce((sum, piece) => sum + (piece.from === -1 ? 1 : piece.to - piece.from), 0);
  const starts = new Int32Array(count);
  let i = 0;
  let offset = 0;
  for (const piece of pieces) {
    if (piece.from === -1) {
      starts[i++] = offset;
      offset += piece.text.length + 1;
      continue;
    }
    const shift = offset - index.starts[piece.from]!;
    for (let k = piece.from; k < piece.to; k++) starts[i++] = index.starts[k]! + shift;
    offset += piece.text.length + 1;
  }
  return { text: pieces.map((piece) => piece.text).join('\u0000'), starts };
}

/** Entry i's searchable text, read back out of an index. */
export function indexedText(index: TextIndex, i: number): string {
  const end = i + 1 < index.starts.length ? index.starts[i + 1]! - 1 : index.text.length;
  return index.text.slice(index.starts[i], end);
}

// One per journal snapshot (snapshots are replaced on change, never edited). The journal cache
// hands over the index it keeps; any other list of entries gets one built on its first search.
const textIndexes = new WeakMap<readonly CachedEntry[], TextIndex>();

export function rememberTextIndex(entries: readonly CachedEntry[], index: TextIndex): void {
  textIndexes.set(entries, index);
}

function textIndexOf(entries: readonly CachedEntry[]): TextIndex {
  let index = textIndexes.get(entries);
  if (!index) {
    index = buildTextIndex(entries.map(searchableText));
    textIndexes.set(entries, index);
  }
  return index;
}

/**
 * A test of whether entry i contains every term (null when there are no terms), for entries asked
 * about in list order. Each term's next occurrence in the journal's joined text is remembered, so
 * the text is read once at most, and only as far as the entries asked about: a first page of a
 * common word reads a few entries' text, a rare word one indexOf per occurrence. A match cannot
 * span two entries because terms hold no NUL.
 */
export function termMatcher(entries: readonly CachedEntry[], terms: readonly string[]): ((i: number) => boolean) | null {
  if (terms.length === 0) return null;
  const { text, starts } = textIndexOf(entries);
  // Where each term occurs next, at or after the last entry start looked from; -1: nowhere after it.
  const next = terms.map(() => -2);
  let last = -1;
  return (i) => {
    if (i <= last) throw new Error('termMatcher: entries must be asked about in list order');
    last = i;
    const start = starts[i]!;
    const end = i + 1 < starts.length ? starts[i + 1]! - 1 : text.length;
    for (let t = 0; t < terms.length; t++) {
      let at = next[t]!;
      if (at === -1) return false;
      if (at < start) {
        at = text.indexOf(terms[t]!, start);
        next[t] = at;
        if (at === -1) return false;
      }
      if (at >= end) return false;
    }
    return true;
  };
}

/** The cursor is the last entry's position in the order (created_at desc, id desc), opaque to clients. */
export function encodeCursor(entry: { created_at: string; id: string }): string {
  return Buffer.from(JSON.stringify([entry.created_at, entry.id])).toString('base64url');
}

export function decodeCursor(cursor: string): { created_at: string; id: string } {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'string')) {
      return { created_at: value[0] as string, id: value[1] as string };
    }
  } catch {
    // fall through
  }
  throw invalidInput(messages.entries.invalidCursor);
}

/** True when a comes strictly after b in the list order. */
const isAfter = (a: { created_at: string; id: string }, b: { created_at: string; id: string }) =>
  a.created_at < b.created_at || (a.created_at === b.created_at && a.id < b.id);

/** First index in a newest-first list that comes after the cursor (binary search). */
function startIndex(entries: readonly CachedEntry[], cursor: { created_at: string; id: string }): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (isAfter(entries[mid]!, cursor)) high = mid;
    else low = mid + 1;
  }
  return low;
}

/** One page of matching entries from a newest-first list, and the cursor for the next. */
export function pageOfEntries(entries: readonly CachedEntry[], filter: EntryFilter): { page: CachedEntry[]; nextCursor: string | null } {
  let i = filter.cursor ? startIndex(entries, decodeCursor(filter.cursor)) : 0;
  const containsTerms = termMatcher(entries, searchTerms(filter.q));
  const matches = entryMatcher(filter);
  const page: CachedEntry[] = [];
  // The other filters first: they cost nothing, and the text is then read only where they pass.
  for (; i < entries.length && page.length <= filter.limit; i++) {
    if (matches(entries[i]!) && (!containsTerms || containsTerms(i))) page.push(entries[i]!);
  }
  const more = page.length > filter.limit;
  if (more) page.pop();
  return { page, nextCursor: more ? encodeCursor(page[page.length - 1]!) : null };
}
