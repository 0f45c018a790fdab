import { sql } from 'kysely';
import type { AppContext } from '../context';
import { eachAtOnce, workOffClaims } from '../jobs/claim';
import { SmsSendError } from '../providers/sms/types';
import { nextTryAt } from './outbound-retry';

/** Statuses after which the provider needs the body no more: handed to the carrier, or finished. */
const FINAL_STATUSES: ReadonlySet<string> = new Set(['sent', 'delivered', 'undelivered', 'failed', 'canceled', 'read']);
/** A text whose final delivery report never comes (some carriers send none) is redacted this long after it went out. */
const WITHOUT_REPORT_MS = 24 * 60 * 60_000;
/** A claim older than this belongs to a job that died mid-way; the row is offered again. */
const LEASE_MS = 2 * 60_000;
const BATCH = 100;
/** At most this many a run (every 15 s), so a deployment's history is worked off without a flood of requests. */
const PER_RUN = 1_000;
/** Redactions run side by side: each is one or a few small requests to the provider. */
const CONCURRENCY = 4;

/** Redaction at the provider: Twilio only, on unless TWILIO_REDACT=false. */
function redactionOn(ctx: AppContext): boolean {
  return ctx.config.sms.provider === 'twilio' && ctx.config.sms.redact;
}

/**
 * When an outbound text the provider holds with `status` is to be redacted there: once sent on or
 * final (never before, or the recipient could get an empty text), or a day after it went out. Null
 * when off.
 */
export function redactAfter(ctx: AppContext, status: string, now: Date): string | null {
  if (!redactionOn(ctx)) return null;
  return (FINAL_STATUSES.has(status) ? now : new Date(now.getTime() + WITHOUT_REPORT_MS)).toISOString();
}

interface RedactionSummary {
  redacted: number;
  retrying: number;
  gaveUp: number;
}

/**
 * Redacts the provider's copies of finished texts (inbound ones processed, outbound ones whose
 * redaction time has come): claims a batch under a lease, asks the provider to erase each body and
 * its media, and retries failures with the senders' backoff for up to 24 hours.
 */
export async function redactProviderCopies(ctx: AppContext): Promise<RedactionSummary> {
  const summary: RedactionSummary = { redacted: 0, retrying: 0, gaveUp: 0 };
  if (!redactionOn(ctx)) return summary;
  await workOffClaims({
    limit: PER_RUN,
    claim: async () => {
      const rows = await claim(ctx);
      return rows.length ? { rows } : null;
    },
    handle: (rows) =>
      eachAtOnce(rows, CONCURRENCY, async (row) => {
        summary[await redactOne(ctx, row)]++;
      }),
  });
  return summary;
}

// Written out as the partial index sms_messages_redact_idx (migration 0500) says, so both databases use it.
const awaitingRedaction = sql<boolean>`redacted_at is null and (processed = 1 or redact_after is not null)`;

type Claimed = { id: string; provider_message_id: string | null; redact_attempts: number; redact_after: string | null; updated_at: string };

async function claim(ctx: AppContext): Promise<Claimed[]> {
  const now = ctx.clock.now().toISOString();
  const due = sql<boolean>`provider_message_id is not null and ((redact_after is null and redact_attempts = 0) or redact_after <= ${now})`;
  // Two lookups, each a range of the index: texts due again (or due at last), and inbound texts not yet tried.
  const again = await ctx.db.selectFrom('sms_messages').select('id').where(awaitingRedaction).where('redact_after', '<=', now).limit(BATCH).execute();
  const fresh = await ctx.db
    .selectFrom('sms_messages')
    .select('id')
    .where(awaitingRedaction)
    .where('redact_after', 'is', null)
    .where('redact_attempts', '=', 0)
    .limit(BATCH - again.length)
    .execute();
  const ids = [...again, ...fresh];
  if (ids.length === 0) return [];
  return ctx.db
    .updateTable('sms_messages')
    .set((eb) => ({ redact_after: new Date(Date.parse(now) + LEASE_MS).toISOString(), redact_attempts: eb('redact_attempts', '+', 1) }))
    .where('id', 'in', ids.map((r) => r.id))
    .where(awaitingRedaction)
    .where(due)
    .returning(['id', 'provider_message_id', 'redact_attempts', 'redact_after', 'updated_at'])
    .execute();
}

async function redactOne(ctx: AppContext, row: Claimed): Promise<keyof RedactionSummary> {
  const now = ctx.clock.now();
  let changes: { redacted_at?: string; redact_after: string | null };
  let outcome: keyof RedactionSummary;
  try {
    await ctx.sms.redact(row.provider_message_id!);
    changes = { redacted_at: now.toISOString(), redact_after: null };
    outcome = 'redacted';
  } catch (err) {
    const next = err instanceof SmsSendError && err.permanent ? null : nextTryAt(row.redact_attempts, row.updated_at, err, now);
    // Given up: no time to try again, and the attempts say it was tried.
    changes = { redact_after: next?.toISOString() ?? null };
    outcome = next ? 'retrying' : 'gaveUp';
  }
  // Only while the lease is still this job's.
  await ctx.db.updateTable('sms_messages').set(changes).where('id', '=', row.id).where('redact_after', '=', row.redact_after).execute();
  return outcome;
}
