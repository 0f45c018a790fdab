import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import { apiRequest } from '../../api/client';
import { sessionStore } from '../../api/session-store';
import { invalidateJournal, journalKeys } from './queries';

/** Spec 9: realtime refreshes are debounced by 100 ms. */
export const LIVE_REFRESH_DEBOUNCE_MS = 100;
/** After the stream is refused (or no ticket could be had), open a new one this much later. */
export const LIVE_RECONNECT_MS = 5_000;

/** Whose journal is open; a new user (or none) reopens (or closes) the stream. */
const signedInUser = () => sessionStore.get()?.user.id ?? null;

/**
 * Keeps the journal fresh while it is open: listens to GET /api/events (server-sent events) and
 * refetches entries and statistics shortly after `entries.changed`, and the profile after
 * `profile.updated` (texting STOP shows the opted-out banner at once). EventSource cannot send
 * headers, so each connection first trades the session for a single-use ticket
 * (POST /api/events/ticket) and puts only that in the address, never the access token. When the
 * stream drops, the browser reconnects by itself: the ticket's answer also set a stream cookie
 * that lets it back in, and the server replays what it missed from Last-Event-ID. Only when the
 * browser gives up (refused: signed out, the cookie expired) is a new ticket asked for, later.
 */
export function useLiveJournal(): void {
  const queryClient = useQueryClient();
  const userId = useSyncExternalStore(sessionStore.subscribe, signedInUser, () => null);

  useEffect(() => {
    if (!userId || typeof EventSource === 'undefined') return;
    let stopped = false;
    let source: EventSource | undefined;
    let debounce: ReturnType<typeof setTimeout> | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const refresh = () => {
      clearTimeout(debounce);
      debounce = setTimeout(() => void invalidateJournal(queryClient), LIVE_REFRESH_DEBOUNCE_MS);
    };
    const reconnectLater = () => {
      if (!stopped) retry = setTimeout(() => void connect(), LIVE_RECONNECT_MS);
    };

    const connect = async () => {
      let ticket: string;
      try {
        ({ ticket } = await apiRequest<{ ticket: string }>('POST', '/api/events/ticket'));
      } catch {
        reconnectLater();
        return;
      }
      if (stopped) return;
      const stream = new EventSource(`/api/events?ticket=${encodeURIComponent(ticket)}`);
      source = stream;
      stream.addEventListener('entries.changed', refresh);
      // STOP, START or a change made in another tab: the banners and settings read the profile.
      stream.addEventListener('profile.updated', () => void queryClient.invalidateQueries({ queryKey: journalKeys.profile }));
      // Whatever changed between reading the journal and the stream opening was not heard: a text
      // sent as the page opened, or anything during a drop. Read it again once the stream is open.
      stream.addEventListener('open', refresh);
      // The session was signed out (from Settings on another device, or everywhere): ask for a
      // ticket now, whose refusal ends this tab's session and takes it to the sign-in page.
      stream.addEventListener('signed-out', () => {
        stream.close();
        void connect();
      });
      stream.addEventListener('error', () => {
        // Still CONNECTING: the browser is reconnecting by itself. CLOSED: it was refused and gave up.
        if (stream.readyState !== EventSource.CLOSED) return;
        stream.close();
        reconnectLater();
      });
    };
    void connect();

    return () => {
      stopped = true;
      clearTimeout(debounce);
      clearTimeout(retry);
      source?.close();
    };
  }, [userId, queryClient]);
}
