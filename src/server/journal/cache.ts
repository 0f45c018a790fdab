import type { AppContext } from '../context';
import type { JournalPhotoRow } from '../db/tables';
import { openEntry, type OpenedEntry } from './entry-cipher';
import { ownerSalt } from './owner';
import { currentRevision, findEntry, listEntries, listEntryPhotos, listPhotos } from './repo';
import { foldText } from './search';

/** A decrypted entry held in memory, with what search needs precomputed. */
export interface CachedEntry extends OpenedEntry {
  photos: JournalPhotoRow[];
  /** Folded title, content and tags, for term search (see search.ts). */
  haystack: string;
  foldedTags: string[];
}

interface CachedJournal {
  revision: number;
  /** Newest first (created_at desc, id desc); replaced, never mutated, so readers hold a snapshot. */
  entries: readonly CachedEntry[];
}

/** Journals held in memory across all users, in entries; the least recently used go first. */
const MAX_CACHED_ENTRIES = 50_000;

const comesBefore = (a: CachedEntry, b: CachedEntry) => a.created_at > b.created_at || (a.created_at === b.created_at && a.id > b.id);

function toCached(entry: OpenedEntry, photos: JournalPhotoRow[]): CachedEntry {
  return {
    ...entry,
    photos,
    // Whitespace as single spaces, so a quoted phrase also matches across a line break.
    haystack: foldText([entry.title ?? '', entry.content, ...entry.tags].join('\n')).replace(/\s+/g, ' '),
    foldedTags: entry.tags.map((t) => t.toLowerCase()),
  };
}

/**
 * Decrypted journals kept in memory so search and filters run over plain text without a database
 * round trip per entry. Each journal carries the revision it was read at; one primary-key lookup
 * per request tells whether it is still current, so several app instances stay correct.
 */
export class JournalCache {
  private readonly journals = new Map<string, CachedJournal>();
  private readonly loading = new Map<string, Promise<CachedJournal>>();
  private size = 0;

  /** `context` gives the app context the cache belongs to (it is built as part of it). */
  constructor(
    private readonly context: () => AppContext,
    private readonly maxEntries = MAX_CACHED_ENTRIES,
  ) {}

  private get ctx(): AppContext {
    return this.context();
  }

  /** The user's whole journal, newest first, decrypted and current. */
  async entries(userId: string): Promise<readonly CachedEntry[]> {
    const revision = await currentRevision(this.ctx.db, userId);
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
    const others = before.entries.filter((e) => e.id !== entryId);
    if (row) {
      const entry = toCached(openEntry(this.ctx, salt, row), photos);
      const at = others.findIndex((e) => comesBefore(entry, e));
      others.splice(at === -1 ? others.length : at, 0, entry);
    }
    this.store(userId, { revision, entries: others });
  }

  forget(userId: string): void {
    const cached = this.journals.get(userId);
    if (!cached) return;
    this.size -= cached.entries.length;
    this.journals.delete(userId);
  }

  private async load(userId: string, revision: number): Promise<CachedJournal> {
    // Read the revision first, then the rows: the rows are at least that new.
    const [salt, rows, photoRows] = await Promise.all([ownerSalt(this.ctx, userId), listEntries(this.ctx.db, userId), listPhotos(this.ctx.db, userId)]);
    const photosByEntry = new Map<string, JournalPhotoRow[]>();
    for (const photo of photoRows) {
      const list = photosByEntry.get(photo.entry_id);
      if (list) list.push(photo);
      else photosByEntry.set(photo.entry_id, [photo]);
    }
    const journal = { revision, entries: rows.map((row) => toCached(openEntry(this.ctx, salt, row), photosByEntry.get(row.id) ?? [])) };
    const current = this.journals.get(userId);
    if (!current || current.revision < revision) this.store(userId, journal);
    return journal;
  }

  private store(userId: string, journal: CachedJournal): void {
    this.forget(userId);
    this.journals.set(userId, journal);
    this.size += journal.entries.length;
    for (const [other, cached] of this.journals) {
      if (this.size <= this.maxEntries || other === userId) break;
      this.size -= cached.entries.length;
      this.journals.delete(other);
    }
  }
}
