import { INBOUND_TEXT_MAX } from '../../shared/limits';
import type { AppContext } from '../context';
import { newTimeOrderedId } from '../ids';
import type { InboundText } from './inbound';
import { enqueueSms } from './outbound';
import { findHolderAndVault, insertInboundOnce } from './repo';
import { smsTexts } from './texts';

export { INBOUND_TEXT_MAX };

/** Characters as a person counts them (an emoji is one), so nothing Twilio accepts is refused. */
export function inboundTextLength(body: string): number {
  return body.length <= INBOUND_TEXT_MAX ? body.length : [...body].length;
}

export function isOversizedText(body: string): boolean {
  return inboundTextLength(body) > INBOUND_TEXT_MAX;
}

/**
 * A text over the limit is refused whole: recorded without its body (so the refusal is on file and
 * a redelivery is a no-op), never processed, and the webhook still answers 200 so Twilio does not
 * retry it. A verified sender is told by text to split it; an unknown or unverified number is not
 * answered. The record and the reply are one commit: a crash between them would leave a refusal on
 * file whose redelivery is a no-op, and the sender never told.
 */
export async function refuseOversizedText(ctx: AppContext, text: InboundText): Promise<{ id: string; duplicate: boolean }> {
  const at = ctx.clock.now();
  const now = at.toISOString();
  const id = newTimeOrderedId(at);
  const length = inboundTextLength(text.body);
  const holder = await findHolderAndVault(ctx.db, text.from);
  return ctx.db.transaction().execute(async (trx) => {
    const inserted = await insertInboundOnce(trx, { id, messageSid: text.messageSid, from: text.from, to: text.to, at: now }, {
      kind: 'too_long',
      status: 'rejected',
      processed: 1,
      processing_ms: 0,
      user_id: holder?.id ?? null,
      error_code: 'TEXT_TOO_LONG',
      error_message: `${length} characters; the limit is ${INBOUND_TEXT_MAX}`,
    });
    if (!inserted) return { id, duplicate: true };
    if (holder) await enqueueSms(ctx, { userId: holder.id, to: text.from, body: smsTexts.textTooLong(length), kind: 'too_long', dedupeKey: `reply:${text.messageSid}` }, trx);
    return { id, duplicate: false };
  });
}
