import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  usePrefetchInfiniteQuery,
  usePrefetchQuery,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import type { EntriesPage, JournalEntry } from '../../../shared/journal';
import { ApiError } from '../../api/errors';
import type { SearchFilter } from './filters';
import * as api from './journal-api';
import { markVaultJournalStale } from './vault-mode';

/** Every query key the journal uses, in one place. */
export const journalKeys = {
  entries: ['journal', 'entries'] as const,
  entryList: (filter: SearchFilter) => ['journal', 'entries', filter] as const,
  stats: ['journal', 'stats'] as const,
  subscription: ['subscription'] as const,
  profile: ['profile'] as const,
  /** Outside entries: its answer is {entries}, not pages of a list. */
  onThisDay: ['journal', 'on-this-day'] as const,
};

/** Spec 9: the entry read retries 2 times. An answer that will not change (4xx) is not retried. */
function retryEntryRead(failureCount: number, error: unknown): boolean {
  const permanent = error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 408 && error.status !== 429;
  return !permanent && failureCount < 2;
}

/**
 * The journal's reads count as fresh this long: the list mounting just after the page asked for
 * them does not ask again. Changes still show at once: the live stream and every edit invalidate.
 */
const FRESH_MS = 30_000;

const entriesQuery = (filter: SearchFilter) =>
  infiniteQueryOptions({
    queryKey: journalKeys.entryList(filter),
    queryFn: ({ pageParam, signal }) => api.fetchEntries(filter, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last: EntriesPage) => last.nextCursor ?? undefined,
    retry: retryEntryRead,
    staleTime: FRESH_MS,
  });

const statsQuery = queryOptions({ queryKey: journalKeys.stats, queryFn: ({ signal }) => api.fetchStats(signal), retry: retryEntryRead, staleTime: FRESH_MS });

const profileQuery = queryOptions({
  queryKey: journalKeys.profile,
  queryFn: ({ signal }) => api.fetchProfile(signal),
  retry: retryEntryRead,
  staleTime: FRESH_MS,
});

/** The filtered entries, newest first, a page at a time (nextCursor). */
export function useEntries(filter: SearchFilter, { enabled = true }: { enabled?: boolean } = {}) {
  return useInfiniteQuery({ ...entriesQuery(filter), enabled });
}

export function useStats() {
  return useQuery(statsQuery);
}

/**
 * Asks for the first screen's entries, statistics and profile at once, beside the subscription
 * status: waiting for that answer first cost the list a round trip on every load. A lapsed account's
 * entries are refused (402) by the server, and the page shows the upgrade offer instead.
 */
export function usePrefetchJournal(filter: SearchFilter): void {
  usePrefetchInfiniteQuery(entriesQuery(filter));
  usePrefetchQuery(statsQuery);
  usePrefetchQuery(profileQuery);
}

/** Spec 9: subscription status is cached 5 minutes and not refetched on focus. Null: no endpoint yet. */
export function useSubscription() {
  return useQuery({
    queryKey: journalKeys.subscription,
    queryFn: ({ signal }) => api.fetchSubscription(signal),
    staleTime: 5 * 60 * 1000,
    refetchOnWindowFocus: false,
    retry: retryEntryRead,
  });
}

/** Null: no endpoint yet. */
export function useProfile() {
  return useQuery(profileQuery);
}

/**
 * The profile as already loaded by the page (the journal's banners, settings), read without a request
 * of its own: for details such as the timezone or the journal number that many components show.
 */
export function useLoadedProfile() {
  // Disabled rather than skipToken: a query runs with its last observer's queryFn, and a skipToken one
  // made the profile's refetch after \`profile.updated\` fail once the list had mounted.
  return useQuery({ ...profileQuery, enabled: false }).data ?? undefined;
}

/** After any change to entries: the lists and the statistics are refetched. */
export function invalidateJournal(queryClient: QueryClient): Promise<void> {
  // A Vault journal opened in this tab reads what changed before the lists are read again.
  markVaultJournalStale();
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: journalKeys.entries }),
    queryClient.invalidateQueries({ queryKey: journalKeys.stats }),
    queryClient.invalidateQueries({ queryKey: journalKeys.onThisDay }),
  ]).then(() => undefined);
}

/** Puts the server's copy of an entry into every cached list at once, before the refetch lands. */
function replaceCachedEntry(queryClient: QueryClient, entry: JournalEntry) {
  queryClient.setQueriesData<InfiniteData<EntriesPage>>({ queryKey: journalKeys.entries }, (data) =>
    data && {
      ...data,
      pages: data.pages.map((page) => ({ ...page, entries: page.entries.map((e) => (e.id === entry.id ? entry : e)) })),
    },
  );
}

function removeCachedEntry(queryClient: QueryClient, id: string) {
  queryClient.setQueriesData<InfiniteData<EntriesPage>>({ queryKey: journalKeys.entries }, (data) =>
    data && { ...data, pages: data.pages.map((page) => ({ ...page, entries: page.entries.filter((e) => e.id !== id) })) },
  );
}

export function useCreateEntry() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ draft, photos, idempotencyKey }: { draft: api.EntryDraft; photos: readonly File[]; idempotencyKey: string }) =>
      api.createEntry(draft, photos, idempotencyKey),
    onSuccess: () => invalidateJournal(queryClient),
  });
}

interface EntryChanges {
  /** The text to save, from the entry's version the editor opened; null when only photos change. */
  text: { draft: api.EntryDraft; baseVersion: number } | null;
  removePhotoIds: readonly string[];
  addPhotos: readonly File[];
}

/** The text of an edit was saved, its photo changes were not: `cause` says why. */
export class PhotosNotSavedError extends Error {
  constructor(cause: unknown) {
    super('photos not saved', { cause });
    this.name = 'PhotosNotSavedError';
  }
}

/**
 * Saves an edit: the text first (refused, with nothing saved, when the entry changed since the
 * editor opened it: EntryChangedError), then photo removals, then new photos (PhotosNotSavedError
 * when those fail after the text was saved). Answers with the entry as saved.
 */
export function useUpdateEntry(entryId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ text, removePhotoIds, addPhotos }: EntryChanges) => {
      const saved = text ? await api.updateEntry(entryId, text.draft, text.baseVersion) : undefined;
      try {
        for (const photoId of removePhotoIds) await api.deletePhoto(entryId, photoId);
        if (addPhotos.length > 0) return await api.addPhotos(entryId, addPhotos);
      } catch (error) {
        if (saved) throw new PhotosNotSavedError(error);
        throw error;
      }
      return saved && { ...saved, photos: saved.photos.filter((p) => !removePhotoIds.includes(p.id)) };
    },
    onSuccess: (entry) => entry && replaceCachedEntry(queryClient, entry),
    // Part of an edit may have been saved before a failure, so refetch either way.
    onSettled: () => invalidateJournal(queryClient),
  });
}

export function useDeleteEntry(entryId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.deleteEntry(entryId),
    onSuccess: () => removeCachedEntry(queryClient, entryId),
    onSettled: () => invalidateJournal(queryClient),
  });
}
