import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ImportProgress, ImportProgressEvent } from '../../../shared/import';
import { apiRequest } from '../../api/client';

/** While an import runs, its status is read this often besides what the event stream says. */
const IMPORT_POLL_MS = 3_000;

export const importKey = (id: string) => ['import', id] as const;

const running = (progress: ImportProgress | undefined) => !progress || progress.status === 'queued' || progress.status === 'running';

export const importRunning = running;

/**
 * How an import stands (GET /api/imports/:id), kept current by the user's event stream
 * (`import.progress`, counts only) and, should the stream be down, by a slow poll. When the
 * import ends it is read once more for the summary's reasons.
 */
export function useImportProgress(id: string | null) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: importKey(id ?? ''),
    queryFn: () => apiRequest<ImportProgress>('GET', `/api/imports/${id}`),
    enabled: id !== null,
    refetchInterval: (q) => (running(q.state.data) ? IMPORT_POLL_MS : false),
  });

  useEffect(() => {
    if (!id || typeof EventSource === 'undefined') return;
    let stream: EventSource | undefined;
    let stopped = false;
    void apiRequest<{ ticket: string }>('POST', '/api/events/ticket').then(
      ({ ticket }) => {
        if (stopped) return;
        stream = new EventSource(`/api/events?ticket=${encodeURIComponent(ticket)}`);
        stream.addEventListener('import.progress', (message) => {
          const event = JSON.parse((message as MessageEvent<string>).data) as ImportProgressEvent;
          if (event.import_id !== id) return;
          const { type: _type, import_id: _id, ...counts } = event;
          // The end is read whole (with its reasons); until then the counts move the bar.
          if (counts.status === 'done' || counts.status === 'failed') void queryClient.invalidateQueries({ queryKey: importKey(id) });
          else queryClient.setQueryData<ImportProgress>(importKey(id), (before) => (before ? { ...before, ...counts } : before));
        });
        // A dropped stream is not reopened: the poll carries on.
        stream.addEventListener('error', () => stream?.close());
      },
      () => undefined,
    );
    return () => {
      stopped = true;
      stream?.close();
    };
  }, [id, queryClient]);

  return query;
}
