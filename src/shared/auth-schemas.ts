import { z } from 'zod';
import { isSuspiciousInput as isSuspiciousText } from './validation';
import { EMAIL_MAX_LENGTH, PASSWORD_MIN_LENGTH, PHONE_MAX_LENGTH } from './limits';
import { messages, titled } from './messages';
import { normalizeUsPhone } from './phone';
import { mfaGrantSchema, passkeyGrantSchema } from './second-factor';

/** The zones the reminder settings offer (spec section 9). */
export const OFFERED_TIMEZONES = [
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Phoenix',
  'America/Los_Angeles',
  'America/Anchorage',
  'Pacific/Honolulu',
] as const;

export const DEFAULT_TIMEZONE = 'America/New_York';

/** Passwords longer than this are refused before hashing. */
const PASSWORD_MAX_LENGTH = 256;

/** True when the text contains a script fragment the spec refuses (one rule for browser and server). */
export function isSuspiciousInput(value: unknown): boolean {
  return typeof value === 'string' && isSuspiciousText(value);
}

/** The IANA name as the platform spells it ('america/new_york' → 'America/New_York'), or null. */
export function canonicalTimezone(value: string): string | null {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(value)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** The reminder zone a new account starts with: its own zone when offered, else Eastern. */
export function reminderTimezoneFor(timezone: string): string {
  return (OFFERED_TIMEZONES as readonly string[]).includes(timezone) ? timezone : DEFAULT_TIMEZONE;
}

const invalidPhone = titled(messages.signUp.invalidPhoneTitle, messages.signUp.invalidPhone);

/** An e-mail address as stored: trimmed and lower-cased. */
const emailAddress = (required: string) =>
  z
    .string({ error: required })
    .trim()
    .toLowerCase()
    .min(1, required)
    .max(EMAIL_MAX_LENGTH, messages.signIn.invalidEmail)
    .pipe(z.email({ error: messages.signIn.invalidEmail }));

/**
 * Every password a user sets (sign-up, reset, change): 8 or more characters with an upper-case
 * letter, a lower-case letter and a digit. One rule, held by the server.
 */
const passwordSchema = z
  .string({ error: messages.signUp.weakPassword })
  .min(PASSWORD_MIN_LENGTH, messages.signUp.weakPassword)
  .max(PASSWORD_MAX_LENGTH, messages.auth.passwordTooLong)
  .regex(/[A-Z]/, messages.signUp.weakPassword)
  .regex(/[a-z]/, messages.signUp.weakPassword)
  .regex(/\d/, messages.signUp.weakPassword);

/** The sign-up form's rules, checked again by the server (fields in the form's order). */
export const signUpSchema = z.object({
  /** Trimmed, lower-cased, at most 254 characters. */
  email: emailAddress(messages.signUp.emailRequired),
  /** Any common US format; becomes +1 and ten digits. */
  phoneNumber: z
    .string({ error: invalidPhone })
    .max(PHONE_MAX_LENGTH, invalidPhone)
    .transform((value, ctx) => {
      const phone = normalizeUsPhone(value);
      if (!phone) {
        ctx.addIssue({ code: 'custom', message: invalidPhone });
        return z.NEVER;
      }
      return phone;
    }),
  /** The person agreed to receive texts; required. */
  smsConsent: z.literal(true, { error: titled(messages.signUp.consentRequiredTitle, messages.signUp.consentRequired) }),
  password: passwordSchema,
  /** An IANA zone; Eastern when missing. */
  timezone: z
    .string({ error: messages.signUp.invalidTimezone })
    .trim()
    .optional()
    .transform((value, ctx) => {
      if (!value) return DEFAULT_TIMEZONE;
      const zone = canonicalTimezone(value);
      if (!zone) {
        ctx.addIssue({ code: 'custom', message: messages.signUp.invalidTimezone });
        return z.NEVER;
      }
      return zone;
    }),
});
export type SignUpInput = z.input<typeof signUpSchema>;

/** The sign-in form's rules. */
export const signInSchema = z.object({
  email: emailAddress(messages.signIn.emailRequired),
  password: z.string({ error: messages.signIn.passwordRequired }).min(1, messages.signIn.passwordRequired).max(PASSWORD_MAX_LENGTH, messages.signIn.invalidLoginCredentials),
});

/** POST /api/auth/signup (the wire shape; the rules are signUpSchema's). */
export const signUpRequestSchema = z.object({
  email: z.string().optional(),
  password: z.string().optional(),
  phoneNumber: z.string().optional(),
  timezone: z.string().optional(),
  smsConsent: z.boolean().optional(),
});

/** POST /api/auth/token: one schema per grant type. */
export const tokenRequestSchema = z.discriminatedUnion(
  'grant_type',
  [
    z.object({
      grant_type: z.literal('password'),
      /** Checked by signInSchema after the suspicious-input screen. */
      email: z.string().optional(),
      password: z.string().optional(),
    }),
    z.object({
      grant_type: z.literal('refresh_token'),
      /** The refresh token from the last session; single use. */
      refresh_token: z.string({ error: messages.auth.invalidRefreshToken }).min(1, messages.auth.invalidRefreshToken),
    }),
    z.object({
      grant_type: z.literal('link'),
      /** The token from an auth_link (`/auth/callback?token=…`); single use. */
      token: z.string({ error: messages.auth.invalidLink }).min(1, messages.auth.invalidLink),
    }),
    /** A passkey assertion answering POST /api/auth/passkey-options (no mfa_token). */
    passkeyGrantSchema,
    /** The second step of a sign-in that answered mfa_required. */
    mfaGrantSchema,
  ],
  { error: messages.auth.unsupportedGrant },
);

/** POST /api/auth/verify-phone and GET /api/auth/verification-events. */
export const verificationTokenSchema = z.object({
  /** The token the sign-up answer returned. */
  verification_token: z.string({ error: messages.verification.invalidToken }).min(1, messages.verification.invalidToken),
});

/** POST /api/auth/recover. */
export const recoverSchema = z.object({
  email: z.string({ error: messages.reset.emailRequired }).trim().toLowerCase().min(1, messages.reset.emailRequired),
});

/** POST /api/auth/verify: a recovery link's token, or an e-mail verification link's. */
export const verifyRecoverySchema = z.object({
  /** The `token_hash` query parameter of the link. */
  token_hash: z.string().optional(),
  /** recovery (answers a session) or email (answers {email_verified: true}). */
  type: z.string().optional(),
});

/** PUT /api/auth/user. */
export const updateUserSchema = z.object({
  /** The new password, by the one rule (passwordSchema). */
  password: passwordSchema,
});

/** POST /api/auth/verify/resend: the e-mail's confirmation link (the default), or the phone's verification text. */
export const resendVerificationSchema = z
  .object({ type: z.enum(['email', 'sms'], { error: messages.generic.invalidInput }).default('email') })
  .default({ type: 'email' });

/** POST /api/auth/logout. */
export const logoutSchema = z.object({
  /** local: this session only; global: every session of the user. */
  scope: z.enum(['local', 'global'], { error: messages.generic.invalidInput }).default('local'),
});

/** The user as the auth API presents it. */
export interface AuthUser {
  id: string;
  email: string;
  /** The owner opened the link e-mailed at sign-up (reset mails go only to a verified address). */
  email_verified: boolean;
  phone: string | null;
  phone_verified: boolean;
  /** While the phone is unverified: when the sign-up lapses and is removed (signing in renews it); else null. */
  sign_up_lapses_at: string | null;
  is_admin: boolean;
  created_at: string;
}

/** What a successful token, link or recovery exchange returns. */
export interface Session {
  access_token: string;
  token_type: 'bearer';
  /** Seconds until the access token expires. */
  expires_in: number;
  /** Unix seconds when the access token expires. */
  expires_at: number;
  refresh_token: string;
  user: AuthUser;
}

export interface SignUpResult {
  verification_token: string;
  redirect_to: string;
}

export type VerifyPhoneResult = { verified: false } | { verified: true; auth_link: string };

/** The event the verification page hears once the phone is verified. */
export const USER_VERIFIED_EVENT = 'USER_VERIFIED';
