import { countWords, normalizeEntryText } from '../../shared/journal';
import type { AppContext } from '../context';
import { SYSTEM_SUBJECT } from '../crypto/encryption';
import type { Db } from '../db/database';
import type { SmsMessage } from '../db/tables';
import { newTimeOrderedId } from '../ids';
import type { SmsMedia } from '../journal/sms-entries';
import type { SealedWords } from '../journal/words';
import { sealSegment } from '../crypto/sealed-box';
import { readText } from './inbound-rules';
import { providerKeywordOf, type Keyword } from './keywords';
import { isOversizedText, refuseOversizedText } from './oversized-text';
import { findHolderAndVault, insertInboundOnce, unprocessedTextsLike } from './repo';
import { INBOUND_TEXTS } from '../jobs/wakeups';

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
 * body is kept until the inbound job has processed it (inbound-job.ts): a Vault user's journal words
 * sealed to the vault's public key here, before anything is written, so no copy that a key of the
 * server decrypts ever exists; any other text encrypted with the system key.
 */
export async function recordInboundText(ctx: AppContext, text: InboundText): Promise<{ id: string; duplicate: boolean }> {
  const at = ctx.clock.now();
  const now = at.toISOString();
  const id = newTimeOrderedId(at);
  const providerKeyword = providerKeywordOf(text.optOutType);
  const body = await bodyToRecord(ctx, text, at, providerKeyword);
  const inserted = await insertInboundOnce(ctx.db, { id, messageSid: text.messageSid, from: text.from, to: text.to, at: now }, {
    // Until processed, the kind says whether the provider already answered a keyword.
    kind: providerKeyword ? `provider_${providerKeyword}` : 'inbound',
    status: 'received',
    ...body,
    media: text.media.length ? JSON.stringify(text.media) : null,
  });
  return { id, duplicate: !inserted };
}

/** A recorded body that holds a Vault user's sealed words: this prefix, then SealedWords as JSON. */
const SEALED_BODY = 'VAULT:';

async function bodyToRecord(ctx: AppContext, text: InboundText, at: Date, provider: Exclude<Keyword, 'yes'> | null): Promise<{ body: string; user_id?: string }> {
  const holder = await findHolderAndVault(ctx.db, text.from);
  // A vault being turned off takes texts in the clear again (vault/service.ts).
  if (holder?.public_key && holder.state !== 'unsealing') {
    // Read as processing will read it: keywords and commands hold no journal words and stay as they are.
    const read = readText(text.body, text.media.length > 0, provider, Boolean(holder.is_opted_out));
    const words = read.kind === 'journal' ? normalizeEntryText(read.text) : '';
    if (read.kind === 'journal' && words) {
      const box = await sealSegment(holder.public_key, { text: words, at: at.toISOString(), source: 'sms' });
      const sealed: SealedWords = { box, words: countWords(words), length: words.length, yesterday: read.yesterday };
      return { body: SEALED_BODY + JSON.stringify(sealed), user_id: holder.id };
    }
  }
  return { body: ctx.cipher.encrypt(SYSTEM_SUBJECT.id, SYSTEM_SUBJECT.salt, text.body) };
}

/** A recorded text's body as processing reads it: its words, or a Vault user's words sealed on arrival. */
export function recordedBody(ctx: AppContext, row: Pick<SmsMessage, 'body' | 'user_id'>): { body: string; sealed?: SealedWords & { userId: string } } {
  if (row.body?.startsWith(SEALED_BODY) && row.user_id) {
    return { body: '', sealed: { ...(JSON.parse(row.body.slice(SEALED_BODY.length)) as SealedWords), userId: row.user_id } };
  }
  return { body: ctx.cipher.decrypt(SYSTEM_SUBJECT.id, SYSTEM_SUBJECT.salt, row.body ?? '') };
}

/** Whether a user has texts sealed on arrival that processing has not put in the journal yet. */
export function sealedTextsWaiting(db: Db, userId: string): Promise<boolean> {
  return unprocessedTextsLike(db, userId, `${SEALED_BODY}%`);
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
  ctx.jobs.wake(INBOUND_TEXTS);
}
