import type { EntriesPage, JournalEntry, JournalStats } from '../../../shared/journal';
import type { ProfileResponse, SubscriptionResponse } from '../../../shared/profile';
import { apiRequest } from '../../api/client';
import { ApiError } from '../../api/errors';
import { entriesPath, type SearchFilter } from './filters';
import { postForm } from './http';

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

export function fetchEntries(filter: SearchFilter, cursor: string | null, signal?: AbortSignal): Promise<EntriesPage> {
  return apiRequest<EntriesPage>('GET', entriesPath(filter, cursor), { signal });
}

export function fetchStats(signal?: AbortSignal): Promise<JournalStats> {
  return apiRequest<JournalStats>('GET', '/api/stats', { signal });
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
export function createEntry(draft: EntryDraft, photos: readonly File[]): Promise<JournalEntry> {
  const title = draft.title.trim();
  const tags = draft.tags.trim();
  if (photos.length === 0) {
    return apiRequest<JournalEntry>('POST', '/api/entries', {
      body: { content: draft.content, ...(title && { title }), ...(tags && { tags }) },
    });
  }
  const form = new FormData();
  form.append('content', draft.content);
  if (title) form.append('title', title);
  if (tags) form.append('tags', tags);
  for (const photo of photos) form.append('photos', photo, photo.name);
  return postForm<JournalEntry>('/api/entries', form);
}

export function updateEntry(id: string, draft: EntryDraft): Promise<JournalEntry> {
  return apiRequest<JournalEntry>('PATCH', `/api/entries/${encodeURIComponent(id)}`, {
    body: { content: draft.content, title: draft.title.trim() || null, tags: draft.tags },
  });
}

export async function deleteEntry(id: string): Promise<void> {
  await apiRequest('DELETE', `/api/entries/${encodeURIComponent(id)}`);
}

/** POST /api/entries/:id/photos (multipart); answers with the entry as it now is. */
export function addPhotos(entryId: string, photos: readonly File[]): Promise<JournalEntry> {
  const form = new FormData();
  for (const photo of photos) form.append('photos', photo, photo.name);
  return postForm<JournalEntry>(`/api/entries/${encodeURIComponent(entryId)}/photos`, form);
}

export async function deletePhoto(entryId: string, photoId: string): Promise<void> {
  await apiRequest('DELETE', `/api/entries/${encodeURIComponent(entryId)}/photos/${encodeURIComponent(photoId)}`);
}
