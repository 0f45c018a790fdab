import { CalendarPlus, Clock, CreditCard, UserMinus } from 'lucide-react';
import type { SubscriberRow } from '../../../shared/admin';
import { messages } from '../../../shared/messages';
import { subscribersPath } from '../../features/admin/admin-api';
import { AdminListPage, usePagedSearch, type ListColumn } from '../../features/admin/AdminListPage';
import { StatCard } from '../../features/admin/AdminShell';
import { formatDate, formatNumber, maskPhone } from '../../features/admin/format';
import { useSubscribers } from '../../features/admin/queries';

const text = messages.admin;

const columns: ListColumn<SubscriberRow>[] = [
  { header: 'Phone Last 4', cell: (row) => maskPhone(row.phone_last_four), className: 'font-mono' },
  { header: 'Sign-up Date', cell: (row) => formatDate(row.signup_date) },
  { header: 'Subscription Date', cell: (row) => (row.subscription_date ? formatDate(row.subscription_date) : <span className="text-stone-400">N/A</span>) },
];

/** /admin/dashboard/subscribers */
export function AdminSubscribersPage() {
  const paging = usePagedSearch();
  const { page, search } = paging;
  const query = useSubscribers({ page, search });
  const data = query.data;

  return (
    <AdminListPage
      title="Paid Subscribers"
      headTitle="Subscribers · Admin · Jotline"
      label="Subscribers"
      query={query}
      {...paging}
      rows={data?.subscribers}
      total={data?.totalCount}
      csvPath={subscribersPath({ page: 1, search }, 'csv')}
      csvName="subscribers"
      columns={columns}
      emptyText={text.noSubscribers}
      loadFailed={text.subscribersLoadFailed}
      fetchFailed={text.subscribersFetchFailed}
      toastId="admin-subscribers-error"
      stats={
        <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
          <StatCard label="Total Subscribers" value={formatNumber(data?.metrics.totalSubscribers)} icon={CreditCard} tone="emerald" loading={query.isPending} />
          <StatCard label="New Subscribers" hint="This month" value={formatNumber(data?.metrics.newSubscribersThisMonth)} icon={CalendarPlus} tone="brand" loading={query.isPending} />
          <StatCard label="Average Duration" hint="Months" value={formatNumber(data?.metrics.averageDuration, 1)} icon={Clock} tone="default" loading={query.isPending} />
          <StatCard label="Cancelled This Month" value={formatNumber(data?.metrics.cancelledThisMonth)} icon={UserMinus} tone="red" loading={query.isPending} />
        </div>
      }
    />
  );
}
