import { CreditCard, ExternalLink } from 'lucide-react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { messages } from '../../../shared/messages';
import type { SubscriptionResponse } from '../../../shared/profile';
import { Button, buttonClasses } from '../../components/ui/Button';
import { cn } from '../../components/ui/cn';
import { useSubscription } from '../../features/journal';
import { useLoadedProfile } from '../../features/journal/queries';
import { settingsCopy } from './copy';
import { formatLongDate, planState, type PlanState } from './plan-badge';
import { useOpenBillingPortal } from './settings-queries';
import { SettingsSection } from './SettingsSection';

const badgeTones: Record<PlanState['kind'], string> = {
  trial: 'bg-brand-50 text-brand-800 ring-brand-200',
  subscribed: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  expired: 'bg-red-50 text-red-700 ring-red-200',
};

/** Spec 2: the plan as a badge; Manage Billing for subscribers only. */
export function BillingCard({ now }: { now?: Date }) {
  const subscription = useSubscription();
  return (
    <SettingsSection icon={CreditCard} title={settingsCopy.billingTitle} description="Your plan and how you pay for it.">
      <div className="px-5 pt-4 pb-5 sm:px-7 sm:pb-6">
        {subscription.isPending ? (
          <p className="text-sm text-stone-500">Loading your plan...</p>
        ) : subscription.data ? (
          <PlanDetails status={subscription.data} now={now} />
        ) : (
          <div className="flex flex-wrap items-center gap-3 text-sm text-stone-600">
            <p>Your plan could not be loaded right now.</p>
            {subscription.isError && (
              <Button variant="secondary" size="sm" onClick={() => void subscription.refetch()} loading={subscription.isFetching}>
                {settingsCopy.retry}
              </Button>
            )}
          </div>
        )}
      </div>
    </SettingsSection>
  );
}

function PlanDetails({ status, now }: { status: SubscriptionResponse; now?: Date }) {
  const plan = planState(status, now);
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <span className="text-sm font-medium text-stone-700">Plan</span>
        <span className={cn('inline-flex items-center gap-1.5 rounded-full px-3 py-1 text-sm font-semibold ring-1 ring-inset', badgeTones[plan.kind])}>
          {plan.label}
          {plan.kind === 'trial' && <span className="font-medium opacity-80">· {plan.detail}</span>}
        </span>
      </div>
      {plan.kind === 'subscribed' ? <SubscriberBilling status={status} /> : <UpgradeOffer plan={plan} trialEnd={status.trial_end} />}
    </div>
  );
}

function SubscriberBilling({ status }: { status: SubscriptionResponse }) {
  const portal = useOpenBillingPortal();
  const periodEnd = formatLongDate(status.subscription_end, useLoadedProfile()?.timezone);
  const open = () => portal.mutate(undefined, { onError: () => toast.error(settingsCopy.portalFailed) });
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      {status.cancel_at_period_end ? (
        <p className="max-w-md text-sm leading-6 text-stone-600">
          <span className="font-medium text-ink">{periodEnd ? `${messages.billingManagement.cancelsOn} ${periodEnd}.` : 'Your subscription is cancelled.'}</span>{' '}
          Until then everything stays open; export your journal before it ends, or keep your subscription in the billing portal.
        </p>
      ) : (
        <p className="max-w-md text-sm leading-6 text-stone-600">
          {periodEnd && <>Your current billing period ends on {periodEnd}. </>}
          Change your plan, update your card, see invoices or cancel in the billing portal.
        </p>
      )}
      {/* Still busy after success: the browser is on its way to the portal. */}
      <Button variant="secondary" onClick={open} loading={portal.isPending || portal.isSuccess} className="shrink-0 self-start sm:self-auto">
        <ExternalLink aria-hidden="true" className="size-4" />
        {settingsCopy.manageBilling}
      </Button>
    </div>
  );
}

function UpgradeOffer({ plan, trialEnd }: { plan: PlanState; trialEnd: string | null }) {
  const endsOn = formatLongDate(trialEnd, useLoadedProfile()?.timezone);
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <p className="max-w-md text-sm leading-6 text-stone-600">
        {plan.kind === 'trial'
          ? `${endsOn ? `Your free trial ends on ${endsOn}. ` : ''}Subscribe any time to keep your journal going.`
          : messages.entries.accessRequired}
      </p>
      <Link to="/subscribe" className={buttonClasses('primary', 'md', 'shrink-0 self-start sm:self-auto')}>
        {messages.journalScreen.upgradeNow}
      </Link>
    </div>
  );
}
