import { EMAIL_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './limits';

/**
 * Input-safety and password rules from spec section 5, used by the web forms and the server alike.
 */

/** Fragments that mark an input as an injection attempt (spec 5: sign-in and sign-up). */
const SUSPICIOUS_INPUT_PATTERN =
  /<\s*script|javascript:|vbscript:|onload\s*=|onerror\s*=|eval\s*\(|expression\s*\(|<\s*iframe|<\s*object|<\s*embed/i;

export function isSuspiciousInput(value: string): boolean {
  return SUSPICIOUS_INPUT_PATTERN.test(value);
}

/** Trims an e-mail address and cuts it to the stored maximum. */
export function cleanEmail(value: string): string {
  return value.trim().slice(0, EMAIL_MAX_LENGTH);
}

/** A deliberately loose shape check: something@something.tld, no spaces. */
export function isEmailShaped(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
}

export interface PasswordChecks {
  minLength: boolean;
  uppercase: boolean;
  lowercase: boolean;
  digit: boolean;
}

/** Each sign-up password requirement, so a form can show them as a live checklist. */
export function checkSignUpPassword(password: string): PasswordChecks {
  return {
    minLength: password.length >= PASSWORD_MIN_LENGTH,
    uppercase: /[A-Z]/.test(password),
    lowercase: /[a-z]/.test(password),
    digit: /\d/.test(password),
  };
}

export function isStrongSignUpPassword(password: string): boolean {
  return Object.values(checkSignUpPassword(password)).every(Boolean);
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * True for a day that exists, written YYYY-MM-DD (years 0001 to 9999): 2026-02-30, 2026-13-01,
 * 2026-00-10 and 0000-00-00 are not days. The one rule for every date a request or file carries.
 */
export function isCalendarDay(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!);
}
