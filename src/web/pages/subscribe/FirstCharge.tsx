import { CalendarClock } from 'lucide-react';
import { messages } from '../../../shared/messages';
import type { SubscriptionResponse } from '../../../shared/profile';
import { trialCarriedUntil } from '../../../shared/plans';

/** "Dec 5": the day an instant falls on where the reader is. */
export function chargeDay(instant: Date): string {
  return instant.toLocaleDateString('en-US', { month: 'short', day: 'numeric' });
}

/**
 * During the free trial, when subscribing would first charge: at the trial's end (its remaining
 * days are kept), or today when too little of it is left for the payment provider to keep.
 */
export function FirstCharge({ subscription, now = new Date() }: { subscription: SubscriptionResponse; now?: Date }) {
  const inTrial = subscription.is_trial && !!subscription.trial_end && new Date(subscription.trial_end) > now;
  if (subscription.subscribed || !inTrial) return null;
  const carried = trialCarriedUntil(subscription, now);
  return (
    <p className="mx-auto mt-5 flex max-w-xl items-start justify-center gap-2 rounded-xl bg-brand-50 px-4 py-3 text-sm text-brand-900">
      <CalendarClock aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <span>
        {carried ? (
          <>
            <strong className="font-semibold">{messages.billing.firstChargeOn(chargeDay(carried))}</strong>. {messages.billing.trialKept}
          </>
        ) : (
          messages.billing.firstChargeToday
        )}
      </span>
    </p>
  );
}
