import { AlarmClock, CalendarX, Hourglass, UserPlus } from 'lucide-react';
import { Switch } from 'radix-ui';
import { useId, useState } from 'react';
import type { TrialUserRow } from '../../../shared/admin';
import { messages } from '../../../shared/messages';
import { cn } from '../../components/ui/cn';
import { trialUsersPath } from '../../features/admin/admin-api';
import { AdminListPage, usePagedSearch, type ListColumn } from '../../features/admin/AdminListPage';
import { StatCard } from '../../features/admin/AdminShell';
import { formatDate, formatNumber, maskPhone, trialExpiry, type ExpiryTone } from '../../features/admin/format';
import { useTrialUsers } from '../../features/admin/queries';

const text = messages.admin;

const toneClasses: Record<ExpiryTone, string> = {
  expired: 'text-red-700',
  today: 'text-orange-700',
  tomorrow: 'text-amber-700',
  soon: 'text-yellow-700',
  plain: 'text-ink',
};

/** Trial Expiration Date as the list shows it: coloured, with its prefix. */
function TrialExpiration({ trialEnd, now }: { trialEnd: string; now?: Date }) {
  const expiry = trialExpiry(trialEnd, now);
  return (
    <span className={cn('inline-flex items-center gap-1.5', toneClasses[expiry.tone])}>
      {expiry.prefix && <span className="font-medium">{expiry.prefix}</span>}
      {expiry.prefix && <span aria-hidden="true">·</span>}
      <span>{expiry.date}</span>
    </span>
  );
}

const columns: ListColumn<TrialUserRow>[] = [
  { header: 'Phone Last 4', cell: (row) => maskPhone(row.phone_last_four), className: 'font-mono' },
  { header: 'Sign-up Date', cell: (row) => formatDate(row.signup_date) },
  { header: 'Trial Expiration Date', cell: (row) => <TrialExpiration trialEnd={row.trial_end} /> },
];

/** /admin/dashboard/trial-users */
export function AdminTrialUsersPage() {
  const paging = usePagedSearch();
  const { page, search } = paging;
  const [showExpired, setShowExpired] = useState(false);
  const status = showExpired ? 'expired' : 'active';
  const query = useTrialUsers({ page, search, status });
  const data = query.data;
  const m = data?.metrics;
  const switchId = useId();

  const endingSoon = m ? m.endingToday + m.endingIn1Day + m.endingIn2Days + m.endingIn3Days : undefined;

  return (
    <AdminListPage
      title="Trial Users"
      headTitle="Trial users · Admin · Jotline"
      label="Trial users"
      query={query}
      {...paging}
      rows={data?.trialUsers}
      total={data?.totalCount}
      csvPath={trialUsersPath({ page: 1, search, status }, 'csv')}
      csvName={showExpired ? 'expired-trial-users' : 'trial-users'}
      columns={columns}
      emptyText={text.noTrialUsers}
      loadFailed={text.trialUsersLoadFailed}
      fetchFailed={text.trialUsersFetchFailed}
      toastId="admin-trials-error"
      stats={
        <>
          <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
            <StatCard label="New Trials" hint="Started today" value={formatNumber(m?.newTrialsToday)} icon={UserPlus} tone="brand" loading={query.isPending} />
            <StatCard label="Active Trial Users" value={formatNumber(m?.activeTrialUsers)} icon={Hourglass} tone="emerald" loading={query.isPending} />
            <StatCard label="Ending Soon" hint="Within 3 days" value={formatNumber(endingSoon)} icon={AlarmClock} tone="amber" loading={query.isPending} />
            <StatCard label="Expired This Month" value={formatNumber(m?.expiredThisMonth)} icon={CalendarX} tone="red" loading={query.isPending} />
          </div>
          <div className="grid grid-cols-2 gap-3 sm:grid-cols-4" aria-label="Trials ending">
            <StatCard size="sm" label="Today" value={formatNumber(m?.endingToday)} loading={query.isPending} />
            <StatCard size="sm" label="Tomorrow" value={formatNumber(m?.endingIn1Day)} loading={query.isPending} />
            <StatCard size="sm" label="In 2 Days" value={formatNumber(m?.endingIn2Days)} loading={query.isPending} />
            <StatCard size="sm" label="In 3 Days" value={formatNumber(m?.endingIn3Days)} loading={query.isPending} />
          </div>
        </>
      }
      filters={
        <div className="flex items-center gap-2">
          <Switch.Root
            id={switchId}
            checked={showExpired}
            onCheckedChange={(checked) => {
              setShowExpired(checked);
              paging.onPage(1);
            }}
            className="relative h-5 w-9 shrink-0 rounded-full bg-stone-300 transition-colors data-[state=checked]:bg-brand-600"
          >
            <Switch.Thumb className="block size-4 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[18px]" />
          </Switch.Root>
          <label htmlFor={switchId} className="text-sm text-stone-700">
            Show expired trials
          </label>
        </div>
      }
    />
  );
}
