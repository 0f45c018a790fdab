/**
 * Text commands (issue 6): a command is the whole message, in any case, so an ordinary sentence that
 * happens to start with a command word ("Undo the knot", "Remind me to call Mum") stays journal text.
 * Pure: no I/O, no clock.
 */
export type TextCommand =
  | { name: 'undo' }
  | { name: 'link' }
  | { name: 'commands' }
  | { name: 'resume' }
  /** The rest of the text, for yesterday's entry (may be empty: then photos only, or a hint). */
  | { name: 'yesterday'; text: string }
  /** days is 1-30; null when the number given is out of range. */
  | { name: 'pause'; days: number | null }
  /** time is HH:MM on a quarter hour, 'off', or null when REMIND came without a time we can read. */
  | { name: 'remind'; time: string | 'off' | null; rounded: boolean };

/** PAUSE without a number. */
const DEFAULT_PAUSE_DAYS = 7;
const MAX_PAUSE_DAYS = 30;

// Trailing full stops and exclamation marks are forgiven: phones add them.
const END = String.raw`\s*[.!]*`;
const WORD = (word: string) => new RegExp(`^${word}${END}$`, 'i');
const SIMPLE: ReadonlyArray<[RegExp, TextCommand]> = [
  [WORD('undo'), { name: 'undo' }],
  [WORD('link'), { name: 'link' }],
  [WORD('commands'), { name: 'commands' }],
  [WORD('resume'), { name: 'resume' }],
];
const PAUSE = new RegExp(`^pause(?:\\s+(\\d{1,3})(?:\\s*days?)?)?${END}$`, 'i');
const REMIND = new RegExp(`^remind(?:\\s+(.+?))?${END}$`, 'is');
// The colon may sit anywhere after the word; a dash needs a space before it ("Yesterday-ish" is a word).
const YESTERDAY = /^yesterday\s*(?::|\s[-\u2013\u2014])\s*([\s\S]*)$/i;
const YESTERDAY_DASH_ONLY = /^yesterday\s*[-\u2013\u2014]$/i;

/** The command a whole text is, or null for journal text. */
export function parseTextCommand(body: string): TextCommand | null {
  const text = body.trim();
  for (const [pattern, command] of SIMPLE) if (pattern.test(text)) return command;

  const pause = PAUSE.exec(text);
  if (pause) {
    if (pause[1] === undefined) return { name: 'pause', days: DEFAULT_PAUSE_DAYS };
    const days = Number(pause[1]);
    return { name: 'pause', days: days >= 1 && days <= MAX_PAUSE_DAYS ? days : null };
  }

  const remind = REMIND.exec(text);
  if (remind) {
    const arg = remind[1]?.trim();
    // "REMIND" alone is a command asking how; "Remind me to…" is a sentence.
    if (arg === undefined) return { name: 'remind', time: null, rounded: false };
    if (/^off$/i.test(arg)) return { name: 'remind', time: 'off', rounded: false };
    if (!looksLikeTime(arg)) return null;
    const time = parseClockTime(arg);
    return time ? { name: 'remind', ...time } : { name: 'remind', time: null, rounded: false };
  }

  const yesterday = YESTERDAY.exec(text);
  if (yesterday) return { name: 'yesterday', text: yesterday[1]!.trim() };
  if (YESTERDAY_DASH_ONLY.test(text)) return { name: 'yesterday', text: '' };
  return null;
}

const TIME_SHAPE = /^(\d{1,2})(?:[:.](\d{2}))?\s*(a\.?m\.?|p\.?m\.?)?$/i;

/** Digits with an optional :MM and am/pm: a time, or a mistyped one (REMIND 25:00). */
function looksLikeTime(arg: string): boolean {
  return TIME_SHAPE.test(arg);
}

/**
 * "9pm", "9:30 pm", "21:30", "7" (24-hour) → HH:MM rounded to the nearest quarter hour (the settings'
 * steps); null for a time that does not exist (25:00, 13pm, 9:75).
 */
export function parseClockTime(arg: string): { time: string; rounded: boolean } | null {
  const match = TIME_SHAPE.exec(arg.trim());
  if (!match) return null;
  let hours = Number(match[1]);
  const minutes = match[2] === undefined ? 0 : Number(match[2]);
  const meridiem = match[3]?.replace(/\./g, '').toLowerCase();
  if (minutes > 59) return null;
  if (meridiem) {
    if (hours < 1 || hours > 12) return null;
    hours = (hours % 12) + (meridiem === 'pm' ? 12 : 0);
  } else if (hours > 23) return null;
  const total = Math.round((hours * 60 + minutes) / 15) * 15;
  const wrapped = total % (24 * 60);
  const hh = String(Math.floor(wrapped / 60)).padStart(2, '0');
  const mm = String(wrapped % 60).padStart(2, '0');
  return { time: `${hh}:${mm}`, rounded: total !== hours * 60 + minutes };
}
