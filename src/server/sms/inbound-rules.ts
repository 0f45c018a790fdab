import { messages } from '../../shared/messages';
import { isLapsedSignUp } from '../auth/pending-sign-ups';
import { getAccessStatus } from '../billing/access';
import type { AppContext } from '../context';
import type { Profile } from '../db/tables';
import { addDays, localDate } from '../journal/dates';
import { appendSmsToDayEntry, type SettleInJournal, type SmsMedia } from '../journal/sms-entries';
import { celebrateMilestones } from '../milestones/service';
import { runTextCommand } from './commands/handle';
import { parseTextCommand } from './commands/parse';
import { keywordOf, type Keyword } from './keywords';
import { enqueueSms } from './outbound';
import { setUserOptedOut } from './opt-out';
import { findProfileByPhone, lastOptChoiceOf, markPhoneVerified } from './repo';
import { smsTexts } from './texts';

export interface ReceivedText {
  /** The recorded text's id (sms_messages.id). */
  messageId: string;
  messageSid: string;
  from: string;
  body: string;
  media: SmsMedia[];
  receivedAt: Date;
  /** Set when the provider classified the text as a keyword and already replied. */
  providerKeyword: Exclude<Keyword, 'yes'> | null;
  /** Records the text's outcome inside the journal's transaction when it lands in an entry. */
  settle?: SettleInJournal;
}

/** What processing made of a text; `kind` is stored on the inbound row. */
export interface HandledText {
  kind: 'opt_out' | 'opt_in' | 'help' | 'verify' | 'unknown_number' | 'unverified' | 'journal' | 'empty' | 'command';
  userId: string | null;
  entryId?: string;
  entryDate?: string;
}

/**
 * The SMS rules (DESIGN 7): keywords first (whole message, any case), then who is texting. Every
 * reply goes through the outbound queue with a dedupe key, so processing the same text twice never
 * sends twice.
 */
export async function handleInboundText(ctx: AppContext, text: ReceivedText): Promise<HandledText> {
  const keyword = keywordOf(text.body);
  const provider = text.providerKeyword;
  const profile = await findProfileByPhone(ctx.db, text.from);
  const userId = profile?.id ?? null;
  const today = ctx.clock.now().toISOString().slice(0, 10);

  const reply = (kind: string, body: string, dedupeKey = `reply:${text.messageSid}`) =>
    enqueueSms(ctx, { userId, to: text.from, body, kind, dedupeKey });
  // When the provider answered the keyword itself, we only mirror the state: one confirmation, not two.
  const confirm = async (kind: string, body: string) => {
    if (!provider) await reply(kind, body);
  };

  if (keyword === 'opt_out' || provider === 'opt_out') {
    if (profile) await setUserOptedOut(ctx, profile.id, true);
    await confirm('opt_out_confirmation', smsTexts.optedOut());
    return { kind: 'opt_out', userId };
  }
  if (keyword === 'help' || provider === 'help') {
    await confirm('help', smsTexts.help(ctx.config.publicUrl));
    return { kind: 'help', userId };
  }
  if (keyword === 'opt_in' || (provider === 'opt_in' && keyword !== 'yes')) {
    if (!profile) {
      await signUpHint(ctx, text.from, today);
      return { kind: 'opt_in', userId };
    }
    await setUserOptedOut(ctx, profile.id, false);
    await confirm('opt_in_confirmation', smsTexts.optedIn());
    return { kind: 'opt_in', userId };
  }
  if (keyword === 'yes' && profile && !profile.phone_verified) {
    // A sign-up whose verification window has passed is gone (or about to be): sign up again.
    if (await isLapsedSignUp(ctx.db, profile, ctx.clock.now())) {
      await signUpHint(ctx, text.from, today);
      return { kind: 'unverified', userId };
    }
    if (await markPhoneVerified(ctx.db, profile.id, ctx.clock.now().toISOString())) {
      ctx.events.publish(profile.id, { type: 'profile.updated', phone_verified: true });
      await confirm('welcome', smsTexts.welcome());
    }
    return { kind: 'verify', userId };
  }
  if (keyword === 'yes' && profile && profile.is_opted_out) {
    await setUserOptedOut(ctx, profile.id, false);
    await confirm('opt_in_confirmation', smsTexts.optedIn());
    return { kind: 'opt_in', userId };
  }

  if (!profile) {
    // A number that texted STOP and never START gets nothing more from us.
    if ((await lastOptChoiceOf(ctx, text.from)) !== 'opt_out') await signUpHint(ctx, text.from, today);
    return { kind: 'unknown_number', userId };
  }
  if (!profile.phone_verified) {
    await reply('verify_prompt', smsTexts.verification(), `verify-prompt:${text.from}:${today}`);
    return { kind: 'unverified', userId };
  }
  // Text commands (whole message; a photo with a caption stays a photo, except YESTERDAY: …).
  const command = parseTextCommand(text.body);
  if (command?.name === 'yesterday') return appendToYesterday(ctx, profile, text, command.text, today, reply);
  if (command && text.media.length === 0) {
    await reply('command_reply', await runTextCommand(ctx, profile, command, text.messageId));
    return { kind: 'command', userId };
  }
  return appendToJournal(ctx, profile, text, today);
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
  const handled = await appendToJournal(ctx, profile, { ...text, body: rest }, today, yesterday);
  await reply('command_reply', messages.textCommands.yesterdayAdded);
  return handled;
}

async function signUpHint(ctx: AppContext, from: string, today: string): Promise<void> {
  await enqueueSms(ctx, {
    userId: null,
    to: from,
    body: smsTexts.signUpHint(ctx.config.publicUrl),
    kind: 'signup_hint',
    dedupeKey: `signup-hint:${from}:${today}`,
  });
}

async function appendToJournal(ctx: AppContext, profile: Profile, text: ReceivedText, today: string, entryDate?: string): Promise<HandledText> {
  if (!text.body.trim() && text.media.length === 0) return { kind: 'empty', userId: profile.id };
  const access = await getAccessStatus(ctx, profile.id);
  // Without access the text is still kept: nothing a user sends is lost.
  const entry = await appendSmsToDayEntry(ctx, {
    userId: profile.id,
    messageId: text.messageId,
    text: text.body,
    receivedAt: text.receivedAt,
    entryDate,
    media: text.media,
    owner: { userId: profile.id, salt: profile.key_salt, timezone: profile.timezone || 'UTC' },
    settle: text.settle,
  });
  if (!access.hasAccess) {
    // The entry is saved; a failed nudge must not make the sweep append the text a second time.
    await enqueueSms(ctx, {
      userId: profile.id,
      to: text.from,
      body: smsTexts.subscribeToContinue(ctx.config.publicUrl),
      kind: 'subscribe_prompt',
      dedupeKey: `subscribe-prompt:${profile.id}:${today}`,
    }).catch(() => undefined);
  }
  // Milestones count the days with an entry and the streak, which only a text that starts an entry
  // can change. A text appended by an earlier processing is checked too: that processing may have
  // stopped (a crash) between the journal and its check.
  if (entry.startedEntry !== false) await celebrateMilestones(ctx, profile.id, { ...profile, hasAccess: access.hasAccess }).catch(() => undefined);
  return { kind: 'journal', userId: profile.id, entryId: entry.entryId, entryDate: entry.entryDate };
}
