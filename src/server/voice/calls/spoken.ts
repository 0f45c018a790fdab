/**
 * Every sentence a caller hears, in one place. Said by Twilio's text-to-speech, so the site is
 * named by its host (a listener can type "jotline.app", not a URL with a scheme).
 */
const site = (publicUrl: string) => new URL(publicUrl).host;

export const spokenTexts = {
  /** Before the tone. */
  greeting: 'Jotline. Talk after the tone, then hang up.',
  /** After the recording. */
  saved: 'Saved.',
  /** A number no account has verified, and no sign-up claims. */
  unknownNumber: (publicUrl: string) => `This number is not linked to a Jotline journal. Sign up at ${site(publicUrl)} to start your journal.`,
  /** A sign-up claims the number, but its owner has not confirmed it. */
  unverified: 'This number is not verified yet. Reply YES to the text Jotline sent you, then call again.',
  /** The account's trial or subscription has ended. */
  noAccess: (publicUrl: string) => `Your Jotline access has ended. Subscribe at ${site(publicUrl)} to keep journaling by phone.`,
  /** Past VOICE_CALLS_PER_DAY calls today. */
  tooManyCalls: (perDay: number) => `You have made ${perDay} ${perDay === 1 ? 'call' : 'calls'} to your journal today, the most for one day. Call again tomorrow, or text instead.`,
} as const;
