import type { AppContext } from '../context';
import { TWILIO_OPTED_OUT } from '../providers/sms/types';
import { optOutRecipient } from './opt-out';
import { redactAfter } from './redact';
import { findOutboundByProviderId, updateMessage } from './repo';

// Callbacks can arrive out of order; a later stage never goes back to an earlier one.
const STAGE: Record<string, number> = {
  pending: 0,
  sending: 1,
  accepted: 1,
  scheduled: 1,
  queued: 1,
  sent: 2,
  delivered: 3,
  undelivered: 3,
  failed: 3,
  canceled: 3,
  read: 4,
};

interface DeliveryReport {
  messageSid: string;
  status: string;
  errorCode?: string;
}

/** Applies a provider status callback to the outbound row; false when the id is not ours. */
export async function applyDeliveryStatus(ctx: AppContext, report: DeliveryReport): Promise<boolean> {
  const row = await findOutboundByProviderId(ctx.db, report.messageSid);
  if (!row) return false;
  const status = report.status.toLowerCase();
  const advances = (STAGE[status] ?? 0) >= (STAGE[row.status] ?? 0);
  const errorCode = report.errorCode && report.errorCode !== '0' ? report.errorCode : undefined;
  const now = ctx.clock.now();
  await updateMessage(ctx.db, row.id, {
    ...(advances ? { status } : {}),
    // Final now: the provider's copy can go (sms/redact.ts).
    ...(advances && !row.redacted_at && status !== row.status ? { redact_after: redactAfter(ctx, status, now) ?? row.redact_after } : {}),
    ...(errorCode ? { error_code: errorCode, error_message: `Delivery failed (provider error ${errorCode})` } : {}),
    updated_at: now.toISOString(),
  });
  if (errorCode === TWILIO_OPTED_OUT) await optOutRecipient(ctx, { userId: row.user_id, phone: row.to_number });
  ctx.metrics.deliveryReport(Object.hasOwn(STAGE, status) ? status : 'other');
  return true;
}
