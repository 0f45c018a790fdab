import { confirmClaim, liveClaimsOn, type PhoneClaim } from '../auth/phone-claims';
import type { AppContext } from '../context';
import type { HandledText, ReceivedText } from './inbound-rules';
import { confirmationCodeOf, type Keyword } from './keywords';
import { optInPendingNumber } from './opt-out';
import { enqueueSms } from './outbound';
import { lastOptChoiceOf } from './repo';
import { accountLabel, smsTexts } from './texts';

/**
 * A text (not STOP or HELP) from a number no account has verified. With no sign-up claiming it: the
 * sign-up hint. With one: YES verifies it. With several (someone signed up with another's number):
 * YES verifies none; the owner is asked to reply with their own sign-up's code. Nothing such a text
 * says is kept, and no account but the one the owner confirms ever hears from the number.
 */
export async function handleUnverifiedNumber(ctx: AppContext, text: ReceivedText, keyword: Keyword | null): Promise<HandledText> {
  const today = ctx.clock.now().toISOString().slice(0, 10);
  const reply = (kind: string, body: string, dedupeKey = `reply:${text.messageSid}`) =>
    enqueueSms(ctx, { userId: null, to: text.from, body, kind, dedupeKey });
  const optIn = keyword === 'opt_in' || (text.providerKeyword === 'opt_in' && keyword !== 'yes');
  const claims = await liveClaimsOn(ctx.db, text.from, ctx.clock.now());

  if (claims.length === 0) {
    // START always gets its answer; anything else one hint a day, and none after a STOP.
    if (optIn) {
      await reply('signup_hint', smsTexts.signUpHint(ctx.config.publicUrl));
      return { kind: 'opt_in', userId: null };
    }
    if ((await lastOptChoiceOf(ctx, text.from)) !== 'opt_out') {
      await reply('signup_hint', smsTexts.signUpHint(ctx.config.publicUrl), `signup-hint:${text.from}:${today}`);
    }
    return { kind: 'unknown_number', userId: null };
  }

  const code = confirmationCodeOf(text.body);
  const chosen = code ? claims.find((c) => c.code === code) : keyword === 'yes' && claims.length === 1 ? claims[0] : undefined;
  if (chosen && (await confirmClaim(ctx, chosen.userId))) {
    ctx.events.publish(chosen.userId, { type: 'profile.updated', phone_verified: true });
    // Twilio answered a YES itself when it classified it (OptOutType): one confirmation, not two.
    if (!text.providerKeyword) await enqueueSms(ctx, { userId: chosen.userId, to: text.from, body: smsTexts.welcome(), kind: 'welcome', dedupeKey: `reply:${text.messageSid}` });
    return { kind: 'verify', userId: chosen.userId };
  }
  if (keyword === 'yes' || code || optIn) {
    // The owner answered us: consent to the texts that ask which sign-up is theirs.
    await optInPendingNumber(ctx, text.from);
    await reply('verify_prompt', askToConfirm(claims));
  } else {
    await reply('verify_prompt', askToConfirm(claims), `verify-prompt:${text.from}:${today}`);
  }
  return { kind: 'unverified', userId: null };
}

function askToConfirm(claims: PhoneClaim[]): string {
  if (claims.length === 1) return smsTexts.verification(accountLabel(claims[0]!.email));
  // Addresses made to look alike (alice@… and a different a…e@…) are shown whole, so the owner can tell them apart.
  const labels = claims.map((c) => accountLabel(c.email));
  const alike = (label: string) => labels.indexOf(label) !== labels.lastIndexOf(label);
  return smsTexts.chooseAccount(claims.map((c, i) => ({ code: c.code, account: alike(labels[i]!) ? c.email : labels[i]! })));
}
