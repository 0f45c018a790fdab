import type {
  MfaRequired,
  PasskeySummary,
  SecurityLogEvent,
  SessionSummary,
  TotpSetup,
} from '../../shared/second-factor';
import { apiRequest } from './client';
import { ApiError } from './errors';
import { isSession, type Session } from './types';

/** Passkeys, the second step of a sign-in, TOTP, sessions and the security log (DESIGN §6). */

/** A first factor passed; the server wants the second step (carries the mfa_token). */
export class MfaRequiredError extends Error {
  readonly challenge: MfaRequired;
  constructor(challenge: MfaRequired) {
    super('A second step is needed to sign in.');
    this.name = 'MfaRequiredError';
    this.challenge = challenge;
  }
}

const isMfaRequired = (value: unknown): value is MfaRequired =>
  !!value && typeof value === 'object' && (value as MfaRequired).mfa_required === true && typeof (value as MfaRequired).mfa_token === 'string';

/** A session, or MfaRequiredError when the answer asks for the second step. */
export function sessionOrSecondStep(answer: unknown): Session {
  if (isMfaRequired(answer)) throw new MfaRequiredError(answer);
  if (!isSession(answer)) throw new ApiError(500, 'INVALID_RESPONSE', 'Unexpected response format');
  return answer;
}

const token = async (body: Record<string, unknown>) => sessionOrSecondStep(await apiRequest<unknown>('POST', '/api/auth/token', { body, auth: false }));

/** Loads the browser half of WebAuthn only when a passkey is used. */
const webauthn = () => import('@simplewebauthn/browser');

export async function passkeysSupported(): Promise<boolean> {
  return typeof window !== 'undefined' && !!window.PublicKeyCredential && (await webauthn()).browserSupportsWebAuthn();
}

/** Signs in with a passkey the browser offers (a button, or the e-mail field's autofill when `autofill`). */
export async function signInWithPasskey(options: { autofill?: boolean } = {}): Promise<Session> {
  const { startAuthentication } = await webauthn();
  const optionsJSON = await apiRequest<Parameters<typeof startAuthentication>[0]['optionsJSON']>('POST', '/api/auth/passkey-options', { body: {}, auth: false });
  const response = await startAuthentication({ optionsJSON, useBrowserAutofill: options.autofill ?? false });
  return token({ grant_type: 'passkey', response });
}

export async function autofillSupported(): Promise<boolean> {
  return (await webauthn()).browserSupportsWebAuthnAutofill();
}

/** The second step with a code from an authenticator app, or a recovery code. */
export function completeWithCode(mfaToken: string, kind: 'code' | 'recovery_code', value: string): Promise<Session> {
  return token({ grant_type: 'mfa', mfa_token: mfaToken, [kind]: value.trim() });
}

/** The second step with one of the user's passkeys. */
export async function completeWithPasskey(mfaToken: string): Promise<Session> {
  const { startAuthentication } = await webauthn();
  const optionsJSON = await apiRequest<Parameters<typeof startAuthentication>[0]['optionsJSON']>('POST', '/api/auth/passkey-options', {
    body: { mfa_token: mfaToken },
    auth: false,
  });
  const response = await startAuthentication({ optionsJSON });
  return token({ grant_type: 'mfa', mfa_token: mfaToken, response });
}

export async function listPasskeys(): Promise<PasskeySummary[]> {
  return (await apiRequest<{ passkeys: PasskeySummary[] }>('GET', '/api/auth/passkeys')).passkeys;
}

/** Registers a passkey on this device under `name`. */
export async function addPasskey(name: string): Promise<PasskeySummary> {
  const { startRegistration } = await webauthn();
  const optionsJSON = await apiRequest<Parameters<typeof startRegistration>[0]['optionsJSON']>('POST', '/api/auth/passkeys/options', { body: {} });
  const response = await startRegistration({ optionsJSON });
  return apiRequest<PasskeySummary>('POST', '/api/auth/passkeys', { body: { name, response } });
}

export function renamePasskey(id: string, name: string): Promise<PasskeySummary> {
  return apiRequest<PasskeySummary>('PATCH', `/api/auth/passkeys/${encodeURIComponent(id)}`, { body: { name } });
}

export async function removePasskey(id: string, password: string): Promise<void> {
  await apiRequest('DELETE', `/api/auth/passkeys/${encodeURIComponent(id)}`, { body: { password } });
}

export function beginTotp(): Promise<TotpSetup> {
  return apiRequest<TotpSetup>('POST', '/api/auth/totp', { body: {} });
}

export async function confirmTotp(code: string): Promise<string[]> {
  return (await apiRequest<{ recovery_codes: string[] }>('POST', '/api/auth/totp/confirm', { body: { code } })).recovery_codes;
}

export async function disableTotp(code: string): Promise<void> {
  await apiRequest('DELETE', '/api/auth/totp', { body: { code } });
}

/** The second factors the signed-in user has. */
export async function secondFactors(): Promise<string[]> {
  return (await apiRequest<{ second_factors?: string[] }>('GET', '/api/auth/user')).second_factors ?? [];
}

export async function listSessions(): Promise<SessionSummary[]> {
  return (await apiRequest<{ sessions: SessionSummary[] }>('GET', '/api/auth/sessions')).sessions;
}

export async function endSession(id: string): Promise<void> {
  await apiRequest('DELETE', `/api/auth/sessions/${encodeURIComponent(id)}`);
}

export async function securityLog(): Promise<SecurityLogEvent[]> {
  return (await apiRequest<{ events: SecurityLogEvent[] }>('GET', '/api/auth/events')).events;
}
