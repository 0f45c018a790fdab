import { AlarmClock, CalendarX, Hourglass, UserPlus } from 'lucide-react';
import { Switch } from 'radix-ui';
import { useEffect, useId, useState } from 'react';
import { toast } from 'sonner';
import { messages } from '../../../shared/messages';
import { cn } from '../../components/ui/cn';
import { ADMIN_PAGE_SIZE, trialUsersPath } from '../../features/admin/admin-api';
import { AdminShell, InlineError, StatCard } from '../../features/admin/AdminShell';
import { formatDate, formatNumber, maskPhone, trialExpiry, type ExpiryTone } from '../../features/admin/format';
import { LastFourSearch, ListActions, tdClasses, thClasses } from '../../features/admin/ListToolbar';
import { Pager } from '../../features/admin/Pager';
import { useTrialUsers } from '../../features/admin/queries';
import { PageHead } from '../../seo/PageHead';

const text = messages.admin;

const toneClasses: Record<ExpiryTone, string> = {
  expired: 'text-red-700',
  today: 'text-orange-700',
  tomorrow: 'text-amber-700',
  soon: 'text-yellow-700',
  plain: 'text-ink',
};

/** Trial Expiration Date as the list shows it: coloured, with its prefix. */
export function TrialExpiration({ trialEnd, now }: { trialEnd: string; now?: Date }) {
  const expiry = trialExpiry(trialEnd, now);
  return (
    <span className={cn('inline-flex items-center gap-1.5', toneClasses[expiry.tone])}>
      {expiry.prefix && <span className="font-medium">{expiry.prefix}</span>}
      {expiry.prefix && <span aria-hidden="true">·</span>}
      <span>{expiry.date}</span>
    </span>
  );
}

/** /admin/dashboard/trial-users */
export function AdminTrialUsersPage() {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [showExpired, setShowExpired] = useState(false);
  const status = showExpired ? 'expired' : 'active';
  const query = useTrialUsers({ page, search, status });
  const data = query.data;
  const rows = data?.trialUsers ?? [];
  const m = data?.metrics;
  const switchId = useId();

  useEffect(() => {
    if (query.isError) toast.error(text.errorTitle, { description: text.trialUsersFetchFailed, id: 'admin-trials-error' });
  }, [query.isError]);

  const endingSoon = m ? m.endingToday + m.endingIn1Day + m.endingIn2Days + m.endingIn3Days : undefined;

  return (
    <AdminShell
      title="Trial Users"
      back
      actions={
        <ListActions
          onRefresh={() => query.refetch({ throwOnError: true })}
          refreshing={query.isFetching && !query.isPending}
          csvPath={trialUsersPath({ page: 1, search, status }, 'csv')}
          csvName={showExpired ? 'expired-trial-users' : 'trial-users'}
          canExport={rows.length > 0}
        />
      }
    >
      <PageHead title="Trial users · Admin · Jotline" robots="noindex" />
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

      {query.isError && <InlineError>{text.trialUsersLoadFailed}</InlineError>}

      <section className="overflow-hidden rounded-xl border border-stone-200 bg-white shadow-xs" aria-label="Trial users">
        <div className="flex flex-col gap-3 border-b border-stone-200 p-3 sm:flex-row sm:items-center sm:justify-between">
          <LastFourSearch
            value={search}
            onChange={(value) => {
              setSearch(value);
              setPage(1);
            }}
          />
          <div className="flex items-center gap-2">
            <Switch.Root
              id={switchId}
              checked={showExpired}
              onCheckedChange={(checked) => {
                setShowExpired(checked);
                setPage(1);
              }}
              className="relative h-5 w-9 shrink-0 rounded-full bg-stone-300 transition-colors data-[state=checked]:bg-brand-600"
            >
              <Switch.Thumb className="block size-4 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[18px]" />
            </Switch.Root>
            <label htmlFor={switchId} className="text-sm text-stone-700">
              Show expired trials
            </label>
          </div>
        </div>
        <div className="overflow-x-auto">
          <table className="min-w-full divide-y divide-stone-100">
            <thead className="bg-stone-50">
              <tr>
                <th scope="col" className={thClasses}>Phone Last 4</th>
                <th scope="col" className={thClasses}>Sign-up Date</th>
                <th scope="col" className={thClasses}>Trial Expiration Date</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-stone-100">
              {rows.map((row) => (
                <tr key={row.id} className="hover:bg-stone-50">
                  <td className={`${tdClasses} font-mono`}>{maskPhone(row.phone_last_four)}</td>
                  <td className={tdClasses}>{formatDate(row.signup_date)}</td>
                  <td className={tdClasses}>
                    <TrialExpiration trialEnd={row.trial_end} />
                  </td>
                </tr>
              ))}
              {!query.isPending && rows.length === 0 && (
                <tr>
                  <td colSpan={3} className="px-4 py-10 text-center text-sm text-stone-500">
                    {text.noTrialUsers}
                  </td>
                </tr>
              )}
              {query.isPending && (
                <tr>
                  <td colSpan={3} className="px-4 py-10 text-center text-sm text-stone-500">
                    Loading…
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
        <Pager page={page} pageSize={ADMIN_PAGE_SIZE} total={data?.totalCount ?? 0} onPage={setPage} />
      </section>
    </AdminShell>
  );
}
