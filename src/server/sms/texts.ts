import { messages } from '../../shared/messages';

/**
 * Every automated text, in one place. Carrier rules (CTIA, A2P 10DLC): the verification and opt-in
 * texts carry the brand, the frequency, the rates line and STOP/HELP; the HELP reply carries the brand
 * and a support contact. Plain ASCII only: one curly quote would switch a text to UCS-2 and double
 * its segments.
 */
export const BRAND = 'Jotline';
export const SUPPORT_EMAIL = 'support@jotline.app';
const FREQUENCY = 'Msg frequency varies, up to 2 msgs/day.';
const RATES = 'Msg & data rates may apply.';
const KEYWORDS = 'Reply HELP for help, STOP to opt out.';

/**
 * How a text names an account to the phone's owner, who must tell their own sign-up from someone
 * else's: the address's first and last letters and its domain (alice@gmail.com → a***e@gmail.com).
 */
export function accountLabel(email: string): string {
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at);
  const ends = local.length > 2 ? `${local[0]}***${local.at(-1)}` : `${local[0] ?? ''}***`;
  return `${ends}${email.slice(at)}`;
}

export const smsTexts = {
  /** Names the account, so the phone's owner confirms only their own sign-up. */
  verification: (account: string) =>
    `${BRAND}: Reply YES to confirm this phone for the ${BRAND} account ${account}. Not your sign-up? Ignore this text. ${FREQUENCY} ${RATES} ${KEYWORDS}`,

  /** Several sign-ups claim one number: YES alone verifies none of them; the owner picks theirs by code. */
  chooseAccount: (choices: ReadonlyArray<{ code: string; account: string }>) =>
    `${BRAND}: ${choices.length} sign-ups are waiting for this phone. Reply ${listed(choices.map((c) => `${c.code} for ${c.account}`))}. Reply only for your own sign-up. Reply STOP to opt out.`,

  /** After YES: the opt-in confirmation. */
  welcome: () =>
    `${BRAND}: Your phone is verified. Text this number anytime to add to your journal. ${FREQUENCY} ${RATES} ${KEYWORDS}`,

  optedOut: () =>
    `${BRAND}: You are unsubscribed and will get no more texts from us. Reply START to resubscribe.`,

  optedIn: () => `${BRAND}: You are resubscribed to texts. ${FREQUENCY} ${RATES} ${KEYWORDS}`,

  help: (publicUrl: string) =>
    `${BRAND}: Text this number to add to your journal; read it at ${publicUrl}. Help: ${SUPPORT_EMAIL}. ${RATES} Reply STOP to opt out. ${messages.textCommands.helpMore}`,

  /** A streak or a count of journal days reached (spec: check-milestone). */
  milestone: (milestone: { kind: 'streak' | 'days'; count: number }) =>
    milestone.kind === 'streak'
      ? `${BRAND}: ${milestone.count} days in a row! Your journal streak is growing. Keep texting. Reply STOP to opt out.`
      : `${BRAND}: You have now written on ${milestone.count} days. That is a journal worth keeping. Reply STOP to opt out.`,

  signUpHint: (publicUrl: string) =>
    `${BRAND}: This number is not linked to a journal yet. Sign up at ${publicUrl}/sign-up to start journaling by text. Reply STOP to opt out.`,

  subscribeToContinue: (publicUrl: string) =>
    `${BRAND}: Your text is saved in your journal, but your access has ended. Subscribe at ${publicUrl}/subscribe to keep journaling. Reply STOP to opt out.`,

  /** A text over the 1,600-character limit: refused whole, so the sender knows to split it. */
  textTooLong: (length: number) =>
    `${BRAND}: Your text was too long to save (${length.toLocaleString('en-US')} characters; the limit is 1,600), so it is not in your journal. Please send it in shorter parts. Reply STOP to opt out.`,

  /** The daily reminder when prompts are on: today's prompt from the rotating list. */
  dailyPrompt: (prompt: string) => `${BRAND}: ${prompt} Text back to add it to your journal. Reply STOP to opt out.`,

  /** The daily reminder when prompts are off. */
  dailyReminder: () => `${BRAND}: Time to write. How was your day? Text back to add it to your journal. Reply STOP to opt out.`,

  /** Instead of the daily reminder, the day after a day without an entry. */
  missedDayNudge: () =>
    `${BRAND}: We missed you yesterday. No pressure - even one line today keeps your journal going. Just text back. Reply STOP to opt out.`,

  /** Once a week, at the reminder time, after a week without an entry (and for a month at most). */
  weeklyNudge: () =>
    `${BRAND}: It's been a little while. Your journal is here whenever you are - text one line about today to pick it back up. Reply PAUSE for a break, STOP to opt out.`,

  /** Sunday 6pm: counts only, never entry text. */
  weeklyRecap: (week: { entries: number; days: number; words: number; streak: number }) =>
    week.entries === 0
      ? `${BRAND} weekly recap: no entries this week. A fresh week starts tomorrow - text a line anytime. Reply STOP to opt out.`
      : `${BRAND} weekly recap: ${plural(week.entries, 'entry', 'entries')} on ${plural(week.days, 'day', 'days')}, ${plural(week.words, 'word', 'words')}. Streak: ${plural(week.streak, 'day', 'days')}. Keep it up! Reply STOP to opt out.`,
};

function listed(items: string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

function plural(n: number, one: string, many: string): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}
