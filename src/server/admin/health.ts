import { sql } from 'kysely';
import { SMS_STATS_WINDOW_HOURS, type HealthCheck, type SmsHealthResponse } from '../../shared/admin';
import type { AppContext } from '../context';
import { sendRateOf } from '../sms/send-rate';
import { percent, toCount } from './common';

/** An outbound text still waiting this long after it was due means the sender is stuck. */
const OUTBOUND_STUCK_MS = 10 * 60_000;
/** An inbound text unprocessed this long means processing is falling behind. */
const INBOUND_BACKLOG_MS = 5 * 60_000;
const RECENT_ERRORS = 5;

/**
 * SMS health: four checks (the outbound one also fails on texts given up in the last 24 hours) and
 * the last 24 hours of inbound traffic (processing time measured).
 */
export async function smsHealth(ctx: AppContext): Promise<SmsHealthResponse> {
  const now = ctx.clock.now();
  const nowIso = now.toISOString();
  const windowStart = new Date(now.getTime() - SMS_STATS_WINDOW_HOURS * 3_600_000).toISOString();
  const checks: HealthCheck[] = [];

  let dbOk = true;
  try {
    await ctx.db.selectFrom('users').select('id').limit(1).execute();
    checks.push({ name: 'database', passed: true, message: 'Database reachable' });
  } catch {
    dbOk = false;
    checks.push({ name: 'database', passed: false, message: 'Database unreachable' });
  }

  const stuckBefore = new Date(now.getTime() - OUTBOUND_STUCK_MS - (dbOk ? await pacedBacklogMs(ctx) : 0)).toISOString();
  const backlogBefore = new Date(now.getTime() - INBOUND_BACKLOG_MS).toISOString();
  const [stuck, backlog, stats, errors, gaveUp] = dbOk
    ? await Promise.all([
        ctx.db
          .selectFrom('sms_messages')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('direction', '=', 'outbound')
          .where((eb) =>
            eb.or([
              eb.and([eb('status', '=', 'pending'), eb.or([eb('send_after', 'is', null), eb('send_after', '<', stuckBefore)]), eb('created_at', '<', stuckBefore)]),
              eb.and([eb('status', '=', 'sending'), eb('claimed_at', '<', stuckBefore)]),
            ]),
          )
          .executeTakeFirst(),
        ctx.db
          .selectFrom('sms_messages')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('direction', '=', 'inbound')
          .where('processed', '=', 0)
          .where('created_at', '<', backlogBefore)
          .executeTakeFirst(),
        ctx.db
          .selectFrom('sms_messages')
          .select((eb) => [
            eb.fn.countAll().as('total'),
            eb.fn.sum<number>(sql`case when processed = 1 and error_message is null then 1 else 0 end`).as('ok'),
            eb.fn.avg<number>('processing_ms').as('avg_ms'),
          ])
          .where('direction', '=', 'inbound')
          .where('created_at', '>=', windowStart)
          .where('created_at', '<=', nowIso)
          .executeTakeFirst(),
        ctx.db
          .selectFrom('sms_messages')
          .select(['updated_at', 'created_at', 'error_message'])
          .where('created_at', '>=', windowStart)
          .where('error_message', 'is not', null)
          .orderBy('updated_at', 'desc')
          .limit(RECENT_ERRORS)
          .execute(),
        // Texts that failed after a day of tries: created the day before the window at the earliest.
        ctx.db
          .selectFrom('sms_messages')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('created_at', '>=', new Date(now.getTime() - 2 * SMS_STATS_WINDOW_HOURS * 3_600_000).toISOString())
          .where('direction', '=', 'outbound')
          .where('status', '=', 'failed')
          .where('error_code', '=', 'gave_up')
          .where('updated_at', '>=', windowStart)
          .executeTakeFirst(),
      ])
    : [undefined, undefined, undefined, [], undefined];

  const stuckCount = toCount(stuck?.n);
  const gaveUpCount = toCount(gaveUp?.n);
  const outboundProblems = [
    ...(stuckCount ? [`${stuckCount} outbound text(s) waiting more than 10 minutes`] : []),
    ...(gaveUpCount ? [`${gaveUpCount} outbound text(s) failed after 24 hours of tries`] : []),
  ];
  checks.push({
    name: 'outbound_sender',
    passed: dbOk && outboundProblems.length === 0,
    message: outboundProblems.length ? outboundProblems.join('; ') : 'Outbound texts are going out',
  });
  const backlogCount = toCount(backlog?.n);
  checks.push({
    name: 'inbound_backlog',
    passed: dbOk && backlogCount === 0,
    message: backlogCount ? `${backlogCount} inbound text(s) unprocessed for more than 5 minutes` : 'No inbound backlog',
  });
  checks.push(providerCheck(ctx));

  const total = toCount(stats?.total);
  const avg = stats?.avg_ms === null || stats?.avg_ms === undefined ? null : Math.round(Number(stats.avg_ms));
  const failed = checks.filter((c) => !c.passed).length;
  return {
    success: true,
    overall_status: failed === 0 ? 'healthy' : 'degraded',
    checks_passed: checks.length - failed,
    checks_failed: failed,
    checks,
    stats: {
      messages24h: total,
      successRate: total ? percent(toCount(stats?.ok), total) : 100,
      avgProcessingMs: total ? avg : null,
      recentErrors: errors.map((e) => ({ at: e.updated_at ?? e.created_at, error: (e.error_message ?? '').slice(0, 200) })),
    },
    checkedAt: nowIso,
  };
}

/**
 * With SMS_SEND_RATE, how long the due texts take at that pace: a backlog going out at the pace is
 * not a stuck sender.
 */
async function pacedBacklogMs(ctx: AppContext): Promise<number> {
  const rate = sendRateOf(ctx);
  if (!rate) return 0;
  const due = await ctx.db
    .selectFrom('sms_messages')
    .select((eb) => eb.fn.countAll().as('n'))
    .where(sql<boolean>`direction = 'outbound' and status = 'pending'`)
    .where('send_after', '<=', ctx.clock.now().toISOString())
    .executeTakeFirst();
  return (toCount(due?.n) / rate) * 1000;
}

function providerCheck(ctx: AppContext): HealthCheck {
  const sms = ctx.config.sms;
  if (sms.provider === 'twilio') {
    const ok = !!(sms.accountSid && sms.authToken && (sms.from || sms.messagingServiceSid));
    return { name: 'provider', passed: ok, message: ok ? 'Twilio configured' : 'Twilio credentials are incomplete' };
  }
  const ok = !ctx.config.isProduction;
  return { name: 'provider', passed: ok, message: ok ? 'SMS simulator (development)' : 'No SMS provider configured in production' };
}
