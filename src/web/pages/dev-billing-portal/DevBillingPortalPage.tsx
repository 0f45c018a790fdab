import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { messages } from '../../../shared/messages';
import { formatUsd, PLANS, type PlanId } from '../../../shared/plans';
import { apiRequest } from '../../api/client';
import { Alert } from '../../components/ui/Alert';
import { Button, buttonClasses } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';

const copy = messages.billingManagement;

interface PortalSubscription {
  plan: PlanId;
  name: string;
  priceCents: number;
  interval: 'month' | 'year';
  status: string;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
}

interface PortalView {
  returnUrl: string;
  subscription: PortalSubscription | null;
}

type Change = { kind: 'plan'; plan: PlanId } | { kind: 'cancel' } | { kind: 'renew' };

// The simulator has no profile to read a timezone from: its dates are UTC days, as the provider's are.
const longDate = (iso: string | null) =>
  iso ? new Date(iso).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' }) : null;

const doneMessage = (change: Change) =>
  change.kind === 'plan' ? `${copy.planSwitched}: ${PLANS[change.plan].name}` : change.kind === 'cancel' ? copy.cancelScheduled : copy.cancelUndone;

/**
 * /dev/billing-portal?session=… (local billing simulator only): stands in for the provider's
 * billing portal that Manage Billing opens. Switch plan, cancel at the period's end or undo it;
 * the server syncs the subscription after each change, then "Back to settings" shows it.
 */
export function DevBillingPortalPage() {
  const [params] = useSearchParams();
  const sessionId = params.get('session') ?? '';
  const path = `/api/dev/billing/portal/${encodeURIComponent(sessionId)}`;
  const queryClient = useQueryClient();
  const [done, setDone] = useState<string | null>(null);
  const portal = useQuery({
    queryKey: ['dev-billing-portal', sessionId],
    queryFn: ({ signal }) => apiRequest<PortalView>('GET', path, { auth: false, signal }),
    enabled: !!sessionId,
    retry: false,
  });
  const change = useMutation({
    mutationFn: (next: Change) =>
      apiRequest<PortalView>('POST', `${path}/${next.kind}`, { auth: false, body: next.kind === 'plan' ? { plan: next.plan } : {} }),
    onMutate: () => setDone(null),
    onSuccess: (view, next) => {
      queryClient.setQueryData(['dev-billing-portal', sessionId], view);
      setDone(doneMessage(next));
    },
  });

  const view = portal.data;
  return (
    <main className="flex min-h-dvh items-center justify-center bg-stone-100 px-5 py-10">
      <Card className="w-full max-w-lg space-y-5">
        <div>
          <p className="text-xs font-semibold tracking-wide text-amber-700 uppercase">Development billing portal</p>
          <h1 className="mt-1 font-serif text-2xl font-semibold text-ink">{copy.portalTitle}</h1>
          <p className="mt-1 text-sm text-stone-600">{copy.portalLead}</p>
        </div>
        {!sessionId ? (
          <Alert tone="error">{copy.portalLinkInvalid}</Alert>
        ) : portal.isPending ? (
          <p role="status" className="text-sm text-stone-500">
            {copy.portalLoading}
          </p>
        ) : portal.isError || !view ? (
          <Alert tone="error">{portal.error?.message ?? copy.portalLinkInvalid}</Alert>
        ) : !view.subscription ? (
          <p className="text-sm text-stone-700">{copy.portalNoSubscription}</p>
        ) : (
          <SubscriptionPanel subscription={view.subscription} busy={change.isPending} pending={change.variables} onChange={(next) => change.mutate(next)} />
        )}
        {change.isError && <Alert tone="error">{change.error.message}</Alert>}
        {done && <Alert tone="success">{done}</Alert>}
        <a href={view?.returnUrl ?? '/settings'} className={buttonClasses('ghost', 'md', '-ml-3')}>
          <ArrowLeft aria-hidden="true" className="size-4" />
          {copy.backToSettings}
        </a>
      </Card>
    </main>
  );
}

function SubscriptionPanel({
  subscription,
  busy,
  pending,
  onChange,
}: {
  subscription: PortalSubscription;
  busy: boolean;
  pending: Change | undefined;
  onChange: (change: Change) => void;
}) {
  const ended = subscription.status === 'canceled';
  const other = PLANS[subscription.plan === 'yearly' ? 'monthly' : 'yearly'];
  const endsOn = longDate(subscription.currentPeriodEnd);
  return (
    <div className="space-y-4">
      <div className="rounded-xl bg-stone-50 p-4">
        <p className="text-sm text-stone-600">{copy.currentPlan}</p>
        <p className="mt-1 font-serif text-2xl font-semibold text-ink">
          Jotline {subscription.name}{' '}
          <span className="text-base font-normal text-stone-500">
            {formatUsd(subscription.priceCents)}/{subscription.interval}
          </span>
        </p>
        {endsOn && (
          <p className="mt-2 text-sm text-stone-700">
            {subscription.cancelAtPeriodEnd || ended ? `${copy.cancelsOn} ${endsOn}.` : `${copy.renewsOn} ${endsOn}.`}
          </p>
        )}
      </div>
      {!ended && (
        <div className="flex flex-col gap-3">
          <Button
            className="w-full"
            disabled={busy}
            loading={busy && pending?.kind === 'plan'}
            onClick={() => onChange({ kind: 'plan', plan: other.id })}
          >
            {copy.switchTo} {other.name} ({formatUsd(other.priceCents)}/{other.interval})
          </Button>
          {subscription.cancelAtPeriodEnd ? (
            <Button key="renew" className="w-full" variant="secondary" disabled={busy} loading={busy && pending?.kind === 'renew'} onClick={() => onChange({ kind: 'renew' })}>
              {copy.undoCancel}
            </Button>
          ) : (
            <Button key="cancel" className="w-full" variant="danger" disabled={busy} loading={busy && pending?.kind === 'cancel'} onClick={() => onChange({ kind: 'cancel' })}>
              {copy.cancelAtPeriodEnd}
            </Button>
          )}
        </div>
      )}
    </div>
  );
}
