import type { EntriesPage, JournalEntry, JournalStats, ServedEntriesPage, ServedEntry } from '../../../../shared/journal';
import { ENTRIES_PAGE_MAX } from '../../../../shared/journal-rules';
import type { VaultView } from '../../../../shared/vault';
import { vaultMessages } from '../../../../shared/vault-messages';
import { apiRequest } from '../../../api/client';
import { ApiError } from '../../../api/errors';
import { localMoment } from '../../journal/dates';
import { isFilterActive, type SearchFilter } from '../../journal/filters';
import type { ProfileSummary } from '../../journal/journal-api';
import { setVaultJournal, takeVaultJournalStale } from '../../journal/vault-mode';
import { subscribeToVaultKeys, vaultKeys } from '../key-store';
import type { VaultKeys } from '../vault-crypto';
import { inPlace, listOrder, localEntry, onThisDayOf, pageOf, statsOf, type LocalEntry } from './local-journal';
import { VaultLockedError } from './locked';
import { forgetOpenedSegments, openServedEntry } from './open-entry';
import { forgetOpenedPhotos } from './photos';

export { VaultLockedError } from './locked';
export { openedPhotoUrl } from './photos';
export { openedRecordingUrl } from '../../voice/vault-recordings';
export { exportInBrowser } from './export';
export { addVaultPhotos, createVaultEntry, updateVaultEntry } from './write';

// A Vault journal opened in this tab: the first page at once, then all of it, so search, filters,
// statistics and On This Day run here over the opened text (docs/vault.md §5). Read again in part
// when the journal changes, whole when its photo links grow old; forgotten when the vault locks.

/** Photo links last an hour: the whole journal is read again before the oldest run out. */
const LINKS_FRESH_MS = 45 * 60_000;

interface OpenedJournal {
  entries: LocalEntry[];
  readAt: number;
}

let journal: OpenedJournal | null = null;
let loading: Promise<OpenedJournal> | null = null;
let refreshing: Promise<unknown> = Promise.resolve();
let profileZone: Promise<string | undefined> | null = null;
/** Bumped when the vault locks: work begun before it must not store what it opened. */
let generation = 0;

subscribeToVaultKeys(() => {
  if (vaultKeys()) return;
  generation += 1;
  journal = null;
  loading = null;
  profileZone = null;
  forgetOpenedSegments();
  forgetOpenedPhotos();
});

function requireKeys(): VaultKeys {
  const keys = vaultKeys();
  if (!keys) throw new VaultLockedError();
  return keys;
}

/** A page of the journal as the server sends it; without `vault` the vault was turned off meanwhile. */
async function servedPage(query: string, signal?: AbortSignal): Promise<ServedEntriesPage> {
  const page = await apiRequest<ServedEntriesPage>('GET', `/api/entries${query ? `?${query}` : ''}`, { signal });
  if (!page.vault) {
    setVaultJournal(false);
    throw new ApiError(409, 'VAULT_OFF', vaultMessages.journal.turnedOff);
  }
  return page;
}

const openAll = (keys: VaultKeys, served: readonly ServedEntry[]) => Promise.all(served.map((entry) => openServedEntry(keys, entry)));
const pageQuery = (cursor: string | null) => `limit=${ENTRIES_PAGE_MAX}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;

async function readWhole(keys: VaultKeys): Promise<OpenedJournal> {
  const readAt = Date.now();
  const entries: LocalEntry[] = [];
  let cursor: string | null = null;
  do {
    const page = await servedPage(pageQuery(cursor));
    entries.push(...(await openAll(keys, page.entries)).map(localEntry));
    cursor = page.nextCursor;
  } while (cursor);
  return { entries: inPlace(entries), readAt };
}

/** The whole journal, read once per unlock (and again when its links grow old). */
function wholeJournal(keys: VaultKeys): Promise<OpenedJournal> {
  if (journal) return Promise.resolve(journal);
  if (!loading) {
    const started = generation;
    loading = readWhole(keys).then(
      (read) => {
        if (generation !== started) throw new VaultLockedError();
        journal = read;
        return read;
      },
      (error: unknown) => {
        if (generation === started) loading = null;
        throw error;
      },
    );
  }
  return loading;
}

/**
 * The journal changed: its newest entries are read again, page by page, until a page brings nothing
 * new; whatever sorted among them and is gone was deleted. Should the count then differ from the
 * server's (a change further down, made elsewhere), or the links be old, all of it is read again.
 */
async function refresh(keys: VaultKeys): Promise<void> {
  const before = journal;
  const started = generation;
  if (!before) return;
  let read: OpenedJournal;
  if (Date.now() - before.readAt > LINKS_FRESH_MS) read = await readWhole(keys);
  else {
    const known = new Map(before.entries.map((local) => [local.entry.id, local.entry]));
    const fresh: LocalEntry[] = [];
    let cursor: string | null = null;
    let unchanged = false;
    do {
      const page = await servedPage(pageQuery(cursor));
      const opened = await openAll(keys, page.entries);
      fresh.push(...opened.map(localEntry));
      unchanged = opened.every((entry) => known.get(entry.id)?.updated_at === entry.updated_at && known.get(entry.id)?.photos.length === entry.photos.length);
      cursor = page.nextCursor;
    } while (cursor && !unchanged);
    const freshIds = new Set(fresh.map((local) => local.entry.id));
    // Placed among everything known, as the server placed the pages.
    const placed = inPlace([...fresh, ...before.entries.filter((local) => !freshIds.has(local.entry.id))]);
    const placeOf = new Map(placed.map((local) => [local.entry.id, local.place]));
    const last = fresh.at(-1) && placeOf.get(fresh.at(-1)!.entry.id);
    const rest = !cursor || !last ? [] : before.entries.filter((local) => !freshIds.has(local.entry.id) && listOrder(placeOf.get(local.entry.id)!, last) > 0);
    read = { entries: inPlace([...fresh, ...rest]), readAt: before.readAt };
    const vault = await apiRequest<VaultView>('GET', '/api/vault');
    if (vault.total_entries !== read.entries.length) read = await readWhole(keys);
  }
  if (generation === started) journal = read;
}

/** The opened journal, read again first if it changed since. */
async function currentJournal(keys: VaultKeys): Promise<OpenedJournal> {
  if (!journal) return wholeJournal(keys);
  if (takeVaultJournalStale()) refreshing = refreshing.then(() => refresh(keys));
  await refreshing;
  if (!journal) throw new VaultLockedError();
  return journal;
}

/**
 * GET /api/entries for a Vault journal. Before the whole journal is open, the first page of an
 * unfiltered list is opened on its own (`served`, when the server's answer is at hand), so the first
 * screen waits for twenty entries, not ten years; the rest is read meanwhile.
 */
export async function vaultEntries(filter: SearchFilter, cursor: string | null, signal?: AbortSignal, served?: ServedEntriesPage): Promise<EntriesPage> {
  const keys = requireKeys();
  if (!journal && cursor === null && !isFilterActive(filter)) {
    const first = served ?? (await servedPage('', signal));
    const entries = await openAll(keys, first.entries);
    wholeJournal(keys).catch(() => undefined);
    return { entries, nextCursor: first.nextCursor };
  }
  const opened = await currentJournal(keys);
  const started = performance.now();
  const page = pageOf(opened.entries, filter, cursor);
  // What bench/vault-journal.mjs reads as the search's own time (without drawing the cards).
  performance.measure('vault-search', { start: started });
  return page;
}

/** The user's zone (where the journal's days are counted), asked once per unlock. */
export function journalZone(): Promise<string | undefined> {
  profileZone ??= apiRequest<ProfileSummary | null>('GET', '/api/profile').then((profile) => profile?.timezone || undefined);
  return profileZone;
}

async function today(): Promise<string> {
  return localMoment(new Date(), await journalZone())!.date;
}

/** GET /api/stats, counted here. */
export async function vaultStats(): Promise<JournalStats> {
  const opened = await currentJournal(requireKeys());
  return statsOf(opened.entries, await today());
}

/** GET /api/on-this-day, found here. */
export async function vaultOnThisDay(): Promise<JournalEntry[]> {
  const opened = await currentJournal(requireKeys());
  return onThisDayOf(opened.entries, await today());
}

/** Every opened entry in list order (for an export made here). */
export async function wholeVaultJournal(): Promise<JournalEntry[]> {
  return (await currentJournal(requireKeys())).entries.map((local) => local.entry);
}

/** After a write here: the entry as the server now has it (sealed), opened into the journal. */
export async function keepEntry(served: ServedEntry): Promise<JournalEntry> {
  const keys = requireKeys();
  const entry = await openServedEntry(keys, served);
  if (journal) {
    const entries = inPlace([...journal.entries.filter((local) => local.entry.id !== entry.id), localEntry(entry)]);
    journal = { ...journal, entries };
  }
  return entry;
}

/** After a deletion here. */
export function forgetEntry(entryId: string): void {
  if (journal) journal = { ...journal, entries: journal.entries.filter((local) => local.entry.id !== entryId) };
}

export function forgetPhoto(entryId: string, photoId: string): void {
  if (!journal) return;
  journal = {
    ...journal,
    entries: journal.entries.map((local) => (local.entry.id === entryId ? { ...localEntry({ ...local.entry, photos: local.entry.photos.filter((p) => p.id !== photoId) }), place: local.place } : local)),
  };
}
