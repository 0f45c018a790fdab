import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ProfileResponse, ProfileUpdate } from '../../../shared/profile';
import { apiRequest } from '../../api/client';
import { ApiError } from '../../api/errors';
import { journalKeys } from '../../features/journal';

/**
 * GET /api/profile, under the journal's key so both screens share one cache (the journal's
 * opt-out banner sees a save here at once).
 */
export function useSettingsProfile() {
  return useQuery({
    queryKey: journalKeys.profile,
    queryFn: ({ signal }) => apiRequest<ProfileResponse | null>('GET', '/api/profile', { signal }),
  });
}

/** PATCH /api/profile with only the changed fields; the answer becomes the cached profile. */
export function useUpdateSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: ProfileUpdate) => apiRequest<ProfileResponse>('PATCH', '/api/profile', { body: changes }),
    onSuccess: (profile) => queryClient.setQueryData(journalKeys.profile, profile),
  });
}

/** Where the browser goes next; a seam so tests can watch the hand-off to the billing portal. */
export const browser = {
  leaveTo(url: string): void {
    window.location.assign(url);
  },
};

/** POST /api/billing/portal → {url}, then off to the provider's billing portal. */
export function useOpenBillingPortal() {
  return useMutation({
    mutationFn: async () => {
      const answer = await apiRequest<{ url?: unknown }>('POST', '/api/billing/portal');
      if (typeof answer?.url !== 'string' || !answer.url) throw new ApiError(500, 'INVALID_RESPONSE', 'Unexpected response format');
      return answer.url;
    },
    onSuccess: (url) => browser.leaveTo(url),
  });
}
