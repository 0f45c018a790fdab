import { useQueryClient } from '@tanstack/react-query';
import { BadgeCheck, BookOpen, CreditCard, ExternalLink, LogOut, MessageSquareText, RefreshCw, TrendingUp, UserPlus, Users } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { ADMIN_PERIOD_LABELS, DEFAULT_ADMIN_PERIOD, type AdminPeriod } from '../../../shared/admin';
import { messages } from '../../../shared/messages';
import { Button, buttonClasses } from '../../components/ui/Button';
import { useAuth } from '../../features/auth/auth-context';
import { adminSignOut } from '../../features/admin/admin-api';
import { AdminShell, InlineError, Panel, StatCard } from '../../features/admin/AdminShell';
import { BarChart, LineChart } from '../../features/admin/Charts';
import { formatNumber, formatPercent } from '../../features/admin/format';
import { PeriodSelect } from '../../features/admin/PeriodSelect';
import { useMetrics, useRefreshMetrics } from '../../features/admin/queries';
import { PageHead } from '../../seo/PageHead';

const text = messages.admin;

/** /admin/dashboard */
export function AdminDashboardPage() {
  const { user } = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [entriesPeriod, setEntriesPeriod] = useState<AdminPeriod>(DEFAULT_ADMIN_PERIOD);
  const [signupsPeriod, setSignupsPeriod] = useState<AdminPeriod>(DEFAULT_ADMIN_PERIOD);
  const [trendPeriod, setTrendPeriod] = useState<AdminPeriod>('month');

  const overview = useMetrics(DEFAULT_ADMIN_PERIOD);
  const entries = useMetrics(entriesPeriod);
  const signups = useMetrics(signupsPeriod);
  const trends = useMetrics(trendPeriod);
  const refresh = useRefreshMetrics();

  const failed = overview.isError || entries.isError || signups.isError || trends.isError;
  useEffect(() => {
    if (failed) toast.error(text.errorTitle, { description: text.metricsFetchFailed, id: 'admin-metrics-error' });
  }, [failed]);

  const metrics = overview.data?.metrics;

  async function onRefresh() {
    try {
      await refresh.mutateAsync();
      toast.success(text.metricsRefreshed);
    } catch {
      toast.error(text.refreshFailedTitle, { description: text.refreshFailed });
    }
  }

  async function onLogout() {
    await adminSignOut();
    queryClient.removeQueries({ queryKey: ['admin'] });
    toast.success(text.loggedOut);
    navigate('/admin/login', { replace: true });
  }

  const series = trends.data?.metrics.series ?? [];

  return (
    <AdminShell
      title="Dashboard"
      subtitle="Subscribers, trials and activity at a glance"
      actions={
        <>
          <Link to="/admin/user-management" className={buttonClasses('secondary', 'sm')}>
            <Users aria-hidden="true" className="size-4" />
            User Management
          </Link>
          <a href="/admin/sms-testing" target="_blank" rel="noopener noreferrer" className={buttonClasses('secondary', 'sm')}>
            <MessageSquareText aria-hidden="true" className="size-4" />
            SMS Testing
            <ExternalLink aria-hidden="true" className="size-3.5 text-stone-400" />
            <span className="sr-only">(opens in a new tab)</span>
          </a>
          <Button variant="secondary" size="sm" onClick={onRefresh} loading={refresh.isPending}>
            {!refresh.isPending && <RefreshCw aria-hidden="true" className="size-4" />}
            Refresh
          </Button>
          <span className="order-last col-span-2 max-w-full truncate px-1 text-sm text-stone-600 sm:order-none sm:max-w-[16rem]" title={user?.email}>
            {user?.email}
          </span>
          <Button variant="ghost" size="sm" onClick={onLogout}>
            <LogOut aria-hidden="true" className="size-4" />
            Logout
          </Button>
        </>
      }
    >
      <PageHead title="Admin dashboard · Jotline" robots="noindex" />
      {failed && <InlineError>{text.metricsLoadFailed}</InlineError>}

      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard
          label="Paid Subscribers"
          value={formatNumber(metrics?.paidSubscribers)}
          hint={`Charged · ${formatNumber(metrics?.convertingTrials)} trials converting · View subscribers →`}
          icon={CreditCard}
          tone="emerald"
          to="/admin/dashboard/subscribers"
          loading={overview.isPending}
        />
        <StatCard
          label="Trial Users"
          value={formatNumber(metrics?.trialUsers)}
          hint="View trial users →"
          icon={Users}
          tone="amber"
          to="/admin/dashboard/trial-users"
          loading={overview.isPending}
        />
        <StatCard
          label="Conversion Rate"
          value={formatPercent(metrics?.trialConversionRate)}
          hint={text.conversionWindow}
          icon={TrendingUp}
          tone="brand"
          loading={overview.isPending}
        />
        <StatCard
          label="Verification Rate"
          value={formatPercent(metrics?.accountVerificationRate)}
          hint="Accounts with a verified phone"
          icon={BadgeCheck}
          tone="brand"
          loading={overview.isPending}
        />
      </div>

      <div className="grid grid-cols-1 gap-3 md:grid-cols-2">
        <Panel aria-labelledby="entries-heading">
          <div className="flex items-center justify-between gap-2">
            <h2 id="entries-heading" className="flex items-center gap-2 text-sm font-medium text-stone-600">
              <BookOpen aria-hidden="true" className="size-4 text-brand-700" />
              Journal Entries
            </h2>
            <PeriodSelect label="Journal entries period" value={entriesPeriod} onChange={setEntriesPeriod} />
          </div>
          <p className="mt-2 text-3xl font-semibold tabular-nums text-ink" data-testid="entries-count">
            {entries.isPending ? '…' : formatNumber(entries.data?.metrics.journalEntries.count)}
          </p>
          <p className="mt-1 text-xs text-stone-500">
            {ADMIN_PERIOD_LABELS[entriesPeriod]} · {formatNumber(entries.data?.metrics.avgEntriesPerUser, 1)} avg entries per active user per week
          </p>
        </Panel>
        <Panel aria-labelledby="signups-heading">
          <div className="flex items-center justify-between gap-2">
            <h2 id="signups-heading" className="flex items-center gap-2 text-sm font-medium text-stone-600">
              <UserPlus aria-hidden="true" className="size-4 text-brand-700" />
              New Sign-ups
            </h2>
            <PeriodSelect label="New sign-ups period" value={signupsPeriod} onChange={setSignupsPeriod} />
          </div>
          <p className="mt-2 text-3xl font-semibold tabular-nums text-ink" data-testid="signups-count">
            {signups.isPending ? '…' : formatNumber(signups.data?.metrics.newSignups.count)}
          </p>
          <p className="mt-1 text-xs text-stone-500">{ADMIN_PERIOD_LABELS[signupsPeriod]}</p>
        </Panel>
      </div>

      <Panel aria-labelledby="trends-heading">
        <div className="flex items-center justify-between gap-2">
          <h2 id="trends-heading" className="text-base font-semibold text-ink">
            Growth Trends
          </h2>
          <PeriodSelect label="Growth trends period" value={trendPeriod} onChange={setTrendPeriod} />
        </div>
        {series.length === 0 ? (
          <p className="py-10 text-center text-sm text-stone-500">{trends.isPending ? 'Loading charts…' : 'No data for this period yet.'}</p>
        ) : (
          <div className="mt-4 grid grid-cols-1 gap-6 lg:grid-cols-2">
            <figure>
              <figcaption className="mb-2 flex items-center gap-2 text-sm text-stone-600">
                <span aria-hidden="true" className="inline-block h-0.5 w-4 rounded bg-brand-600" />
                Sign-ups per day
              </figcaption>
              <LineChart points={series} label="Sign-ups per day" />
            </figure>
            <figure>
              <figcaption className="mb-2 flex items-center gap-2 text-sm text-stone-600">
                <span aria-hidden="true" className="inline-block size-2.5 rounded-sm bg-amber-400" />
                Journal entries per day
              </figcaption>
              <BarChart points={series} label="Journal entries per day" />
            </figure>
          </div>
        )}
      </Panel>
    </AdminShell>
  );
}
