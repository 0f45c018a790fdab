import type { AppContext } from '../context';
import { SYSTEM_SUBJECT } from '../crypto/encryption';
import { newTimeOrderedId } from '../ids';
import type { SmsMedia } from '../journal/sms-entries';
import { providerKeywordOf } from './keywords';
import { isOversizedText, refuseOversizedText } from './oversized-text';
import { insertInboundOnce } from './repo';

/** One inbound text as the provider delivered it (Twilio's webhook fields, parsed). */
export interface InboundText {
  messageSid: string;
  from: string;
  to: string;
  body: string;
  media: SmsMedia[];
  /** Twilio Advanced Opt-Out's classification (STOP, START, HELP); it has already replied. */
  optOutType?: string;
}

/**
 * Records an inbound text, committed before the caller answers the provider. The provider id is
 * unique, so a redelivered webhook finds it recorded and is acknowledged without a second row. The
 * body is sealed with the system key until the inbound job has processed it (inbound-job.ts).
 */
export async function recordInboundText(ctx: AppContext, text: InboundText): Promise<{ id: string; duplicate: boolean }> {
  const at = ctx.clock.now();
  const now = at.toISOString();
  const id = newTimeOrderedId(at);
  const providerKeyword = providerKeywordOf(text.optOutType);
  const inserted = await insertInboundOnce(ctx.db, { id, messageSid: text.messageSid, from: text.from, to: text.to, at: now }, {
    // Until processed, the kind says whether the provider already answered a keyword.
    kind: providerKeyword ? `provider_${providerKeyword}` : 'inbound',
    status: 'received',
    body: ctx.cipher.encrypt(SYSTEM_SUBJECT.id, SYSTEM_SUBJECT.salt, text.body),
    media: text.media.length ? JSON.stringify(text.media) : null,
  });
  return { id, duplicate: !inserted };
}

/**
 * What the webhook and the dev phone do with a text: refuse it when it is over Twilio's maximum
 * (oversized-text.ts), else record it and wake the inbound job, which processes it moments later.
 */
export async function receiveInboundText(ctx: AppContext, text: InboundText): Promise<void> {
  if (isOversizedText(text.body)) {
    await refuseOversizedText(ctx, text);
    return;
  }
  const recorded = await recordInboundText(ctx, text);
  if (recorded.duplicate) return;
  ctx.simulators.sms?.receive({ id: text.messageSid, from: text.from, to: text.to, body: text.body, at: ctx.clock.now().toISOString() });
  ctx.inbound.kick();
}
