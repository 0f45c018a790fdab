import { useQuery } from '@tanstack/react-query';
import { fetchJson, retryOnce } from '../dev-phone/fetch-json';

export interface DevMail {
  id: string;
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string | null;
  at: string;
}

const POLL_MS = 3_000;

/** The simulated outbox, newest first, polled while the page is open. */
export function useDevMail() {
  return useQuery({
    queryKey: ['dev-mail'],
    queryFn: ({ signal }) => fetchJson<{ messages: DevMail[] }>('/api/dev/mail', { signal }),
    refetchInterval: POLL_MS,
    retry: retryOnce,
  });
}
