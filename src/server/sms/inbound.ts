import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context';
import { SYSTEM_SUBJECT } from '../crypto/encryption';
import { commitTogether } from '../db/group-commit';
import { newTimeOrderedId } from '../ids';
import { inboundSpoolOf, openInboundSpool, replayInboundSpools } from '../inbound-spool/spool';
import type { SmsMedia } from '../journal/sms-entries';
import { providerKeywordOf } from './keywords';
import { isOversizedText, refuseOversizedText } from './oversized-text';
import { inboundQueueOf } from './inbound-queue';
import { insertReceivedOnce, type ReceivedRow } from './repo';

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
  const row = receivedRowOf(ctx, text);
  // Texts arriving together are committed together: a burst of webhooks no longer waits on one
  // disk flush each.
  const inserted = await commitTogether(ctx, (db) => insertReceivedOnce(db, row));
  if (!inserted) return { id: row.id, duplicate: true };
  ctx.simulators.sms?.receive(simulatorTextOf(text));
  return { id: row.id, duplicate: false };
}

/** The row a received text is recorded as; its body sealed with the system key. */
function receivedRowOf(ctx: AppContext, text: InboundText): ReceivedRow {
  const at = ctx.clock.now();
  const providerKeyword = providerKeywordOf(text.optOutType);
  return {
    id: newTimeOrderedId(at),
    messageSid: text.messageSid,
    from: text.from,
    to: text.to,
    at: at.toISOString(),
    // Until processed, the kind says whether the provider already answered a keyword.
    kind: providerKeyword ? `provider_${providerKeyword}` : 'inbound',
    body: ctx.cipher.encrypt(SYSTEM_SUBJECT.id, SYSTEM_SUBJECT.salt, text.body),
    media: text.media.length ? JSON.stringify(text.media) : null,
  };
}

function simulatorTextOf(text: InboundText) {
  return { id: text.messageSid, from: text.from, to: text.to, body: text.body, at: new Date().toISOString() };
}

/** Processes a recorded text after the webhook has been answered (inbound-queue.ts). Failures are left for the sweep. */
export function processInBackground(ctx: AppContext, id: string, log: FastifyBaseLogger): void {
  inboundQueueOf(ctx).add(id, log);
}

/**
 * Resolves when every text received so far is in the database and processed, or left for the sweep
 * (closing an app, tests).
 */
export async function inboundProcessingSettled(ctx: AppContext): Promise<void> {
  await inboundSpoolOf(ctx)?.drain();
  await inboundQueueOf(ctx).idle();
}

/**
 * The whole inbound pipeline, shared by the webhook and the dev phone: record durably, then process
 * after the caller has answered. A duplicate delivery is acknowledged and ignored; a text over
 * Twilio's 1,600-character maximum is refused (see oversized-text.ts). On a SQLite file the text is
 * recorded in the app's spool and moves into the database a moment later (inbound-spool/spool.ts);
 * a duplicate is then found as it moves.
 */
export async function receiveInboundText(ctx: AppContext, text: InboundText, log: FastifyBaseLogger): Promise<void> {
  if (isOversizedText(text.body)) {
    await refuseOversizedText(ctx, text);
    return;
  }
  const spool = inboundSpoolOf(ctx);
  if (!spool) {
    const recorded = await recordInboundText(ctx, text);
    if (!recorded.duplicate) processInBackground(ctx, recorded.id, log);
    return;
  }
  // Processing gives way to the webhooks from now, not from when the text reaches the database.
  inboundQueueOf(ctx).arriving();
  await spool.append(receivedRowOf(ctx, text), log);
  ctx.simulators.sms?.receive(simulatorTextOf(text));
}

/**
 * Opens the app's inbound spool on a SQLite file, after recording what a killed server left in its
 * own and queueing those texts for processing (inbound-spool/spool.ts).
 */
export async function startInboundSpool(ctx: AppContext, databaseFile: string, log: FastifyBaseLogger): Promise<void> {
  const left = await replayInboundSpools(ctx, databaseFile, log);
  for (const id of left) processInBackground(ctx, id, log);
  openInboundSpool(
    ctx,
    databaseFile,
    (texts) => {
      for (const { id, log: requestLog } of texts) processInBackground(ctx, id, requestLog);
    },
    inboundQueueOf(ctx),
  );
}
