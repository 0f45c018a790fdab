import { PHONE_MAX_DIGITS } from './limits';

/**
 * Normalises a US phone number typed in any common format to E.164 (+1 and ten digits).
 * A leading 1 is allowed and stripped. Returns null when it is not a valid US number.
 */
export function normalizeUsPhone(input: string): string | null {
  const digits = input.replace(/\D/g, '');
  const national = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
  if (national.length !== 10) return null;
  // NANP: area code and exchange start with 2-9.
  if (!/^[2-9]\d{2}[2-9]\d{6}$/.test(national)) return null;
  return `+1${national}`;
}

/** What the phone field lets a person type: digits and punctuation, at most 11 digits. */
export function limitPhoneInput(input: string): string {
  let digits = 0;
  let out = '';
  for (const ch of input) {
    if (/\d/.test(ch)) {
      if (digits >= PHONE_MAX_DIGITS) continue;
      digits++;
    }
    out += ch;
  }
  return out;
}

/** (•••) •••-1234 — the last four digits only. */
export function maskPhone(e164: string): string {
  const last4 = e164.replace(/\D/g, '').slice(-4);
  return `(•••) •••-${last4}`;
}
