// A small passphrase strength estimate: the bits an attacker who knows how people pick passwords
// would have to search. No dictionary library: the common shapes (a repeated or sequential run, a
// word with a digit and a mark tacked on) are discounted, and length counts most.

export type Strength = 'empty' | 'weak' | 'fair' | 'good' | 'strong';

/** The estimate a vault passphrase must reach (fair or better), and its least length. */
export const MIN_PASSPHRASE_BITS = 50;
export const MIN_PASSPHRASE_LENGTH = 12;

const COMMON = ['password', 'passphrase', 'qwerty', 'letmein', 'iloveyou', 'welcome', 'journal', 'jotline', 'secret', 'admin', 'monkey', 'dragon', 'abc123', '123456'];

function poolSize(text: string): number {
  let pool = 0;
  if (/[a-z]/.test(text)) pool += 26;
  if (/[A-Z]/.test(text)) pool += 26;
  if (/[0-9]/.test(text)) pool += 10;
  if (/[^a-zA-Z0-9\s]/.test(text)) pool += 33;
  if (/\s/.test(text)) pool += 1;
  // eslint-disable-next-line no-control-regex
  if (/[^\u0000-\u007f]/.test(text)) pool += 100;
  return Math.max(pool, 1);
}

/** How many characters carry information: runs of one character or of a sequence count once. */
function effectiveLength(text: string): number {
  const chars = [...text.toLowerCase()];
  let length = chars.length ? 1 : 0;
  for (let i = 1; i < chars.length; i++) {
    const step = chars[i]!.codePointAt(0)! - chars[i - 1]!.codePointAt(0)!;
    const previousStep = i > 1 ? chars[i - 1]!.codePointAt(0)! - chars[i - 2]!.codePointAt(0)! : NaN;
    // A repeat (aaa) or a run (abc, 321) after its first two characters adds next to nothing.
    if ((step === 0 || Math.abs(step) === 1) && step === previousStep) length += 0.1;
    else length += 1;
  }
  return length;
}

/** Estimated bits of a passphrase. */
export function passphraseBits(passphrase: string): number {
  const text = passphrase.normalize('NFC');
  if (!text) return 0;
  let bits = effectiveLength(text) * Math.log2(poolSize(text));
  const lower = text.toLowerCase();
  for (const word of COMMON) {
    // A common word is one guess, not its letters.
    if (lower.includes(word)) bits -= word.length * Math.log2(poolSize(word)) - 10;
  }
  return Math.max(0, Math.round(bits));
}

export function strengthOf(passphrase: string): Strength {
  if (!passphrase) return 'empty';
  const bits = passphraseBits(passphrase);
  // The wrapped key can be attacked offline by whoever has a copy of the database: short is weak.
  if (bits < MIN_PASSPHRASE_BITS || [...passphrase].length < MIN_PASSPHRASE_LENGTH) return 'weak';
  if (bits < 65) return 'fair';
  if (bits < 80) return 'good';
  return 'strong';
}
