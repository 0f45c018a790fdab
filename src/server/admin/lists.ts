import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { SubscriberRow, SubscribersResponse, TrialUserRow, TrialUsersResponse } from '../../shared/admin';
import type { AppContext } from '../context';
import { addDays, dayStart, hasVerifiedPhone, isActiveTrial, isCharged, isExpiredTrial, lastFour, monthStart, oneDecimal, toCount, utcDay } from './common';

export interface ListQuery {
  page: number;
  limit: number;
  /** Up to four digits the phone number ends with; '' for all. */
  search: string;
  /** Every matching row (CSV export) rather than one page. */
  all?: boolean;
}

const AVERAGE_MONTH_MS = 30.4375 * 86_400_000;

/** Base query: subscribers joined with the account and its phone. Only digits are ever searched. */
function base(ctx: AppContext, search: string) {
  let q = ctx.db
    .selectFrom('subscribers')
    .innerJoin('users', 'users.id', 'subscribers.user_id')
    .leftJoin('profiles', 'profiles.id', 'subscribers.user_id');
  if (search) q = q.where('profiles.phone_number', 'like', `%${search}`);
  return q;
}

/** Paid (charged) subscribers, newest sign-up first; phones reduced to their last four digits. */
export async function listSubscribers(ctx: AppContext, query: ListQuery): Promise<SubscribersResponse['data']> {
  const now = ctx.clock.now();
  const nowIso = now.toISOString();
  const month = monthStart(now);
  const filtered = base(ctx, query.search).where(isCharged(nowIso));
  let page = filtered
    .select(['users.id as id', 'profiles.phone_number as phone', 'users.created_at as signup_date', 'subscribers.subscribed_at as subscription_date'])
    .orderBy('users.created_at', 'desc')
    .orderBy('users.id');
  if (!query.all) page = page.limit(query.limit).offset((query.page - 1) * query.limit);

  const [rows, total, paid, newThisMonth, cancelled] = await Promise.all([
    page.execute(),
    filtered.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst(),
    ctx.db.selectFrom('subscribers').select(['subscribed_at']).where(isCharged(nowIso)).execute(),
    ctx.db
      .selectFrom('subscribers')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('subscribed_at', '>=', month)
      .where('subscribed_at', '<=', nowIso)
      .executeTakeFirst(),
    ctx.db
      .selectFrom('subscribers')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('cancelled_at', '>=', month)
      .where('cancelled_at', '<=', nowIso)
      .executeTakeFirst(),
  ]);
  const durations = paid.filter((r) => r.subscribed_at).map((r) => Math.max(0, now.getTime() - Date.parse(r.subscribed_at!)) / AVERAGE_MONTH_MS);
  return {
    subscribers: rows.map(
      (r): SubscriberRow => ({ id: r.id, phone_last_four: lastFour(r.phone), signup_date: r.signup_date, subscription_date: r.subscription_date ?? null }),
    ),
    totalCount: toCount(total?.n),
    metrics: {
      totalSubscribers: paid.length,
      newSubscribersThisMonth: toCount(newThisMonth?.n),
      averageDuration: durations.length ? oneDecimal(durations.reduce((a, b) => a + b, 0) / durations.length) : 0,
      cancelledThisMonth: toCount(cancelled?.n),
    },
  };
}

/**
 * Trial users of verified accounts (an unverified sign-up lapses within minutes): active (running,
 * unpaid; ending soonest first) or expired (ended unpaid; most
 * recent first). Ending buckets are UTC days: today, tomorrow, in 2 and in 3 days.
 */
export async function listTrialUsers(ctx: AppContext, query: ListQuery & { status: 'active' | 'expired' }): Promise<TrialUsersResponse['data']> {
  const now = ctx.clock.now();
  const nowIso = now.toISOString();
  const today = utcDay(now);
  const filtered = base(ctx, query.search).where(query.status === 'active' ? isActiveTrial(nowIso) : isExpiredTrial(nowIso));
  let page = filtered
    .select(['users.id as id', 'profiles.phone_number as phone', 'users.created_at as signup_date', 'subscribers.trial_end as trial_end'])
    .orderBy('subscribers.trial_end', query.status === 'active' ? 'asc' : 'desc')
    .orderBy('users.id');
  if (!query.all) page = page.limit(query.limit).offset((query.page - 1) * query.limit);

  const count = (where: RawBuilder<SqlBool>) =>
    ctx.db
      .selectFrom('subscribers')
      .select((eb) => eb.fn.countAll().as('n'))
      .where(where)
      .executeTakeFirst()
      .then((r) => toCount(r?.n));
  const endingOn = (offset: number) => {
    const from = offset === 0 ? nowIso : dayStart(addDays(today, offset));
    const to = dayStart(addDays(today, offset + 1));
    return count(sql<SqlBool>`${isActiveTrial(nowIso)} and subscribers.trial_end >= ${from} and subscribers.trial_end < ${to}`);
  };

  const [rows, total, newToday, active, e0, e1, e2, e3, expired] = await Promise.all([
    page.execute(),
    filtered.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst(),
    count(sql<SqlBool>`subscribers.is_trial = 1 and ${hasVerifiedPhone} and subscribers.created_at >= ${dayStart(today)} and subscribers.created_at <= ${nowIso}`),
    count(isActiveTrial(nowIso)),
    endingOn(0),
    endingOn(1),
    endingOn(2),
    endingOn(3),
    count(sql<SqlBool>`${isExpiredTrial(nowIso)} and subscribers.trial_end >= ${monthStart(now)}`),
  ]);
  return {
    trialUsers: rows.map((r): TrialUserRow => ({ id: r.id, phone_last_four: lastFour(r.phone), signup_date: r.signup_date, trial_end: r.trial_end ?? '' })),
    totalCount: toCount(total?.n),
    metrics: {
      newTrialsToday: newToday,
      activeTrialUsers: active,
      endingToday: e0,
      endingIn1Day: e1,
      endingIn2Days: e2,
      endingIn3Days: e3,
      expiredThisMonth: expired,
    },
  };
}
