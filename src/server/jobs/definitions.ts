import { deleteExpiredRefreshTokens } from '../auth/expired-sessions';
import { expirePendingSignUps } from '../auth/pending-sign-ups';
import { sweepRateLimitHits } from '../rate-limit';
import { runReminderPass } from '../reminders/service';
import { sendDueMessages } from '../sms/outbound';
import { runInboundSweep } from '../sms/inbound-sweep';
import type { JobDefinition } from './scheduler';

export const OUTBOUND_SENDER = 'outbound-sender';

/** Every background job. Each claims its own work in the database, so every instance may run them. */
export const jobDefinitions: JobDefinition[] = [
  { name: OUTBOUND_SENDER, everyMs: 1_000, run: (ctx) => sendDueMessages(ctx) },
  // The first run, as the instance starts, takes over texts a killed instance left (inbound-sweep.ts).
  { name: 'inbound-sweep', everyMs: 10_000, run: (ctx) => runInboundSweep(ctx) },
  { name: 'reminders', everyMs: 60_000, run: (ctx) => runReminderPass(ctx, ctx.clock.now()) },
  { name: 'pending-sign-ups', everyMs: 60_000, run: (ctx) => expirePendingSignUps(ctx) },
  { name: 'expired-sessions', everyMs: 3_600_000, run: (ctx) => deleteExpiredRefreshTokens(ctx) },
  { name: 'rate-limit-hits', everyMs: 600_000, run: (ctx) => sweepRateLimitHits(ctx) },
];
