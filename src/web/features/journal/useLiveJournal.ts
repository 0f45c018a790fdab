import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { refreshIfExpiring } from '../../api/client';
import { sessionStore } from '../../api/session-store';
import { invalidateJournal } from './queries';

/** Spec 9: realtime refreshes are debounced by 100 ms. */
export const LIVE_REFRESH_DEBOUNCE_MS = 100;
/** After the stream is refused or lost for good, try again this much later. */
export const LIVE_RECONNECT_MS = 5_000;

const currentToken = () => sessionStore.get()?.access_token ?? null;

/**
 * Keeps the journal fresh while it is open: listens to GET /api/events (server-sent events; the
 * token goes in the query because EventSource cannot send headers) and refetches entries and
 * statistics shortly after `entries.changed`. A new token (refresh, other tab) reopens the stream
 * with it; a refused stream reconnects later with a fresh one.
 */
export function useLiveJournal(): void {
  const queryClient = useQueryClient();
  const token = useSyncExternalStore(sessionStore.subscribe, currentToken, () => null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!token || typeof EventSource === 'undefined') return;
    let debounce: ReturnType<typeof setTimeout> | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let openedBefore = false;
    const refresh = () => {
      clearTimeout(debounce);
      debounce = setTimeout(() => void invalidateJournal(queryClient), LIVE_REFRESH_DEBOUNCE_MS);
    };

    const source = new EventSource(`/api/events?access_token=${encodeURIComponent(token)}`);
    source.addEventListener('entries.changed', refresh);
    source.addEventListener('open', () => {
      // Back after a drop: whatever changed meanwhile was not heard.
      if (openedBefore) refresh();
      openedBefore = true;
    });
    source.addEventListener('error', () => {
      // The browser retries a dropped stream itself; a refused one (401, expired token) is closed.
      if (source.readyState !== EventSource.CLOSED) return;
      retry = setTimeout(() => {
        void refreshIfExpiring()
          .catch(() => undefined)
          .finally(() => setAttempt((n) => n + 1));
      }, LIVE_RECONNECT_MS);
    });

    return () => {
      clearTimeout(debounce);
      clearTimeout(retry);
      source.close();
    };
  }, [token, attempt, queryClient]);
}
