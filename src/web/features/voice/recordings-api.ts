import { useMutation, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import type { EntriesPage, EntryRecording, JournalEntry } from '../../../shared/journal';
import { apiRequest } from '../../api/client';
import { postForm } from '../journal/http';
import { invalidateJournal, journalKeys } from '../journal/queries';

// An entry's recordings (DESIGN 6). The server seals a vault user's audio and transcript itself (it
// transcribes them first), so the browser sends the audio as recorded for every journal.

const recordingsPath = (entryId: string) => `/api/entries/${encodeURIComponent(entryId)}/recordings`;
const recordingPath = (entryId: string, recordingId: string) => `${recordingsPath(entryId)}/${encodeURIComponent(recordingId)}`;

/** POST /api/entries/:id/recordings (multipart `file`): a voice note recorded here or an audio file. */
export async function uploadRecording(entryId: string, audio: Blob, fileName: string): Promise<EntryRecording> {
  const form = new FormData();
  form.append('file', audio instanceof File ? audio : new File([audio], fileName, { type: audio.type }));
  const { recording } = await postForm<{ recording: EntryRecording }>(recordingsPath(entryId), form);
  return recording;
}

export async function deleteRecording(entryId: string, recordingId: string): Promise<void> {
  await apiRequest('DELETE', recordingPath(entryId, recordingId));
}

/** Asks again for a transcript that failed (202); 409 when it did not fail. */
export async function transcribeAgain(entryId: string, recordingId: string): Promise<void> {
  await apiRequest('POST', `${recordingPath(entryId, recordingId)}/transcribe`);
}

/** Changes one recording in every cached list at once, before the journal is read again. */
function changeCachedRecordings(queryClient: QueryClient, entryId: string, change: (recordings: EntryRecording[]) => EntryRecording[]) {
  const inEntry = (entry: JournalEntry) => (entry.id === entryId ? { ...entry, recordings: change(entry.recordings ?? []) } : entry);
  queryClient.setQueriesData<InfiniteData<EntriesPage>>({ queryKey: journalKeys.entries }, (data) =>
    data && { ...data, pages: data.pages.map((page) => ({ ...page, entries: page.entries.map(inEntry) })) },
  );
}

// Each change reads the journal again: the entry's version, text and recordings all moved.

export function useUploadRecording(entryId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ audio, fileName }: { audio: Blob; fileName: string }) => uploadRecording(entryId, audio, fileName),
    onSettled: () => invalidateJournal(queryClient),
  });
}

export function useDeleteRecording(entryId: string, recordingId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteRecording(entryId, recordingId),
    onSuccess: () => changeCachedRecordings(queryClient, entryId, (recordings) => recordings.filter((r) => r.id !== recordingId)),
    onSettled: () => invalidateJournal(queryClient),
  });
}

export function useTranscribeAgain(entryId: string, recordingId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => transcribeAgain(entryId, recordingId),
    // Accepted: it shows as transcribing at once; the live stream brings the transcript.
    onSuccess: () =>
      changeCachedRecordings(queryClient, entryId, (recordings) => recordings.map((r) => (r.id === recordingId ? { ...r, transcript_status: 'pending' } : r))),
    onSettled: () => invalidateJournal(queryClient),
  });
}
