import type { EntriesPage, JournalEntry, JournalStats, ServedEntriesPage, ServedEntry } from '../../../shared/journal';
import type { ProfileResponse, SubscriptionResponse } from '../../../shared/profile';
import { apiRequest } from '../../api/client';
import { ApiError } from '../../api/errors';
import { entriesPath, isFilterActive, type SearchFilter } from './filters';
import { changedEntryIn, EntryChangedError } from './entry-changed';
import { postForm } from './http';
import { isVaultJournal, setVaultJournal, vaultJournalCode } from './vault-mode';

/** GET /api/subscription and the part of GET /api/profile the journal screen reads. */
export type SubscriptionStatus = SubscriptionResponse;
export type ProfileSummary = Pick<ProfileResponse, 'is_opted_out' | 'timezone' | 'phone_number' | 'journal_number'>;

/** What the new-entry form and the editor send besides photos. */
export interface EntryDraft {
  content: string;
  title: string;
  /** Comma list, as typed. */
  tags: string;
}

// A Vault journal (vault-mode.ts) is opened, searched and written in this tab by its own code.
const vault = () => vaultJournalCode.load();

export async function fetchEntries(filter: SearchFilter, cursor: string | null, signal?: AbortSignal): Promise<EntriesPage> {
  if (isVaultJournal()) return (await vault()).vaultEntries(filter, cursor, signal);
  const page = await apiRequest<ServedEntriesPage>('GET', entriesPath(filter, cursor), { signal });
  if (!page.vault) return page as EntriesPage;
  setVaultJournal(true);
  return (await vault()).vaultEntries(filter, cursor, signal, isFilterActive(filter) || cursor ? undefined : page);
}

export async function fetchStats(signal?: AbortSignal): Promise<JournalStats> {
  if (isVaultJournal()) return (await vault()).vaultStats();
  return apiRequest<JournalStats>('GET', '/api/stats', { signal });
}

/** GET /api/on-this-day: the entries of today's month and day in earlier years, newest first. */
export async function fetchOnThisDay(signal?: AbortSignal): Promise<JournalEntry[]> {
  if (isVaultJournal()) return (await vault()).vaultOnThisDay();
  const { entries } = await apiRequest<{ entries: ServedEntry[] }>('GET', '/api/on-this-day', { signal });
  if (!entries.some((entry) => entry.content === null)) return entries as JournalEntry[];
  setVaultJournal(true);
  return (await vault()).vaultOnThisDay();
}

/** Null while the server has no such endpoint (404): the screen then shows nothing for it. */
async function unlessMissing<T>(request: Promise<T>): Promise<T | null> {
  try {
    return await request;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export function fetchSubscription(signal?: AbortSignal): Promise<SubscriptionStatus | null> {
  return unlessMissing(apiRequest<SubscriptionStatus>('GET', '/api/subscription', { signal }));
}

export function fetchProfile(signal?: AbortSignal): Promise<ProfileSummary | null> {
  return unlessMissing(apiRequest<ProfileSummary>('GET', '/api/profile', { signal }));
}

/**
 * POST /api/entries. With photos it is one multipart request, so the entry and its photos are
 * saved together or not at all (a retry after a failure cannot leave a photo-less duplicate).
 */
export async function createEntry(draft: EntryDraft, photos: readonly File[], idempotencyKey: string): Promise<JournalEntry> {
  if (isVaultJournal()) return (await vault()).createVaultEntry(draft, photos, idempotencyKey);
  const title = draft.title.trim();
  const tags = draft.tags.trim();
  if (photos.length === 0) {
    return apiRequest<JournalEntry>('POST', '/api/entries', {
      body: { content: draft.content, ...(title && { title }), ...(tags && { tags }) },
      headers: { 'Idempotency-Key': idempotencyKey },
    });
  }
  const form = new FormData();
  form.append('content', draft.content);
  if (title) form.append('title', title);
  if (tags) form.append('tags', tags);
  for (const photo of photos) form.append('photos', photo, photo.name);
  return postForm<JournalEntry>('/api/entries', form, { 'Idempotency-Key': idempotencyKey });
}

/**
 * PATCH /api/entries/:id from the entry's version the editor opened (`baseVersion`): when the entry
 * changed since, nothing is saved and EntryChangedError carries the entry as it reads now.
 */
export async function updateEntry(id: string, draft: EntryDraft, baseVersion: number): Promise<JournalEntry> {
  if (isVaultJournal()) return (await vault()).updateVaultEntry(id, draft, baseVersion);
  try {
    return await apiRequest<JournalEntry>('PATCH', `/api/entries/${encodeURIComponent(id)}`, {
      body: { content: draft.content, title: draft.title.trim() || null, tags: draft.tags, base_version: baseVersion },
    });
  } catch (error) {
    const current = changedEntryIn(error);
    throw current ? new EntryChangedError(current as JournalEntry) : error;
  }
}

export async function deleteEntry(id: string): Promise<void> {
  await apiRequest('DELETE', `/api/entries/${encodeURIComponent(id)}`);
  if (isVaultJournal()) (await vault()).forgetEntry(id);
}

/** POST /api/entries/:id/photos (multipart); answers with the entry as it now is. */
export async function addPhotos(entryId: string, photos: readonly File[]): Promise<JournalEntry> {
  if (isVaultJournal()) return (await vault()).addVaultPhotos(entryId, photos);
  const form = new FormData();
  for (const photo of photos) form.append('photos', photo, photo.name);
  return postForm<JournalEntry>(`/api/entries/${encodeURIComponent(entryId)}/photos`, form);
}

export async function deletePhoto(entryId: string, photoId: string): Promise<void> {
  await apiRequest('DELETE', `/api/entries/${encodeURIComponent(entryId)}/photos/${encodeURIComponent(photoId)}`);
  if (isVaultJournal()) (await vault()).forgetPhoto(entryId, photoId);
}
