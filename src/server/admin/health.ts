import { sql } from 'kysely';
import { SMS_STATS_WINDOW_HOURS, type HealthCheck, type SmsHealthResponse } from '../../shared/admin';
import type { AppContext } from '../context';
import { percent, toCount } from './common';

/** An outbound text still waiting this long after it was due means the sender is stuck. */
const OUTBOUND_STUCK_MS = 10 * 60_000;
/** An inbound text unprocessed this long means processing is falling behind. */
const INBOUND_BACKLOG_MS = 5 * 60_000;
const RECENT_ERRORS = 5;

/** SMS health: four checks and the last 24 hours of inbound traffic (processing time measured). */
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

  const stuckBefore = new Date(now.getTime() - OUTBOUND_STUCK_MS).toISOString();
  const backlogBefore = new Date(now.getTime() - INBOUND_BACKLOG_MS).toISOString();
  const [stuck, backlog, stats, errors] = dbOk
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
      ])
    : [undefined, undefined, undefined, []];

  const stuckCount = toCount(stuck?.n);
  checks.push({
    name: 'outbound_sender',
    passed: dbOk && stuckCount === 0,
    message: stuckCount ? `${stuckCount} outbound text(s) waiting more than 10 minutes` : 'Outbound texts are going out',
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

function providerCheck(ctx: AppContext): HealthCheck {
  const sms = ctx.config.sms;
  if (sms.provider === 'twilio') {
    const ok = !!(sms.accountSid && sms.authToken && sms.from);
    return { name: 'provider', passed: ok, message: ok ? 'Twilio configured' : 'Twilio credentials are incomplete' };
  }
  const ok = !ctx.config.isProduction;
  return { name: 'provider', passed: ok, message: ok ? 'SMS simulator (development)' : 'No SMS provider configured in production' };
}
