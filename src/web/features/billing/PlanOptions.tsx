import { Check } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { messages } from '../../../shared/messages';
import { formatUsd, PLAN_FEATURES, PLANS, YEARLY_MONTHS_FREE_LABEL, YEARLY_SAVINGS_LABEL, type Plan, type PlanId } from '../../../shared/plans';
import { Button } from '../../components/ui/Button';
import { cn } from '../../components/ui/cn';
import { ApiError } from '../../api/errors';
import { checkoutErrorMessage, useStartCheckout } from './checkout';
import { ManageBillingNotice } from './ManageBillingNotice';

const copy = messages.billing;

function PlanCard({
  plan,
  featured,
  badge,
  notes,
  busy,
  disabled,
  current,
  onChoose,
}: {
  plan: Plan;
  featured?: boolean;
  badge?: string;
  notes: string[];
  busy: boolean;
  disabled: boolean;
  /** The plan the user already pays for: nothing to buy here. */
  current?: boolean;
  onChoose: () => void;
}) {
  const headingId = `choose-plan-${plan.id}`;
  return (
    <article
      aria-labelledby={headingId}
      className={cn(
        'relative flex flex-col rounded-3xl bg-white p-7 sm:p-8',
        featured ? 'border-2 border-brand-600 shadow-xl shadow-brand-900/10' : 'border border-stone-200 shadow-sm',
      )}
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={headingId} className="font-serif text-2xl font-semibold text-ink">
          {plan.name}
        </h2>
        {badge && <span className="rounded-full bg-amber-100 px-3 py-1 text-sm font-semibold text-amber-900">{badge}</span>}
      </div>
      <p className="mt-5 flex items-baseline gap-1">
        <span className="font-serif text-4xl font-semibold tracking-tight text-ink">{formatUsd(plan.priceCents)}</span>
        <span className="text-lg text-stone-500">/{plan.interval}</span>
      </p>
      <ul className="mt-2 min-h-12 space-y-0.5 text-sm text-stone-600">
        {notes.map((note) => (
          <li key={note} className={cn(featured && 'font-medium text-brand-800')}>
            {note}
          </li>
        ))}
      </ul>
      <ul className="mt-6 flex-1 space-y-2.5">
        {PLAN_FEATURES.map((feature) => (
          <li key={feature} className="flex gap-3 text-sm text-stone-700">
            <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand-600" />
            {feature}
          </li>
        ))}
      </ul>
      <Button
        variant={featured ? 'primary' : 'secondary'}
        size="lg"
        className="mt-8 w-full"
        loading={busy}
        disabled={disabled || current}
        onClick={onChoose}
        aria-describedby={headingId}
      >
        {busy ? copy.redirecting : current ? messages.billingManagement.currentPlan : `${copy.choosePlan} ${plan.name}`}
      </Button>
    </article>
  );
}

/**
 * The two plans; choosing one starts checkout (spec 2 and 7), failures toast per spec 8. A
 * subscriber (`subscribed`, or a checkout the server refused with 409) is sent to Manage Billing:
 * one subscription per account, so no plan button is offered to them. `cancelledEndsOn`: a
 * cancelled subscription still running, and the day it ends.
 */
export function PlanOptions({
  subscribed = false,
  currentPlan = null,
  cancelledEndsOn,
}: {
  subscribed?: boolean;
  currentPlan?: PlanId | null;
  cancelledEndsOn?: string | null;
}) {
  const checkout = useStartCheckout();
  const [refused, setRefused] = useState(false);
  // Still busy after success: the browser is on its way to checkout.
  const busyPlan = checkout.isPending || checkout.isSuccess ? checkout.variables : undefined;
  const choose = (plan: PlanId) =>
    checkout.mutate(plan, {
      onError: (error) => {
        if (error instanceof ApiError && error.status === 409) return setRefused(true);
        toast.error(copy.checkoutErrorTitle, { id: 'checkout-error', description: checkoutErrorMessage(error) });
      },
    });
  return (
    <div className="space-y-6">
      {(refused || subscribed) && <ManageBillingNotice refused={refused} cancelledEndsOn={cancelledEndsOn} />}
      <div className="grid gap-6 md:grid-cols-2">
        <PlanCard
          plan={PLANS.monthly}
          notes={[copy.monthlyNote]}
          busy={busyPlan === 'monthly'}
          disabled={subscribed || busyPlan !== undefined}
          current={currentPlan === 'monthly'}
          onChoose={() => choose('monthly')}
        />
        <PlanCard
          plan={PLANS.yearly}
          featured
          badge={copy.bestValue}
          notes={[YEARLY_SAVINGS_LABEL, YEARLY_MONTHS_FREE_LABEL]}
          busy={busyPlan === 'yearly'}
          disabled={subscribed || busyPlan !== undefined}
          current={currentPlan === 'yearly'}
          onChoose={() => choose('yearly')}
        />
      </div>
    </div>
  );
}
