import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

/**
 * True when an E.164 number (+1 and ten digits, see normalizeUsPhone) is one we text for a sign-up:
 * a real US number. libphonenumber-js places each +1 area code in its country, so Canadian and
 * Caribbean codes (416, 876, 809, 284…) are refused; on top of it, the premium lines it still calls
 * US (900, and 976 exchanges), N11 service codes and the 555-0100–0199 numbers kept for fiction.
 * The sign-up page checks only the shape (this library would weigh more than the page's budget
 * allows); the server answers with the same message.
 */
export function isUsTextableNumber(e164: string): boolean {
  const match = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(e164);
  if (!match) return false;
  const [, area, exchange, line] = match as unknown as [string, string, string, string];
  if (area === '900' || exchange === '976' || /^[2-9]11$/.test(area) || /^[2-9]11$/.test(exchange)) return false;
  if (exchange === '555' && line.startsWith('01')) return false;
  const parsed = parsePhoneNumberFromString(e164);
  return parsed?.country === 'US' && parsed.isValid();
}
