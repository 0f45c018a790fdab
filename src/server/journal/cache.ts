import { decryptPhotoRows } from '../at-rest/photo-files';
import type { AppContext } from '../context';
import type { JournalPhotoRow } from '../db/tables';
import { inListOrder } from '../../shared/journal-order';
import type { CachedEntry } from './cached-entry';
import { decryptEntry, type DecryptedEntry } from './entry-cipher';
import { ownerSalt } from './owner';
import { currentRevision, findEntry, findJournalSeal, listEntries, listEntryPhotos, listPhotos } from './repo';
import { searchableText } from './search';
import { recordingsByEntry, type DecryptedRecording } from '../voice/present';

export type { CachedEntry } from './cached-entry';

interface CachedJournal {
  revision: number;
  /** In list order (listOrder); replaced, never mutated, so readers hold a snapshot. */
  entries: readonly CachedEntry[];
  /** Whether the owner has a Vault (any state but off): its sealed entries are opened in the browser. */
  vault: boolean;
  /** About what the journal takes in memory. */
  bytes: number;
}

/** A journal as one revision of it reads: its entries, and whether it has a Vault. */
type JournalSnapshot = Pick<CachedJournal, 'entries' | 'vault'>;

// What an entry and a photo row take besides their text, measured with bench/cache-memory.mjs.
const ENTRY_OVERHEAD_BYTES = 330;
const PHOTO_OVERHEAD_BYTES = 350;
const RECORDING_OVERHEAD_BYTES = 400;

/** V8 keeps a string one byte a character when every character is Latin-1, else two. */
// eslint-disable-next-line no-control-regex
const charBytes = (text: string) => (/[^\u0000-\u00ff]/.test(text) ? 2 : 1);

function bytesOf(entry: CachedEntry): number {
  // The text is held twice: as written, and folded for search. A Vault entry holds its sealed segments.
  const chars = entry.content.length + (entry.title?.length ?? 0) + entry.searchText.length + (entry.sealed?.reduce((n, s) => n + s.length, 0) ?? 0);
  const recordings = entry.recordings.reduce((n, r) => n + RECORDING_OVERHEAD_BYTES + (r.transcript?.length ?? 0) * 2, 0);
  return chars * charBytes(entry.content) + ENTRY_OVERHEAD_BYTES + entry.photos.length * PHOTO_OVERHEAD_BYTES + recordings;
}

function toCached(entry: DecryptedEntry, photos: JournalPhotoRow[], recordings: DecryptedRecording[] = []): CachedEntry {
  return { ...entry, photos, recordings, foldedTags: entry.tags.map((t) => t.toLowerCase()), searchText: searchableText(entry), placed_at: entry.created_at };
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
   * The user's whole journal in list order, decrypted and current: as of `knownRevision` when the
   * caller has just read the journal's revision itself, else as of a revision read now.
   */
  async entries(userId: string, knownRevision?: number): Promise<readonly CachedEntry[]> {
    return (await this.journal(userId, knownRevision)).entries;
  }

  /** The same, with whether the journal has a Vault (as of the same revision). */
  async journal(userId: string, knownRevision?: number): Promise<JournalSnapshot> {
    const revision = knownRevision ?? (await currentRevision(this.ctx.db, userId));
    if (revision === 0) {
      // Every write bumps the revision in its transaction: no revision row, no entries (ever, or
      // any longer: the account was deleted).
      this.forget(userId);
      return { entries: [], vault: false };
    }
    const cached = this.journals.get(userId);
    if (cached && cached.revision >= revision) {
      this.store(userId, cached); // most recently used
      return cached;
    }
    const key = `${userId}:${revision}`;
    let pending = this.loading.get(key);
    if (!pending) {
      pending = this.load(userId, revision).finally(() => this.loading.delete(key));
      this.loading.set(key, pending);
    }
    return pending;
  }

  /**
   * After a committed change that moved the journal to `revision` and touched `entryIds` (changed,
   * added or deleted): those entries are read again when the cache held the revision just before;
   * otherwise the journal is forgotten and reloads on demand. A change that turns a Vault on or off
   * (vault/service.ts) forgets the journal instead, so it is read again with the Vault.
   */
  async entriesChanged(userId: string, revision: number, entryIds: readonly string[]): Promise<void> {
    const before = this.journals.get(userId);
    if (!before || before.revision !== revision - 1) return this.forget(userId);
    const ids = new Set(entryIds);
    const salt = await ownerSalt(this.ctx, userId);
    const changed = await Promise.all(
      [...ids].map(async (id) => ({
        row: await findEntry(this.ctx.db, userId, id),
        photos: await listEntryPhotos(this.ctx.db, userId, id),
        recordings: (await recordingsByEntry(this.ctx, this.ctx.db, userId, salt, id)).get(id) ?? [],
      })),
    );
    if (this.journals.get(userId) !== before) return this.forget(userId);
    const entries = before.entries.filter((entry) => !ids.has(entry.id));
    for (const { row, photos, recordings } of changed) {
      if (row) entries.push(toCached(decryptEntry(this.ctx, salt, row), decryptPhotoRows(this.ctx, userId, salt, photos), recordings));
    }
    this.store(userId, journalOf(revision, inListOrder(entries), before.vault));
  }

  forget(userId: string): void {
    const cached = this.journals.get(userId);
    if (!cached) return;
    this.bytes -= cached.bytes;
    this.journals.delete(userId);
  }

  private async load(userId: string, revision: number): Promise<CachedJournal> {
    // Read the revision first, then the rows: the rows are at least that new.
    const salt = await ownerSalt(this.ctx, userId);
    const [rows, photoRows, recordings, vault] = await Promise.all([
      listEntries(this.ctx.db, userId),
      listPhotos(this.ctx.db, userId),
      recordingsByEntry(this.ctx, this.ctx.db, userId, salt),
      findJournalSeal(this.ctx.db, userId).then((row) => row !== undefined),
    ]);
    const photosByEntry = new Map<string, JournalPhotoRow[]>();
    for (const photo of decryptPhotoRows(this.ctx, userId, salt, photoRows)) {
      const list = photosByEntry.get(photo.entry_id);
      if (list) list.push(photo);
      else photosByEntry.set(photo.entry_id, [photo]);
    }
    const entries = inListOrder(rows.map((row) => toCached(decryptEntry(this.ctx, salt, row), photosByEntry.get(row.id) ?? [], recordings.get(row.id) ?? [])));
    const journal = journalOf(revision, entries, vault);
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

function journalOf(revision: number, entries: readonly CachedEntry[], vault: boolean): CachedJournal {
  return { revision, entries, vault, bytes: entries.reduce((n, entry) => n + bytesOf(entry), 0) };
}
