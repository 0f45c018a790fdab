import { CalendarPlus, Clock, CreditCard, UserMinus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { messages } from '../../../shared/messages';
import { ADMIN_PAGE_SIZE, subscribersPath } from '../../features/admin/admin-api';
import { AdminShell, InlineError, StatCard } from '../../features/admin/AdminShell';
import { formatDate, formatNumber, maskPhone } from '../../features/admin/format';
import { LastFourSearch, ListActions, tdClasses, thClasses } from '../../features/admin/ListToolbar';
import { Pager } from '../../features/admin/Pager';
import { useSubscribers } from '../../features/admin/queries';
import { PageHead } from '../../seo/PageHead';

const text = messages.admin;

/** /admin/dashboard/subscribers */
export function AdminSubscribersPage() {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const query = useSubscribers({ page, search });
  const data = query.data;
  const rows = data?.subscribers ?? [];

  useEffect(() => {
    if (query.isError) toast.error(text.errorTitle, { description: text.subscribersFetchFailed, id: 'admin-subscribers-error' });
  }, [query.isError]);

  return (
    <AdminShell
      title="Paid Subscribers"
      back
      actions={
        <ListActions
          onRefresh={() => query.refetch({ throwOnError: true })}
          refreshing={query.isFetching && !query.isPending}
          csvPath={subscribersPath({ page: 1, search }, 'csv')}
          csvName="subscribers"
          canExport={rows.length > 0}
        />
      }
    >
      <PageHead title="Subscribers · Admin · Jotline" robots="noindex" />
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatCard label="Total Subscribers" value={formatNumber(data?.metrics.totalSubscribers)} icon={CreditCard} tone="emerald" loading={query.isPending} />
        <StatCard label="New Subscribers" hint="This month" value={formatNumber(data?.metrics.newSubscribersThisMonth)} icon={CalendarPlus} tone="brand" loading={query.isPending} />
        <StatCard label="Average Duration" hint="Months" value={formatNumber(data?.metrics.averageDuration, 1)} icon={Clock} tone="default" loading={query.isPending} />
        <StatCard label="Cancelled This Month" value={formatNumber(data?.metrics.cancelledThisMonth)} icon={UserMinus} tone="red" loading={query.isPending} />
      </div>

      {query.isError && <InlineError>{text.subscribersLoadFailed}</InlineError>}

      <section className="overflow-hidden rounded-xl border border-stone-200 bg-white shadow-xs" aria-label="Subscribers">
        <div className="flex flex-col gap-2 border-b border-stone-200 p-3 sm:flex-row sm:items-center sm:justify-between">
          <LastFourSearch
            value={search}
            onChange={(value) => {
              setSearch(value);
              setPage(1);
            }}
          />
        </div>
        <div className="overflow-x-auto">
          <table className="min-w-full divide-y divide-stone-100">
            <thead className="bg-stone-50">
              <tr>
                <th scope="col" className={thClasses}>Phone Last 4</th>
                <th scope="col" className={thClasses}>Sign-up Date</th>
                <th scope="col" className={thClasses}>Subscription Date</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-stone-100">
              {rows.map((row) => (
                <tr key={row.id} className="hover:bg-stone-50">
                  <td className={`${tdClasses} font-mono`}>{maskPhone(row.phone_last_four)}</td>
                  <td className={tdClasses}>{formatDate(row.signup_date)}</td>
                  <td className={tdClasses}>{row.subscription_date ? formatDate(row.subscription_date) : <span className="text-stone-400">N/A</span>}</td>
                </tr>
              ))}
              {!query.isPending && rows.length === 0 && (
                <tr>
                  <td colSpan={3} className="px-4 py-10 text-center text-sm text-stone-500">
                    {text.noSubscribers}
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
