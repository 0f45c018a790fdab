import { openPhotoRows } from '../at-rest/photo-files';
import type { AppContext } from '../context';
import type { JournalPhotoRow } from '../db/tables';
import { openEntry, type OpenedEntry } from './entry-cipher';
import { ownerSalt } from './owner';
import { currentRevision, findEntry, listEntries, listEntryPhotos, listPhotos } from './repo';
import { buildTextIndex, rememberTextIndex, searchableText, spliceTextIndex, type TextIndex } from './search';

/** A decrypted entry held in memory, with what the filters need precomputed. */
export interface CachedEntry extends OpenedEntry {
  photos: JournalPhotoRow[];
  foldedTags: string[];
}

interface CachedJournal {
  revision: number;
  /** Newest first (created_at desc, id desc); replaced, never mutated, so readers hold a snapshot. */
  entries: readonly CachedEntry[];
  /** The entries' searchable text, joined in chunks (see search.ts): the only copy of it kept. */
  index: TextIndex;
  /** Whether some indexed text needs two bytes a character: V8 then keeps the whole joined text so. */
  wide: boolean;
  /** About what the entries take, the index aside. */
  entryBytes: number;
  /** About what the journal takes in memory. */
  bytes: number;
}

// What an entry and a photo row take besides their text, measured with bench/cache-memory.mjs.
const ENTRY_OVERHEAD_BYTES = 330;
const PHOTO_OVERHEAD_BYTES = 350;

/** V8 keeps a string one byte a character when every character is Latin-1, else two. */
// eslint-disable-next-line no-control-regex
const charBytes = (text: string) => (/[^\u0000-\u00ff]/.test(text) ? 2 : 1);

function entryBytesOf(entry: CachedEntry): number {
  const chars = entry.content.length + (entry.title?.length ?? 0) + entry.tags.reduce((n, t) => n + t.length, 0);
  return chars * charBytes(entry.content) + ENTRY_OVERHEAD_BYTES + entry.photos.length * PHOTO_OVERHEAD_BYTES;
}

const comesBefore = (a: CachedEntry, b: CachedEntry) => a.created_at > b.created_at || (a.created_at === b.created_at && a.id > b.id);

// Shared by every entry without photos or tags; frozen, as snapshots are never edited.
const NO_PHOTOS = Object.freeze([]) as unknown as JournalPhotoRow[];
const NO_TAGS = Object.freeze([]) as unknown as string[];

// Written out field by field: an object spread with two more fields costs several times the memory.
/**
 * Within one journal, equal tag lists share one array: most entries carry none or one of a few tags,
 * and a list per entry was a tenth of what a journal takes in memory.
 */
function listSharer(held: readonly CachedEntry[] = []): (list: string[]) => string[] {
  let seen: Map<string, string[]> | null = null;
  return (list) => {
    if (list.length === 0) return NO_TAGS;
    if (!seen) {
      // The lists already held, read only once some list is to be shared.
      seen = new Map();
      for (const entry of held) {
        if (entry.tags.length) seen.set(entry.tags.join('\u0000'), entry.tags);
        if (entry.foldedTags.length) seen.set(entry.foldedTags.join('\u0000'), entry.foldedTags);
      }
    }
    const key = list.join('\u0000');
    const shared = seen.get(key);
    if (shared) return shared;
    seen.set(key, list);
    return list;
  };
}

function toCached(entry: OpenedEntry, photos: JournalPhotoRow[], share: (list: string[]) => string[] = listSharer()): CachedEntry {
  const tags = share(entry.tags);
  const foldedTags = tags.map((t) => t.toLowerCase());
  for (const photo of photos) {
    // The same id string as the entry's, not another copy of it per photo.
    photo.entry_id = entry.id;
  }
  return {
    id: entry.id,
    title: entry.title,
    content: entry.content,
    tags,
    // One string for all, rather than a copy per row.
    source: entry.source === 'sms' ? 'sms' : 'web',
    entry_date: entry.entry_date,
    word_count: entry.word_count,
    created_at: entry.created_at,
    // Most entries were never edited: one string for both.
    updated_at: entry.updated_at === entry.created_at ? entry.created_at : entry.updated_at,
    photos: photos.length ? photos : NO_PHOTOS,
    foldedTags: foldedTags.every((t, i) => t === tags[i]) ? tags : share(foldedTags),
  };
}

function journalOf(revision: number, entries: readonly CachedEntry[], index: TextIndex, wide: boolean, entryBytes: number): CachedJournal {
  rememberTextIndex(entries, index);
  const bytes = entryBytes + index.chars * (wide ? 2 : 1) + index.count * Int32Array.BYTES_PER_ELEMENT;
  return { revision, entries, index, wide, entryBytes, bytes };
}

/**
 * Decrypted journals kept in memory so search and filters run over plain text without a database
 * round trip per entry. Each journal carries the revision it was read at; one primary-key lookup
 * per request tells whether it is still current, so several app instances stay correct.
 */
export class JournalCache {
  private readonly journals = new Map<string, CachedJournal>();
  private readonly loading = new Map<string, Promise<CachedJournal>>();
  private bytes = 0;

  /**
   * `context` gives the app context the cache belongs to (it is built as part of it). Journals are
   * kept within `budgetBytes`, the least recently used going first; a journal larger than the whole
   * budget is still kept while it is the one in use.
   */
  constructor(
    private readonly context: () => AppContext,
    private readonly budgetBytes: number,
  ) {}

  /** About how much memory the journals held take. */
  get sizeBytes(): number {
    return this.bytes;
  }

  /** How many journals are held. */
  get journalCount(): number {
    return this.journals.size;
  }

  private get ctx(): AppContext {
    return this.context();
  }

  /**
   * The user's whole journal, newest first, decrypted and current: as of `knownRevision` when the
   * caller has just read the journal's revision itself, else as of a revision read now.
   */
  async entries(userId: string, knownRevision?: number): Promise<readonly CachedEntry[]> {
    const revision = knownRevision ?? (await currentRevision(this.ctx.db, userId));
    if (revision === 0) {
      // Every write bumps the revision in its transaction: no revision row, no entries (ever, or
      // any longer: the account was deleted).
      this.forget(userId);
      return [];
    }
    const cached = this.journals.get(userId);
    if (cached && cached.revision >= revision) {
      this.store(userId, cached); // most recently used
      return cached.entries;
    }
    const key = `${userId}:${revision}`;
    let pending = this.loading.get(key);
    if (!pending) {
      pending = this.load(userId, revision).finally(() => this.loading.delete(key));
      this.loading.set(key, pending);
    }
    return (await pending).entries;
  }

  /**
   * After a committed change that moved the journal to `revision`: patch the one entry in place
   * when the cache held the revision just before, else forget the journal (it reloads on demand).
   */
  async entryChanged(userId: string, revision: number, entryId: string): Promise<void> {
    const before = this.journals.get(userId);
    if (!before || before.revision !== revision - 1) return this.forget(userId);
    const [row, photos, salt] = await Promise.all([
      findEntry(this.ctx.db, userId, entryId),
      listEntryPhotos(this.ctx.db, userId, entryId),
      ownerSalt(this.ctx, userId),
    ]);
    if (this.journals.get(userId) !== before) return this.forget(userId);
    // Only the changed entry is worked out again: the others' text stays where it is in the index,
    // so a change to a ten-year journal costs about what the entry does.
    const removed = before.entries.findIndex((e) => e.id === entryId);
    const others = removed === -1 ? before.entries.slice() : before.entries.filter((_, i) => i !== removed);
    let entryBytes = before.entryBytes - (removed === -1 ? 0 : entryBytesOf(before.entries[removed]!));
    let wide = before.wide;
    let text: string | null = null;
    let at = 0;
    if (row) {
      const entry = toCached(openEntry(this.ctx, salt, row), openPhotoRows(this.ctx, userId, salt, photos), listSharer(others));
      at = others.findIndex((e) => comesBefore(entry, e));
      if (at === -1) at = others.length;
      others.splice(at, 0, entry);
      text = searchableText(entry);
      entryBytes += entryBytesOf(entry);
      wide ||= charBytes(text) === 2;
    }
    this.store(userId, journalOf(revision, others, spliceTextIndex(before.index, removed, at, text), wide, entryBytes));
  }

  forget(userId: string): void {
    const cached = this.journals.get(userId);
    if (!cached) return;
    this.bytes -= cached.bytes;
    this.journals.delete(userId);
  }

  private async load(userId: string, revision: number): Promise<CachedJournal> {
    // Read the revision first, then the rows: the rows are at least that new.
    const [salt, rows, photoRows] = await Promise.all([ownerSalt(this.ctx, userId), listEntries(this.ctx.db, userId), listPhotos(this.ctx.db, userId)]);
    const photosByEntry = new Map<string, JournalPhotoRow[]>();
    for (const photo of openPhotoRows(this.ctx, userId, salt, photoRows)) {
      photo.user_id = userId; // one string for the whole journal
      const list = photosByEntry.get(photo.entry_id);
      if (list) list.push(photo);
      else photosByEntry.set(photo.entry_id, [photo]);
    }
    const share = listSharer();
    const entries = rows.map((row) => toCached(openEntry(this.ctx, salt, row), photosByEntry.get(row.id) ?? [], share));
    const index = buildTextIndex(entries.map(searchableText));
    const wide = index.chunks.some((chunk) => charBytes(chunk.text) === 2);
    const journal = journalOf(revision, entries, index, wide, entries.reduce((n, entry) => n + entryBytesOf(entry), 0));
    const current = this.journals.get(userId);
    if (!current || current.revision < revision) this.store(userId, journal);
    return journal;
  }

  private store(userId: string, journal: CachedJournal): void {
    this.forget(userId);
    this.journals.set(userId, journal);
    this.bytes += journal.bytes;
    // Map order is least recently stored first; the journal just stored is last.
    for (const [other, cached] of this.journals) {
      if (this.bytes <= this.budgetBytes || other === userId) break;
      this.bytes -= cached.bytes;
      this.journals.delete(other);
    }
  }
}
