// The one-time recovery code: 25 symbols of Crockford's base32 (no I, L, O or U, so it reads aloud
// and types without mistakes), in five groups of five: 125 random bits, beyond guessing even at
// Argon2id's cheapest.

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const RECOVERY_GROUPS = 5;
const GROUP_LENGTH = 5;

/** A new code, e.g. `7MZQ4-K2D9X-…`, from the browser's CSPRNG. */
export function newRecoveryCode(random: (bytes: Uint8Array) => Uint8Array = (b) => crypto.getRandomValues(b)): string {
  // 32 symbols divide 256 evenly: a byte's low five bits are uniform.
  const bytes = random(new Uint8Array(RECOVERY_GROUPS * GROUP_LENGTH));
  const symbols = Array.from(bytes, (b) => ALPHABET[b & 31]!).join('');
  return symbols.match(new RegExp(`.{${GROUP_LENGTH}}`, 'g'))!.join('-');
}

/**
 * A code as typed, in the form it was made: case, spaces and dashes do not matter, and the letters
 * people mistake for digits (O, I, L) read as those digits.
 */
export function normalizeRecoveryCode(typed: string): string {
  const symbols = typed
    .toUpperCase()
    .replace(/[\s-]/g, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1');
  return symbols.match(new RegExp(`.{1,${GROUP_LENGTH}}`, 'g'))?.join('-') ?? '';
}

export function isWellFormedRecoveryCode(typed: string): boolean {
  const code = normalizeRecoveryCode(typed);
  return code.length === RECOVERY_GROUPS * (GROUP_LENGTH + 1) - 1 && [...code.replace(/-/g, '')].every((c) => ALPHABET.includes(c));
}

/** The group (1-based) of the code that confirming asks for. */
export function recoveryGroup(code: string, group: number): string {
  return normalizeRecoveryCode(code).split('-')[group - 1] ?? '';
}
