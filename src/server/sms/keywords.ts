/** What a whole inbound text means when it is one of the carrier keywords. */
export type Keyword = 'opt_out' | 'opt_in' | 'help' | 'yes';

// The carrier-standard set Twilio also enforces, plus the words the FCC names (47 CFR 64.1200(a)(10)).
const KEYWORDS: Record<string, Keyword> = {
  stop: 'opt_out',
  stopall: 'opt_out',
  'stop all': 'opt_out',
  unsubscribe: 'opt_out',
  cancel: 'opt_out',
  end: 'opt_out',
  quit: 'opt_out',
  revoke: 'opt_out',
  optout: 'opt_out',
  'opt out': 'opt_out',
  start: 'opt_in',
  unstop: 'opt_in',
  help: 'help',
  info: 'help',
  yes: 'yes',
};

// Courtesy around a keyword that changes nothing: "STOP please", "Thanks, stop", "stop now".
const COURTESY = /^(?:(?:please|pls|plz|kindly|thanks|thank you|thank u|thx|ty|ok|okay|hi|hey|hello|now|right now|asap|immediately|again|anymore|any more|jotline) )*(.*?)(?: (?:please|pls|plz|thanks|thank you|thank u|thx|ty|now|right now|asap|immediately|again|anymore|any more|ever again|jotline))*$/;

// Free-form revocations a reasonable person reads as "stop texting me". Each must be the whole
// text (after courtesy), so a journal sentence that merely contains the words never matches; a
// request needs its object ("stop texting me", not "I want to stop").
const TEXTS = '(?:text messages|texts|text|txts|messages|message|msgs|sms|reminders|notifications|alerts|prompts|subscription)';
const THE = '(?:(?:all )?(?:of )?(?:the|these|this|those|your|ur|my|any|all) )?';
const LIST = `(?:${THE}(?:list|texting list|mailing list|${TEXTS}|service|program|jotline|this|these|them))`;
const TO_YOU = '(?:(?:(?:(?:i|we) (?:want|would like|need)|id like|wed like) you to |(?:can|could|will|would) (?:you|u) |(?:i am|im|we are) asking you to )(?:please )?)?';
const TO_ME = '(?:(?:(?:i|we) (?:want|would like|wish)|id like|wed like) to )?';
const STOP = '(?:stop|quit|end|cease|cancel|halt|discontinue)';
const REVOCATIONS = new RegExp(
  '^(?:' +
    [
      `${TO_YOU}${STOP} (?:texting|txting|messaging|sending|contacting|spamming|bothering)(?: me| us)?(?: ${THE}${TEXTS}| them| these)?`,
      `${TO_YOU}(?:remove|delete) (?:me|us|my number|my phone number|my phone|this number)(?: (?:off|from)(?: of)? ${LIST})?`,
      `${TO_YOU}take (?:me|us|my number|my phone number|this number) (?:off|out)(?: of)? ${LIST}`,
      `${TO_YOU}(?:do not|dont|never) (?:text|txt|message|msg|contact|sms) (?:me|us)(?: ${THE}${TEXTS})?`,
      `${TO_YOU}(?:do not|dont|never) send (?:me |us )?${THE}${TEXTS}`,
      `${TO_ME}unsubscribe(?: me| us)?(?: (?:from|to) ${LIST})?`,
      `${TO_ME}opt (?:me |us )?out(?: (?:of|from) ${LIST})?`,
      `${TO_ME}be removed(?: (?:off|from) ${LIST})?`,
      `stop (?:it|this|these|them|all)`,
      `${STOP}(?: all)? ${THE}${TEXTS}`,
      `no more ${THE}${TEXTS}`,
      `(?:i|we) (?:do not|dont|no longer) want (?:to (?:get|receive) )?${THE}${TEXTS}`,
      '(?:i )?(?:revoke|withdraw)(?: my)? consent',
      'leave me alone',
      'wrong number',
      'not interested',
    ].join('|') +
    ')$',
);

/**
 * A signature a phone or mail app adds as the text's last line ("Sent from my iPhone", "Get Outlook
 * for Android"), or everything from a "--" signature separator on.
 */
const SIGNATURE = /\n\s*(?:--[ \t]*\n[\s\S]*|(?:sent (?:from|via|with) |get outlook for )[^\n]*)$/i;

/** Invisible characters (zero-width spaces and joiners, soft hyphens, byte-order marks, direction marks). */
const INVISIBLE = /\p{Cf}/gu;

/** Three or more letters typed one by one ("S T O P", "s.t.o.p"), as the word they spell. */
const SPACED_LETTERS = /(?<!\S)\p{L}(?: \p{L}){2,}(?!\S)/gu;

/**
 * A text as a person means it, however the phone sent it: compatibility forms folded (fullwidth
 * "ＳＴＯＰ" is STOP), invisible characters out, a trailing signature line dropped; then lower case,
 * apostrophes dropped (don't → dont), every run of punctuation, emoji or space one space, and letters
 * typed one by one read as the word they spell.
 */
function plainWords(body: string): string {
  return body
    .normalize('NFKC')
    .replace(INVISIBLE, '')
    .trim()
    .replace(SIGNATURE, '')
    .toLowerCase()
    .replace(/['’‘`]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .replace(SPACED_LETTERS, (letters) => letters.replaceAll(' ', ''));
}

/** The words left once the courtesy around them is set aside ("please stop now" → "stop"). */
function withoutCourtesy(words: string): string {
  return COURTESY.exec(words)?.[1] ?? words;
}

/**
 * The keyword a whole text is, in any case, with trailing punctuation, emoji or "please"
 * (`STOP.`, `Stop!!`, `stop please`, `STOP 🙏`, `stop stop`), or 'opt_out' for a short free-form
 * revocation ("stop texting me", "no more texts"); null for anything else (journal text).
 */
export function keywordOf(body: string): Keyword | null {
  const words = withoutCourtesy(plainWords(body));
  if (!words) return null;
  const keyword = KEYWORDS[words] ?? repeatedKeyword(words);
  if (keyword) return keyword;
  return REVOCATIONS.test(words) ? 'opt_out' : null;
}

/** "stop stop", "YES YES": one keyword said more than once. */
function repeatedKeyword(words: string): Keyword | null {
  const [first, ...rest] = words.split(' ');
  return rest.length > 0 && rest.length < 4 && rest.every((w) => w === first) ? (KEYWORDS[first!] ?? null) : null;
}

/** The confirmation code a text gives ("4821", "YES 4821", "4821."), or null. */
export function confirmationCodeOf(body: string): string | null {
  return /^(?:yes )?(\d{4})$/.exec(withoutCourtesy(plainWords(body)))?.[1] ?? null;
}

/**
 * Twilio Advanced Opt-Out classifies a text itself and has already replied when it adds
 * OptOutType; we only mirror the state.
 */
export function providerKeywordOf(optOutType: string | undefined): Exclude<Keyword, 'yes'> | null {
  switch (optOutType?.trim().toUpperCase()) {
    case 'STOP':
      return 'opt_out';
    case 'START':
      return 'opt_in';
    case 'HELP':
      return 'help';
    default:
      return null;
  }
}
