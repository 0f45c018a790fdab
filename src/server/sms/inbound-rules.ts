import { messages } from '../../shared/messages';
import { findPhoneHolder } from '../auth/phone-claims';
import { getAccessStatus } from '../billing/access';
import type { AppContext } from '../context';
import type { Db } from '../db/database';
import type { Profile } from '../db/tables';
import { TEXTED_SIGN_IN_LINK_TTL_MINUTES } from '../auth/limits';
import { addDays, localDate } from '../journal/dates';
import { changeJournal } from '../journal/changes';
import { appendSms, prepareSms, type SmsMedia } from '../journal/sms-entries';
import type { SealedWords } from '../journal/words';
import { writingPhotoFiles } from '../photos/service';
import { celebrateMilestones } from '../milestones/service';
import { runTextCommand, type ReplyingCommand } from './commands/handle';
import { parseTextCommand } from './commands/parse';
import { keywordOf, type Keyword } from './keywords';
import { enqueueSms } from './outbound';
import { optOutNumber, setUserOptedOut } from './opt-out';
import { smsTexts } from './texts';
import { findProfile, markTextProcessed } from './repo';
import { handleUnverifiedNumber } from './unverified-number';
import { addMmsVoiceNotes, splitMmsMedia } from '../voice/mms';

export interface ReceivedText {
  /** The recorded text's id (sms_messages.id). */
  messageId: string;
  messageSid: string;
  from: string;
  body: string;
  /**
   * A Vault user's journal words, sealed to the vault's public key by the webhook (inbound.ts): the
   * body is then empty, and the text goes to this user's journal as the sealing read it.
   */
  sealed?: SealedWords & { userId: string };
  media: SmsMedia[];
  receivedAt: Date;
  /** Set when the provider classified the text as a keyword and already replied. */
  providerKeyword: Exclude<Keyword, 'yes'> | null;
  /**
   * A text the webhook recorded (sms_messages), processed by the inbound job: when it lands in an
   * entry, its outcome is written in the journal's transaction, and the append need not wait for the
   * disk (the record makes it again if it is lost). `elapsed`: milliseconds since processing began.
   */
  recorded?: { elapsed: () => number };
}

/** What processing made of a text; `kind` is stored on the inbound row. */
export interface HandledText {
  kind: 'opt_out' | 'opt_in' | 'help' | 'verify' | 'unknown_number' | 'unverified' | 'journal' | 'empty' | 'command';
  userId: string | null;
  entryId?: string;
  entryDate?: string;
}

/** What a text from a number's verified owner says, read from its words alone. */
export type ReadText =
  | { kind: 'opt_out' }
  | { kind: 'help' }
  | { kind: 'opt_in' }
  | { kind: 'command'; command: ReplyingCommand }
  | { kind: 'journal'; text: string; yesterday: boolean };

/**
 * The one reading of a text, for the webhook (which seals a Vault user's journal words before
 * anything is written) and for processing alike: keywords first, then commands, then journal words.
 */
export function readText(body: string, hasMedia: boolean, provider: Exclude<Keyword, 'yes'> | null, optedOut: boolean): ReadText {
  const keyword = keywordOf(body);
  if (keyword === 'opt_out' || provider === 'opt_out') return { kind: 'opt_out' };
  if (keyword === 'help' || provider === 'help') return { kind: 'help' };
  // YES from an opted-out user opts back in; otherwise it is journal text.
  if (keyword === 'opt_in' || (provider === 'opt_in' && keyword !== 'yes') || (keyword === 'yes' && optedOut)) return { kind: 'opt_in' };
  // Text commands (whole message; a photo with a caption stays a photo, except YESTERDAY: …).
  const command = parseTextCommand(body);
  if (command?.name === 'yesterday') return { kind: 'journal', text: command.text, yesterday: true };
  if (command && !hasMedia) return { kind: 'command', command };
  return { kind: 'journal', text: body, yesterday: false };
}

/**
 * The SMS rules (DESIGN 7): keywords first (the whole message, tolerant of case, punctuation, emoji
 * and courtesy, plus free-form revocations), then who is texting: only the account that verified the
 * number hears from it (sign-ups that merely claim it: unverified-number.ts). Every reply goes through
 * the outbound queue with a dedupe key, so processing the same text twice never sends twice.
 */
export async function handleInboundText(ctx: AppContext, text: ReceivedText): Promise<HandledText> {
  const provider = text.providerKeyword;
  const today = ctx.clock.now().toISOString().slice(0, 10);
  if (text.sealed) return handleSealedText(ctx, text, text.sealed, today);
  const keyword = keywordOf(text.body);
  const profile = await findPhoneHolder(ctx.db, text.from);
  const userId = profile?.id ?? null;
  const read = readText(text.body, text.media.length > 0, provider, Boolean(profile?.is_opted_out));

  const reply = (kind: string, body: string, dedupeKey = `reply:${text.messageSid}`, expiresAt?: Date) =>
    enqueueSms(ctx, { userId, to: text.from, body, kind, dedupeKey, expiresAt });
  // When the provider answered the keyword itself, we only mirror the state: one confirmation, not two.
  const confirm = async (kind: string, body: string) => {
    if (!provider) await reply(kind, body);
  };

  if (read.kind === 'opt_out') {
    // One confirmation per opt-out (FCC 64.1200(a)(12)), not one per STOP.
    if (await optOutNumber(ctx, text.from)) await confirm('opt_out_confirmation', smsTexts.optedOut());
    return { kind: 'opt_out', userId };
  }
  if (read.kind === 'help') {
    await confirm('help', smsTexts.help(ctx.config.publicUrl));
    return { kind: 'help', userId };
  }
  if (!profile) return handleUnverifiedNumber(ctx, text, keyword);
  if (read.kind === 'opt_in') {
    await setUserOptedOut(ctx, profile.id, false);
    await confirm('opt_in_confirmation', smsTexts.optedIn());
    return { kind: 'opt_in', userId };
  }
  if (read.kind === 'command') {
    const { command } = read;
    // LINK's reply is a sign-in link: once the link has expired (an outage held it), it is dropped, not sent.
    const linkLapses = command.name === 'link' ? new Date(ctx.clock.now().getTime() + TEXTED_SIGN_IN_LINK_TTL_MINUTES * 60_000) : undefined;
    await reply('command_reply', await runTextCommand(ctx, profile, command, text.messageId), undefined, linkLapses);
    return { kind: 'command', userId };
  }
  if (read.yesterday) return appendToYesterday(ctx, profile, text, read.text, today, reply);
  return appendToJournal(ctx, profile, text, today);
}

/**
 * A Vault user's words, sealed at arrival: they go to the journal of the user they were sealed for,
 * on the day the webhook read (YESTERDAY: the day before), whoever holds the number by now.
 */
async function handleSealedText(ctx: AppContext, text: ReceivedText, sealed: SealedWords & { userId: string }, today: string): Promise<HandledText> {
  const profile = await findProfile(ctx.db, sealed.userId);
  if (!profile) return { kind: 'empty', userId: null }; // the account was deleted meanwhile, and its words with it
  const entryDate = sealed.yesterday ? addDays(localDate(text.receivedAt, profile.timezone), -1) : undefined;
  return appendToJournal(ctx, profile, text, today, entryDate, sealed.yesterday ? messages.textCommands.yesterdayAdded : undefined);
}

/** YESTERDAY: … goes into yesterday's entry (the local day before the text arrived), made if missing. */
async function appendToYesterday(
  ctx: AppContext,
  profile: Profile,
  text: ReceivedText,
  rest: string,
  today: string,
  reply: (kind: string, body: string) => Promise<unknown>,
): Promise<HandledText> {
  if (!rest && text.media.length === 0) {
    await reply('command_reply', messages.textCommands.yesterdayEmpty);
    return { kind: 'command', userId: profile.id };
  }
  const yesterday = addDays(localDate(text.receivedAt, profile.timezone), -1);
  return appendToJournal(ctx, profile, { ...text, body: rest }, today, yesterday, messages.textCommands.yesterdayAdded);
}

async function appendToJournal(ctx: AppContext, profile: Profile, text: ReceivedText, today: string, entryDate?: string, replyBody?: string): Promise<HandledText> {
  if (!text.sealed && !text.body.trim() && text.media.length === 0) return { kind: 'empty', userId: profile.id };
  // Voice notes first, each added once however often the text is processed; its photos go with its words.
  const { photos, voice } = splitMmsMedia(text.media);
  const voiceNotes = voice.length ? await addMmsVoiceNotes(ctx, profile.id, text, voice, entryDate) : [];
  if (voice.length) text = { ...text, media: photos };
  const access = await getAccessStatus(ctx, profile.id);
  // The texts a journaled text brings are queued in the entry's own transaction: a crash leaves the
  // entry and its texts, or neither (and the text is processed again). Each has its dedupe key.
  const followUps = async (db: Db, startedEntry: boolean | undefined) => {
    // Without access the text is still kept (nothing a user sends is lost), and the user is told.
    if (!access.hasAccess) {
      const dedupeKey = `subscribe-prompt:${profile.id}:${today}`;
      await enqueueSms(ctx, { userId: profile.id, to: text.from, body: smsTexts.subscribeToContinue(ctx.config.publicUrl), kind: 'subscribe_prompt', dedupeKey }, db);
    }
    // Milestones count the days with an entry and the streak, which only a text that starts an entry
    // can change. A text appended by an earlier processing is checked too (startedEntry unknown).
    if (startedEntry !== false) await celebrateMilestones(ctx, profile.id, { ...profile, hasAccess: access.hasAccess }, db);
    if (replyBody) await enqueueSms(ctx, { userId: profile.id, to: text.from, body: replyBody, kind: 'command_reply', dedupeKey: `reply:${text.messageSid}` }, db);
  };
  // A voice note alone: the text has nothing more to add.
  if (voice.length && !text.sealed && !text.body.trim() && photos.length === 0) {
    const first = voiceNotes[0];
    if (!first) return { kind: 'empty', userId: profile.id };
    const day = entryDate ?? localDate(text.receivedAt, profile.timezone || 'UTC');
    await followUps(ctx.db, undefined);
    if (text.recorded) {
      const outcome = { kind: 'journal', userId: profile.id, entryId: first.entryId, entryDate: day, processingMs: text.recorded.elapsed() };
      await markTextProcessed(ctx.db, text.messageId, outcome, ctx.clock.now().toISOString());
    }
    return { kind: 'journal', userId: profile.id, entryId: first.entryId, entryDate: day };
  }
  const sms = await prepareSms(ctx, {
    userId: profile.id,
    messageId: text.messageId,
    text: text.body,
    sealed: text.sealed,
    receivedAt: text.receivedAt,
    entryDate,
    media: text.media,
    owner: { userId: profile.id, salt: profile.key_salt, timezone: profile.timezone || 'UTC' },
  });
  // One change: the text in its entry, its follow-up texts and (for a recorded text) its outcome.
  const { recorded } = text;
  const entry = await writingPhotoFiles(ctx, (written) =>
    changeJournal(
      ctx,
      profile.id,
      async (trx, revision, words) => {
        const applied = await appendSms(ctx, trx, revision, words, sms, written);
        await followUps(trx, applied.startedEntry);
        if (recorded) {
          const outcome = { kind: 'journal', userId: profile.id, entryId: applied.entryId, entryDate: applied.entryDate, processingMs: recorded.elapsed() };
          await markTextProcessed(trx, text.messageId, outcome, ctx.clock.now().toISOString());
        }
        return applied;
      },
      { redoable: recorded !== undefined },
    ),
  );
  return { kind: 'journal', userId: profile.id, entryId: entry.entryId, entryDate: entry.entryDate };
}
