import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context';
import { SYSTEM_SUBJECT } from '../crypto/encryption';
import { commitTogether } from '../db/group-commit';
import { newTimeOrderedId } from '../ids';
import type { SmsMedia } from '../journal/sms-entries';
import { providerKeywordOf } from './keywords';
import { isOversizedText, refuseOversizedText } from './oversized-text';
import { inboundQueueOf } from './inbound-queue';
import { insertReceivedOnce } from './repo';

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
 * Records an inbound text durably before anything else happens. The provider id is unique, so a
 * redelivered webhook finds it recorded and is acknowledged without being processed twice.
 */
export async function recordInboundText(ctx: AppContext, text: InboundText): Promise<{ id: string; duplicate: boolean }> {
  const at = ctx.clock.now();
  const now = at.toISOString();
  const id = newTimeOrderedId(at);
  const providerKeyword = providerKeywordOf(text.optOutType);
  const row = {
    id,
    messageSid: text.messageSid,
    from: text.from,
    to: text.to,
    at: now,
    // Until processed, the kind says whether the provider already answered a keyword.
    kind: providerKeyword ? `provider_${providerKeyword}` : 'inbound',
    body: ctx.cipher.encrypt(SYSTEM_SUBJECT.id, SYSTEM_SUBJECT.salt, text.body),
    media: text.media.length ? JSON.stringify(text.media) : null,
  };
  // Texts arriving together are committed together: a burst of webhooks no longer waits on one
  // disk flush each.
  const inserted = await commitTogether(ctx, (db) => insertReceivedOnce(db, row));
  if (!inserted) return { id, duplicate: true };
  ctx.simulators.sms?.receive({ id: text.messageSid, from: text.from, to: text.to, body: text.body, at: new Date().toISOString() });
  return { id, duplicate: false };
}

/** Processes a recorded text after the webhook has been answered (inbound-queue.ts). Failures are left for the sweep. */
export function processInBackground(ctx: AppContext, id: string, log: FastifyBaseLogger): void {
  inboundQueueOf(ctx).add(id, log);
}

/** Resolves when every text handed to processInBackground so far is done (closing an app, tests). */
export function inboundProcessingSettled(ctx: AppContext): Promise<void> {
  return inboundQueueOf(ctx).idle();
}

/**
 * The whole inbound pipeline, shared by the webhook and the dev phone: record durably, then process
 * after the caller has answered. A duplicate delivery is acknowledged and ignored; a text over
 * Twilio's 1,600-character maximum is refused (see oversized-text.ts).
 */
export async function receiveInboundText(ctx: AppContext, text: InboundText, log: FastifyBaseLogger): Promise<{ id: string; duplicate: boolean }> {
  if (isOversizedText(text.body)) return refuseOversizedText(ctx, text);
  const recorded = await recordInboundText(ctx, text);
  if (!recorded.duplicate) processInBackground(ctx, recorded.id, log);
  return recorded;
}
