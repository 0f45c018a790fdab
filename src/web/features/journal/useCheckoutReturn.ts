import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { apiRequest } from '../../api/client';
import { journalCopy } from './copy';
import { journalKeys } from './queries';

/** Where the checkout start keeps the session id it is waiting for (spec 7: saved locally). */
export const CHECKOUT_SESSION_STORAGE_KEY = 'jotline.checkoutSessionId';

function completeCheckout(sessionId: string): Promise<unknown> {
  return apiRequest('POST', '/api/billing/checkout/complete', { body: { session_id: sessionId } });
}

/**
 * Spec 2: coming back from checkout. success=true with session_id says the subscription is
 * active (and forgets the stored checkout id); canceled=true says nothing changed. Either way
 * the address goes back to plain /journal.
 */
export function useCheckoutReturn(): void {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const handled = useRef(false);
  const success = params.get('success') === 'true' && !!params.get('session_id');
  const canceled = params.get('canceled') === 'true';

  useEffect(() => {
    if (!success && !canceled) {
      handled.current = false;
      return;
    }
    if (handled.current) return;
    handled.current = true;
    if (success) {
      try {
        localStorage.removeItem(CHECKOUT_SESSION_STORAGE_KEY);
      } catch {
        // Storage blocked: nothing was stored.
      }
      // Ask the server to read the new subscription now rather than wait for the provider's webhook.
      const sessionId = params.get('session_id')!;
      void completeCheckout(sessionId)
        .catch(() => undefined)
        .finally(() => void queryClient.invalidateQueries({ queryKey: journalKeys.subscription }));
      toast.success(journalCopy.checkoutSuccessTitle, { id: 'checkout-return', description: journalCopy.checkoutSuccess });
    } else {
      toast(journalCopy.checkoutCanceledTitle, { id: 'checkout-return', description: journalCopy.checkoutCanceled });
    }
    navigate('/journal', { replace: true });
  }, [success, canceled, navigate, queryClient, params]);
}
