import { sql, type SqlBool } from 'kysely';
import { ADMIN_PERIOD_DAYS, CONVERSION_WINDOW_DAYS, METRICS_CACHE_MS, type AdminPeriod, type DashboardMetrics, type MetricsPoint } from '../../shared/admin';
import type { AppContext } from '../context';
import { addDays, dayStart, isActiveTrial, isCharged, isConverting, isPaid, oneDecimal, percent, toCount, utcDay } from './common';

/**
 * The dashboard figures for a period of whole UTC days ending now (today: since midnight UTC).
 * Paid means charged: a trial that chose a plan is "converting" until its first charge. Trial
 * conversion: of the trials that resolved in the last 30 days (charged, or ended unpaid), the share
 * that was charged.
 */
async function computeMetrics(ctx: AppContext, period: AdminPeriod): Promise<DashboardMetrics> {
  const now = ctx.clock.now();
  const nowIso = now.toISOString();
  const days = ADMIN_PERIOD_DAYS[period];
  const today = utcDay(now);
  const firstDay = addDays(today, -(days - 1));
  const start = dayStart(firstDay);
  const conversionStart = new Date(now.getTime() - CONVERSION_WINDOW_DAYS * 86_400_000).toISOString();
  const db = ctx.db;

  const [paid, converting, trials, converted, lapsed, profiles, entries, signups, entrySeries, signupSeries] = await Promise.all([
    db.selectFrom('subscribers').select((eb) => eb.fn.countAll().as('n')).where(isCharged(nowIso)).executeTakeFirst(),
    db.selectFrom('subscribers').select((eb) => eb.fn.countAll().as('n')).where(isConverting(nowIso)).executeTakeFirst(),
    db.selectFrom('subscribers').select((eb) => eb.fn.countAll().as('n')).where(isActiveTrial(nowIso)).executeTakeFirst(),
    db
      .selectFrom('subscribers')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('subscribed_at', '>=', conversionStart)
      .where('subscribed_at', '<=', nowIso)
      .where(isCharged(nowIso))
      .executeTakeFirst(),
    db
      .selectFrom('subscribers')
      .select((eb) => eb.fn.countAll().as('n'))
      // Ended unpaid: a trial that never chose a plan, or one that cancelled the plan it chose.
      .where(sql<SqlBool>`(subscribers.is_trial = 1 or subscribers.subscription_status = 'canceled') and not ${isPaid(nowIso)}`)
      .where('trial_end', '>=', conversionStart)
      .where('trial_end', '<=', nowIso)
      .executeTakeFirst(),
    db
      .selectFrom('profiles')
      .select((eb) => [eb.fn.countAll().as('n'), eb.fn.sum<number>(sql`case when phone_verified = 1 then 1 else 0 end`).as('verified')])
      .executeTakeFirst(),
    db
      .selectFrom('journal_entries')
      .select((eb) => [eb.fn.countAll().as('n'), eb.fn.count('user_id').distinct().as('users')])
      .where('created_at', '>=', start)
      .where('created_at', '<=', nowIso)
      .executeTakeFirst(),
    db.selectFrom('users').select((eb) => eb.fn.countAll().as('n')).where('created_at', '>=', start).where('created_at', '<=', nowIso).executeTakeFirst(),
    dailyCounts(ctx, 'journal_entries', start, nowIso),
    dailyCounts(ctx, 'users', start, nowIso),
  ]);

  const entryCount = toCount(entries?.n);
  const activeUsers = toCount(entries?.users);
  const weeks = Math.max(1, days / 7);
  const convertedCount = toCount(converted?.n);
  const series: MetricsPoint[] = [];
  for (let i = 0; i < days; i++) {
    const date = addDays(firstDay, i);
    series.push({ date, signups: signupSeries.get(date) ?? 0, entries: entrySeries.get(date) ?? 0 });
  }
  return {
    period,
    paidSubscribers: toCount(paid?.n),
    convertingTrials: toCount(converting?.n),
    trialUsers: toCount(trials?.n),
    trialConversionRate: percent(convertedCount, convertedCount + toCount(lapsed?.n)),
    accountVerificationRate: percent(toCount(profiles?.verified), toCount(profiles?.n)),
    journalEntries: { count: entryCount },
    avgEntriesPerUser: activeUsers > 0 ? oneDecimal(entryCount / activeUsers / weeks) : 0,
    newSignups: { count: toCount(signups?.n) },
    series,
    generatedAt: nowIso,
  };
}

async function dailyCounts(ctx: AppContext, table: 'users' | 'journal_entries', start: string, end: string): Promise<Map<string, number>> {
  const day = sql<string>`substr(created_at, 1, 10)`;
  const rows = await ctx.db
    .selectFrom(table)
    .select((eb) => [day.as('day'), eb.fn.countAll().as('n')])
    .where('created_at', '>=', start)
    .where('created_at', '<=', end)
    .groupBy(day)
    .execute();
  return new Map(rows.map((r) => [String(r.day), toCount(r.n)]));
}

/** Metrics per period, kept for a minute (by the app's clock). */
export class MetricsCache {
  private readonly entries = new Map<AdminPeriod, { at: number; metrics: DashboardMetrics }>();
  constructor(private readonly ctx: AppContext) {}

  async get(period: AdminPeriod): Promise<DashboardMetrics> {
    const now = this.ctx.clock.now().getTime();
    const hit = this.entries.get(period);
    if (hit && now - hit.at < METRICS_CACHE_MS && now >= hit.at) return hit.metrics;
    const metrics = await computeMetrics(this.ctx, period);
    this.entries.set(period, { at: now, metrics });
    return metrics;
  }

  clear(): void {
    this.entries.clear();
  }
}
