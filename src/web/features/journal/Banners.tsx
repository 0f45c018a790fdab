import { BellOff, Clock3, Sparkles } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClasses } from '../../components/ui/Button';
import { cn } from '../../components/ui/cn';
import { daysRemaining, journalCopy } from './copy';
import { useProfile, useSubscription } from './queries';
import { subscriptionBanner, type SubscriptionBannerState } from './subscription-banner';

/** Shown only when the profile says the user texted STOP (spec 2). */
export function OptOutBanner() {
  const profile = useProfile();
  if (!profile.data?.is_opted_out) return null;
  return (
    <section aria-label="Text messages" className="flex gap-3 rounded-2xl border border-amber-200 bg-amber-50 px-4 py-3.5 text-sm text-amber-900">
      <BellOff aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-amber-700" />
      <div>
        <p className="font-semibold">{journalCopy.optedOutTitle}</p>
        <p className="mt-0.5 text-amber-800">{journalCopy.optedOut}</p>
      </div>
    </section>
  );
}

/** The trial / expired banner from GET /api/subscription; nothing while unknown or subscribed. */
export function SubscriptionBanner({ now }: { now?: Date }) {
  const subscription = useSubscription();
  if (!subscription.data) return null;
  return <SubscriptionBannerView state={subscriptionBanner(subscription.data, now)} />;
}

function SubscriptionBannerView({ state }: { state: SubscriptionBannerState }) {
  if (state.kind === 'none') return null;
  const trial = state.kind === 'trial';
  const Icon = trial ? Sparkles : Clock3;
  return (
    <section
      aria-label="Subscription"
      className={cn(
        'flex flex-col gap-3 rounded-2xl border px-4 py-3.5 sm:flex-row sm:items-center sm:justify-between',
        trial ? 'border-brand-200 bg-brand-50 text-brand-900' : 'border-red-200 bg-red-50 text-red-900',
      )}
    >
      <div className="flex gap-3">
        <Icon aria-hidden="true" className={cn('mt-0.5 size-5 shrink-0', trial ? 'text-brand-700' : 'text-red-700')} />
        <div>
          <p className="font-semibold">{trial ? journalCopy.trialActive : journalCopy.trialExpired}</p>
          <p className="text-sm opacity-90">
            {trial ? daysRemaining(state.daysLeft) : 'Subscribe to keep writing and reading your journal.'}
          </p>
        </div>
      </div>
      <Link to="/subscribe" className={buttonClasses(trial ? 'primary' : 'danger', 'sm', 'self-start sm:self-auto')}>
        {journalCopy.upgradeNow}
      </Link>
    </section>
  );
}
