import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { fetchJson, retryOnce } from './fetch-json';

export interface DevPhoneText {
  id: string;
  /** From the phone's side: what it sent to the journal number, or received from it. */
  direction: 'sent' | 'received';
  body: string;
  at: string;
}

export interface Conversation {
  phone: string;
  journalNumber: string;
  messages: DevPhoneText[];
}

const POLL_MS = 1_500;
const conversationKey = (phone: string) => ['dev-phone', 'conversation', phone] as const;

/** The phone's conversation with the journal number, polled while the page is open. */
export function useConversation(phone: string | null) {
  return useQuery({
    queryKey: conversationKey(phone ?? ''),
    queryFn: ({ signal }) => fetchJson<Conversation>(`/api/dev/phone/messages?phone=${encodeURIComponent(phone!)}`, { signal }),
    enabled: !!phone,
    refetchInterval: POLL_MS,
    retry: retryOnce,
  });
}

/** Texts the journal number from the phone. */
export function useSendText(phone: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: string) => fetchJson<{ messageSid: string }>('/api/dev/phone/send', { method: 'POST', body: { from: phone, body } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: conversationKey(phone ?? '') }),
  });
}
