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

/** Some consecutive entries' searchable text, separated by NUL, with where each one starts. */
interface TextChunk {
  text: string;
  starts: Int32Array;
}

/**
 * Every entry's searchable text, in list order, in chunks of about CHUNK_ENTRIES entries. A change
 * rebuilds the one chunk it falls in: one joined text for a whole ten-year journal (2 MB) had to be
 * copied whole on every change, about 6 ms a text for its owner.
 */
export interface TextIndex {
  chunks: readonly TextChunk[];
  /** How many entries come before each chunk. */
  firsts: Int32Array;
  /** Entries in all. */
  count: number;
  /** Characters in all, separators included. */
  chars: number;
}

const CHUNK_ENTRIES = 128;

function chunkOf(texts: readonly string[]): TextChunk {
  const starts = new Int32Array(texts.length);
  let offset = 0;
  texts.forEach((text, i) => {
    starts[i] = offset;
    offset += text.length + 1;
  });
  return { text: texts.join('\u0000'), starts };
}

const chunkEnd = (chunk: TextChunk, j: number) => (j + 1 < chunk.starts.length ? chunk.starts[j + 1]! - 1 : chunk.text.length);
const chunkTexts = (chunk: TextChunk) => Array.from(chunk.starts, (start, j) => chunk.text.slice(start, chunkEnd(chunk, j)));

function indexOfChunks(chunks: readonly TextChunk[]): TextIndex {
  const kept = chunks.filter((chunk) => chunk.starts.length > 0);
  const firsts = new Int32Array(kept.length);
  let count = 0;
  let chars = 0;
  kept.forEach((chunk, k) => {
    firsts[k] = count;
    count += chunk.starts.length;
    chars += chunk.text.length + 1;
  });
  return { chunks: kept, firsts, count, chars };
}

export function buildTextIndex(texts: readonly string[]): TextIndex {
  const chunks: TextChunk[] = [];
  for (let i = 0; i < texts.length; i += CHUNK_ENTRIES) chunks.push(chunkOf(texts.slice(i, i + CHUNK_ENTRIES)));
  return indexOfChunks(chunks);
}

/** The chunk holding entry i (0 ≤ i < count), and i's place in it. */
function locate(index: TextIndex, i: number): [chunk: number, place: number] {
  let low = 0;
  let high = index.chunks.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (index.firsts[mid]! <= i) low = mid;
    else high = mid - 1;
  }
  return [low, i - index.firsts[low]!];
}

/** Entry i's searchable text, read back out of an index. */
export function indexedText(index: TextIndex, i: number): string {
  const [k, j] = locate(index, i);
  const chunk = index.chunks[k]!;
  return chunk.text.slice(chunk.starts[j], chunkEnd(chunk, j));
}

/**
 * The index after one entry changed: entry `removed` of the old list taken out (-1: none), and `text`
 * put in at `at` in the list without it (null: nothing put in). Only the chunks the change falls in
 * are rebuilt; a chunk grown to twice its size is split in two.
 */
export function spliceTextIndex(index: TextIndex, removed: number, at: number, text: string | null): TextIndex {
  let current = index;
  if (removed !== -1) {
    const [k, j] = locate(current, removed);
    const texts = chunkTexts(current.chunks[k]!);
    texts.splice(j, 1);
    current = indexOfChunks(current.chunks.map((chunk, c) => (c === k ? chunkOf(texts) : chunk)));
  }
  if (text === null) return current;
  if (current.count === 0) return indexOfChunks([chunkOf([text])]);
  // At the very end, the new text joins the last chunk.
  const [k, j] = at < current.count ? locate(current, at) : [current.chunks.length - 1, current.chunks[current.chunks.length - 1]!.starts.length];
  const texts = chunkTexts(current.chunks[k]!);
  texts.splice(j, 0, text);
  const rebuilt = texts.length >= 2 * CHUNK_ENTRIES ? [chunkOf(texts.slice(0, CHUNK_ENTRIES)), chunkOf(texts.slice(CHUNK_ENTRIES))] : [chunkOf(texts)];
  return indexOfChunks([...current.chunks.slice(0, k), ...rebuilt, ...current.chunks.slice(k + 1)]);
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
 * about in list order. Within a chunk, each term's next occurrence is remembered, so a chunk's text
 * is read once at most, and only as far as the entries asked about: a first page of a common word
 * reads a few entries' text, a rare word one indexOf per chunk. A match cannot span two entries
 * because terms hold no NUL.
 */
export function termMatcher(entries: readonly CachedEntry[], terms: readonly string[]): ((i: number) => boolean) | null {
  if (terms.length === 0) return null;
  const index = textIndexOf(entries);
  let last = -1;
  let chunkAt = -1;
  let chunk: TextChunk | undefined;
  // Where each term occurs next in the chunk, at or after the last entry start looked from; -1: nowhere after it.
  const next = terms.map(() => -2);
  return (i) => {
    if (i <= last) throw new Error('termMatcher: entries must be asked about in list order');
    last = i;
    const [k, j] = locate(index, i);
    if (k !== chunkAt) {
      chunkAt = k;
      chunk = index.chunks[k]!;
      next.fill(-2);
    }
    const { text, starts } = chunk!;
    const start = starts[j]!;
    const end = chunkEnd(chunk!, j);
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
