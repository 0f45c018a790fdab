import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../api/client';
import { ApiError } from '../../api/errors';

/** Where the browser goes next; a seam so tests can watch the hand-off to the billing portal. */
export const portalBrowser = {
  leaveTo(url: string): void {
    window.location.assign(url);
  },
};

/** POST /api/billing/portal → {url}, then off to the billing portal (the provider's, or the simulator's). */
export function useBillingPortal() {
  return useMutation({
    mutationFn: async () => {
      const answer = await apiRequest<{ url?: unknown }>('POST', '/api/billing/portal');
      if (typeof answer?.url !== 'string' || !answer.url) throw new ApiError(500, 'INVALID_RESPONSE', 'Unexpected response format');
      return answer.url;
    },
    onSuccess: (url) => portalBrowser.leaveTo(url),
  });
}
