import { apiRequest } from './client';
import { sessionOrSecondStep } from './second-factor';
import type { Session, SignOutScope, SignUpInput, SignUpResult } from './types';

/** The auth endpoints of DESIGN section 6, typed. */

/** A session; MfaRequiredError when the account has a second factor and the server asks for it. */
async function requestSession(body: Record<string, unknown>): Promise<Session> {
  return sessionOrSecondStep(await apiRequest<unknown>('POST', '/api/auth/token', { body, auth: false }));
}

export function signInWithPassword(email: string, password: string): Promise<Session> {
  return requestSession({ grant_type: 'password', email, password });
}

/** Trades the one-time token of a sign-in link (the phone-verification auth_link) for a session. */
export function exchangeSignInLink(token: string): Promise<Session> {
  return requestSession({ grant_type: 'link', token });
}

/** Creates the account; the answer may come bare or wrapped in `data`. Fields can be missing. */
export async function signUp(input: SignUpInput): Promise<Partial<SignUpResult>> {
  const answer = await apiRequest<{ data?: Partial<SignUpResult> } & Partial<SignUpResult>>('POST', '/api/auth/signup', {
    body: input,
    auth: false,
  });
  return answer?.data ?? answer ?? {};
}

/** One phone-verification check. The shape is checked by the caller (spec 4: 'Unexpected response format'). */
export function checkPhoneVerification(verificationToken: string, signal?: AbortSignal): Promise<unknown> {
  return apiRequest<unknown>('POST', '/api/auth/verify-phone', {
    body: { verification_token: verificationToken },
    auth: false,
    signal,
  });
}

/** The server-sent events stream that says USER_VERIFIED as soon as the phone is verified. */
export function verificationEventsUrl(verificationToken: string): string {
  return `/api/auth/verification-events?verification_token=${encodeURIComponent(verificationToken)}`;
}

export async function requestPasswordReset(email: string): Promise<void> {
  await apiRequest('POST', '/api/auth/recover', { body: { email }, auth: false });
}

/** Checks a password-reset link's token_hash; answers with a short-lived session for setting the password. */
export async function verifyRecovery(tokenHash: string): Promise<Session> {
  const answer = await apiRequest<unknown>('POST', '/api/auth/verify', {
    body: { token_hash: tokenHash, type: 'recovery' },
    auth: false,
  });
  return sessionOrSecondStep(answer);
}

/** Confirms the account's e-mail address with the link's token_hash (the link e-mailed at sign-up). */
export async function verifyEmail(tokenHash: string): Promise<void> {
  await apiRequest('POST', '/api/auth/verify', { body: { token_hash: tokenHash, type: 'email' }, auth: false });
}

/** Sets a new password with the given access token (the recovery session's). */
export async function updatePassword(password: string, accessToken: string): Promise<void> {
  await apiRequest('PUT', '/api/auth/user', { body: { password }, auth: accessToken });
}

export async function logout(scope: SignOutScope, accessToken: string): Promise<void> {
  await apiRequest('POST', '/api/auth/logout', { body: { scope }, auth: accessToken });
}
