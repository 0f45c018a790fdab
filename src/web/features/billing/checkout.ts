import { useMutation } from '@tanstack/react-query';
import { messages } from '../../../shared/messages';
import type { PlanId } from '../../../shared/plans';
import { apiRequest } from '../../api/client';
import { ApiError } from '../../api/errors';
import { CHECKOUT_SESSION_STORAGE_KEY } from '../journal/useCheckoutReturn';

/** Where the browser goes next; a seam so tests can watch the hand-off to checkout. */
export const checkoutBrowser = {
  leaveTo(url: string): void {
    window.location.href = url;
  },
};

/** Spec 8, Checkout Error: the server's message decides which words people see. */
export function checkoutErrorMessage(error: unknown): string {
  const text = error instanceof Error ? error.message.toLowerCase() : '';
  if (text.includes('pricing configuration')) return messages.billing.pricingConfiguration;
  if (text.includes('account configuration')) return messages.billing.accountConfiguration;
  return messages.billing.checkoutFailed;
}

/**
 * POST /api/billing/checkout {plan} → {url, sessionId}: the session id is kept locally (the journal
 * forgets it on return), then the browser goes to the checkout page.
 */
export function useStartCheckout() {
  return useMutation({
    mutationFn: async (plan: PlanId) => {
      const answer = await apiRequest<{ url?: unknown; sessionId?: unknown }>('POST', '/api/billing/checkout', { body: { plan } });
      if (typeof answer?.url !== 'string' || !answer.url || typeof answer.sessionId !== 'string') {
        throw new ApiError(500, 'INVALID_RESPONSE', 'Unexpected response format');
      }
      return { url: answer.url, sessionId: answer.sessionId };
    },
    onSuccess: ({ url, sessionId }) => {
      try {
        localStorage.setItem(CHECKOUT_SESSION_STORAGE_KEY, sessionId);
      } catch {
        // Storage blocked: the return still works from the address.
      }
      checkoutBrowser.leaveTo(url);
    },
  });
}
