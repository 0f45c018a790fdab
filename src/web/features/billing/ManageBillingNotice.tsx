import { ExternalLink, Info } from 'lucide-react';
import { toast } from 'sonner';
import { messages } from '../../../shared/messages';
import { Button } from '../../components/ui/Button';
import { cn } from '../../components/ui/cn';
import { useBillingPortal } from './portal';

const copy = messages.billingManagement;

/**
 * Shown to someone who already pays: one subscription per account, so plan changes and
 * cancelling happen in the billing portal. `refused` marks the answer to a refused checkout;
 * `cancelledEndsOn` (a day, or null when unknown) a cancelled subscription that still runs.
 */
export function ManageBillingNotice({ refused, cancelledEndsOn }: { refused: boolean; cancelledEndsOn?: string | null }) {
  const portal = useBillingPortal();
  const open = () => portal.mutate(undefined, { onError: () => toast.error(messages.billing.portalFailed, { id: 'portal-error' }) });
  return (
    <div
      role={refused ? 'alert' : 'status'}
      className={cn(
        'flex flex-col gap-4 rounded-2xl border p-5 sm:flex-row sm:items-center sm:justify-between',
        refused ? 'border-amber-300 bg-amber-50' : 'border-brand-200 bg-brand-50',
      )}
    >
      <div className="flex gap-3">
        <Info aria-hidden="true" className={cn('mt-0.5 size-5 shrink-0', refused ? 'text-amber-700' : 'text-brand-700')} />
        <div>
          {refused && <p className="font-semibold text-ink">{copy.alreadySubscribedTitle}</p>}
          <p className="text-sm leading-6 text-stone-700">{refused ? copy.alreadySubscribed : cancelledEndsOn !== undefined ? copy.cancelledNotice(cancelledEndsOn) : copy.subscribedNotice}</p>
        </div>
      </div>
      {/* Still busy after success: the browser is on its way to the portal. */}
      <Button variant="primary" onClick={open} loading={portal.isPending || portal.isSuccess} className="shrink-0 self-start sm:self-auto">
        <ExternalLink aria-hidden="true" className="size-4" />
        {copy.manageBilling}
      </Button>
    </div>
  );
}
