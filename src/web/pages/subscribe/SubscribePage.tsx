import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router';
import { messages } from '../../../shared/messages';
import { Wordmark } from '../../components/ui/Wordmark';
import type { PlanId } from '../../../shared/plans';
import { PlanOptions } from '../../features/billing';
import { useSubscription } from '../../features/journal';
import { useLoadedProfile } from '../../features/journal/queries';
import { formatLongDate } from '../settings/plan-badge';
import { FirstCharge } from './FirstCharge';

/** /subscribe (signed in): the two plans; choosing one goes to checkout. Subscribers, cancelled ones too, are sent to Manage Billing. */
export function SubscribePage() {
  const subscription = useSubscription();
  const subscribed = subscription.data?.subscribed === true;
  const tier = subscription.data?.subscription_tier;
  const currentPlan: PlanId | null = subscribed && (tier === 'monthly' || tier === 'yearly') ? tier : null;
  const timezone = useLoadedProfile()?.timezone;
  const cancelledEndsOn = subscribed && subscription.data?.cancel_at_period_end ? formatLongDate(subscription.data.subscription_end, timezone) : undefined;
  return (
    <div className="min-h-dvh bg-stone-50">
      <header className="mx-auto flex max-w-4xl items-center justify-between px-5 py-5 sm:px-8">
        <Link to="/journal" aria-label="Jotline journal">
          <Wordmark />
        </Link>
        <Link to="/journal" className="inline-flex items-center gap-1.5 text-sm font-medium text-stone-600 hover:text-ink">
          <ArrowLeft aria-hidden="true" className="size-4" />
          Back to journal
        </Link>
      </header>
      <main className="mx-auto w-full max-w-4xl px-5 pt-6 pb-16 sm:px-8">
        <div className="text-center">
          <h1 className="font-serif text-3xl font-semibold text-ink sm:text-4xl">{messages.billing.subscribeTitle}</h1>
          <p className="mx-auto mt-3 max-w-xl text-stone-600">{messages.billing.subscribeLead}</p>
          {subscription.data && <FirstCharge subscription={subscription.data} />}
        </div>
        <div className="mt-10">
          <PlanOptions subscribed={subscribed} currentPlan={currentPlan} cancelledEndsOn={cancelledEndsOn} />
        </div>
      </main>
    </div>
  );
}
