import { useMutation, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { messages } from '../../../shared/messages';
import { formatUsd } from '../../../shared/plans';
import { apiRequest } from '../../api/client';
import { Button } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { chargeDay } from '../subscribe/FirstCharge';

interface DevSession {
  id: string;
  plan: 'monthly' | 'yearly';
  name: string;
  priceCents: number;
  interval: 'month' | 'year';
  status: 'open' | 'complete' | 'expired';
  /** A free trial the subscription keeps: nothing is charged before it ends. */
  trialEnd: string | null;
}

/** Where the browser goes next; a seam so tests can watch it. */
const devCheckoutBrowser = {
  leaveTo(url: string): void {
    window.location.assign(url);
  },
};

/**
 * /dev/checkout?session=… (local billing simulator only): stands in for the provider's hosted
 * checkout. Pay makes the subscription and returns to the journal with success=true; Cancel
 * returns with canceled=true.
 */
export function DevCheckoutPage() {
  const [params] = useSearchParams();
  const sessionId = params.get('session') ?? '';
  const path = `/api/dev/billing/sessions/${encodeURIComponent(sessionId)}`;
  const session = useQuery({
    queryKey: ['dev-checkout', sessionId],
    queryFn: ({ signal }) => apiRequest<DevSession>('GET', path, { auth: false, signal }),
    enabled: !!sessionId,
    retry: false,
  });
  const act = useMutation({
    mutationFn: (action: 'pay' | 'cancel') => apiRequest<{ redirectTo: string }>('POST', `${path}/${action}`, { auth: false, body: {} }),
    onSuccess: ({ redirectTo }) => devCheckoutBrowser.leaveTo(redirectTo),
  });
  const busy = act.isPending || act.isSuccess;

  return (
    <main className="flex min-h-dvh items-center justify-center bg-stone-100 px-5 py-10">
      <Card className="w-full max-w-md space-y-5">
        <div>
          <p className="text-xs font-semibold tracking-wide text-amber-700 uppercase">Development checkout</p>
          <h1 className="mt-1 font-serif text-2xl font-semibold text-ink">Test payment</h1>
          <p className="mt-1 text-sm text-stone-600">No money moves: this page stands in for the payment provider.</p>
        </div>
        {!sessionId ? (
          <p role="alert" className="text-sm text-red-700">No checkout session in the address.</p>
        ) : session.isPending ? (
          <p className="text-sm text-stone-500">Loading checkout...</p>
        ) : session.isError || !session.data ? (
          <p role="alert" className="text-sm text-red-700">{session.error?.message ?? 'Checkout session not found'}</p>
        ) : session.data.status !== 'open' ? (
          <p role="alert" className="text-sm text-stone-700">This checkout session is no longer open.</p>
        ) : (
          <>
            <div className="rounded-xl bg-stone-50 p-4">
              <p className="text-sm text-stone-600">Jotline {session.data.name}</p>
              <p className="mt-1 font-serif text-3xl font-semibold text-ink">
                {formatUsd(session.data.priceCents)}
                <span className="text-base font-normal text-stone-500">/{session.data.interval}</span>
              </p>
              {session.data.trialEnd && <p className="mt-1 text-sm text-stone-600">{messages.billing.firstChargeOn(chargeDay(new Date(session.data.trialEnd)))}</p>}
            </div>
            {act.isError && (
              <p role="alert" className="text-sm text-red-700">
                {act.error.message}
              </p>
            )}
            <div className="flex flex-col gap-3 sm:flex-row">
              <Button className="flex-1" size="lg" loading={busy && act.variables === 'pay'} disabled={busy} onClick={() => act.mutate('pay')}>
                Pay {formatUsd(session.data.priceCents)}
              </Button>
              <Button className="flex-1" size="lg" variant="secondary" loading={busy && act.variables === 'cancel'} disabled={busy} onClick={() => act.mutate('cancel')}>
                Cancel
              </Button>
            </div>
          </>
        )}
      </Card>
    </main>
  );
}
