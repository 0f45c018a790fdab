import { z } from 'zod';

/** Passkeys, the TOTP second factor, sessions and the security log: the words and the wire shapes. */
export const securityMessages = {
  passkeyRefused: 'This passkey could not be used. Please try again.',
  passkeyNameRequired: 'Please name this passkey.',
  passkeyNameTooLong: 'A passkey name can be at most 64 characters.',
  passkeyExists: 'This passkey is already registered.',
  passwordRequired: 'Please enter your password.',
  passwordWrong: 'That password is not right.',
  codeRequired: 'Please enter the 6-digit code from your authenticator app.',
  codeWrong: 'That code is not right. Please try again.',
  totpAlreadyOn: 'Two-factor authentication is already on.',
  totpNotStarted: 'Start setting up two-factor authentication first.',
  totpNotOn: 'Two-factor authentication is not on.',
  mfaTokenExpired: 'This sign-in has expired. Please sign in again.',
  tooManyCodes: 'Too many wrong codes. Please wait 15 minutes before trying again.',
  mfaRequired: 'Admin pages need a sign-in with a passkey or a second factor. Set one up to continue.',
  sessionNotFound: 'This session has already ended.',
  /** A change that needs a proof of the person from the last five minutes (the vault's keys, turning it off, deleting the account). */
  proofRequired: 'To do this, confirm it is you: enter your password, or use your passkey.',
} as const;

/** POST /api/auth/confirm: the person proves it is them again, by password or by passkey. */
export const confirmPersonSchema = z.union([
  z.object({ password: z.string({ error: securityMessages.passwordRequired }).min(1, securityMessages.passwordRequired).max(256, securityMessages.passwordWrong) }),
  z.object({ response: z.object({ id: z.string().min(1).max(1024) }).passthrough() }),
]);
export type ConfirmPersonInput = z.infer<typeof confirmPersonSchema>;

/** How long an mfa_token, a passkey challenge and a TOTP setup wait. */
export const SECOND_FACTOR_TTL_MINUTES = 5;
/** The sixth wrong code ends an mfa_token. */
export const MFA_WRONG_CODES_ALLOWED = 5;
export const RECOVERY_CODE_COUNT = 10;
export const PASSKEY_NAME_MAX = 64;
/** The security log shows this many days. */
export const SECURITY_LOG_DAYS = 90;

export type SecondFactorMethod = 'passkey' | 'totp' | 'recovery_code';

/** A WebAuthn response as @simplewebauthn/browser gives it; checked by the server's verifier. */
const webauthnResponse = z
  .object({
    id: z.string().min(1).max(1024),
    rawId: z.string().min(1).max(1024),
    type: z.literal('public-key'),
    response: z.object({ clientDataJSON: z.string().min(1).max(8192) }).passthrough(),
  })
  .passthrough();

const passkeyName = z.string({ error: securityMessages.passkeyNameRequired }).trim().min(1, securityMessages.passkeyNameRequired).max(PASSKEY_NAME_MAX, securityMessages.passkeyNameTooLong);

export const addPasskeySchema = z.object({
  name: passkeyName,
  response: webauthnResponse,
});

export const renamePasskeySchema = z.object({ name: passkeyName });

export const removePasskeySchema = z.object({
  password: z.string({ error: securityMessages.passwordRequired }).min(1, securityMessages.passwordRequired).max(256, securityMessages.passwordWrong),
});

export const passkeyOptionsSchema = z.object({
  /** For the second step of a sign-in: options naming that user's passkeys. */
  mfa_token: z.string().min(1).max(200).optional(),
});

const totpCode = z
  .string({ error: securityMessages.codeRequired })
  .trim()
  .transform((value) => value.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, securityMessages.codeRequired));

export const totpCodeSchema = z.object({ code: totpCode });

/** The grants POST /api/auth/token adds for passkeys and the second step. */
export const passkeyGrantSchema = z.object({
  grant_type: z.literal('passkey'),
  response: webauthnResponse,
});

export const mfaGrantSchema = z.object({
  grant_type: z.literal('mfa'),
  mfa_token: z.string({ error: securityMessages.mfaTokenExpired }).min(1, securityMessages.mfaTokenExpired).max(200, securityMessages.mfaTokenExpired),
  code: z.string().max(20).optional(),
  recovery_code: z.string().max(40).optional(),
  response: webauthnResponse.optional(),
});

export const sessionParamsSchema = z.object({ id: z.string().min(1).max(100) });

/** The answer to a first factor when a second is needed. */
export interface MfaRequired {
  mfa_required: true;
  mfa_token: string;
  methods: SecondFactorMethod[];
}

export interface PasskeySummary {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

export interface TotpSetup {
  secret: string;
  otpauth_url: string;
}

export interface SessionSummary {
  id: string;
  created_at: string;
  last_seen_at: string;
  device: string | null;
  current: boolean;
}

export type SecurityEventKind =
  | 'sign_in'
  | 'sign_in_failed'
  | 'password_changed'
  | 'passkey_added'
  | 'passkey_removed'
  | 'mfa_on'
  | 'mfa_off'
  | 'session_ended'
  | 'vault_on'
  | 'vault_off'
  | 'export';

export type SignInMethod = 'password' | 'link' | 'recovery' | 'passkey' | 'mfa';

export interface SecurityLogEvent {
  at: string;
  kind: SecurityEventKind;
  method?: SignInMethod;
  device: string | null;
}
