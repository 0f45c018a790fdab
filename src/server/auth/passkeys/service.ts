import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { securityMessages, type PasskeySummary } from '../../../shared/second-factor';
import type { AppContext } from '../../context';
import { messages } from '../../../shared/messages';
import { RATE_WINDOW_MS, SIGN_IN_FAILURES_PER_WINDOW } from '../../../shared/limits';
import { AppError, conflict, invalidCredentials, notFound, rateLimited } from '../../errors';
import { isLimited, rateLimitKey, recordHit, type RateLimit } from '../../rate-limit';
import { newId } from '../../ids';
import { recordSecurityEvent } from '../../security/events';
import { BRAND } from '../../sms/texts';
import type { RequestUser } from '../authenticate';
import type { Client } from '../limits';
import { deviceLabel } from '../mfa/device';
import { hasSecondFactor } from '../mfa/methods';
import { markSessionMfa } from '../mfa/session-records';
import { verifyPassword } from '../passwords';
import { isUniqueViolation } from '../repo';
import { CHALLENGE_TIMEOUT_MS, challengeOf, consumeChallenge, relyingParty, storeChallenge } from './webauthn';

const WRONG_PASSWORDS: RateLimit = { limit: SIGN_IN_FAILURES_PER_WINDOW, windowMs: RATE_WINDOW_MS };

const transportsOf = (stored: string | null): AuthenticatorTransport[] | undefined => (stored ? (JSON.parse(stored) as AuthenticatorTransport[]) : undefined);

/** The user handle WebAuthn keeps with a discoverable credential: the user's id. */
const userHandleOf = (userId: string) => Buffer.from(userId, 'utf8').toString('base64url');

interface Refusal {
  status: 400 | 401;
  reason: string;
  userId?: string | null;
}

/** A passkey response refused: logged as a security event, answered 400 or 401 without saying why. */
async function refuse(ctx: AppContext, client: Client, refusal: Refusal): Promise<AppError> {
  await recordSecurityEvent(ctx, {
    event_type: 'passkey_refused',
    severity: 'medium',
    user_id: refusal.userId ?? null,
    ip: client.ip,
    details: { reason: refusal.reason, device: deviceLabel(client.userAgent) },
  });
  return new AppError(refusal.status === 400 ? 'INVALID_INPUT' : 'UNAUTHORIZED', securityMessages.passkeyRefused);
}

export async function listPasskeys(ctx: AppContext, userId: string): Promise<PasskeySummary[]> {
  return ctx.db
    .selectFrom('passkeys')
    .select(['id', 'name', 'created_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Options for adding a passkey: discoverable, user verification required, none of the user's own again. */
export async function registrationOptions(ctx: AppContext, user: RequestUser): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const { rpID } = relyingParty(ctx);
  const existing = await ctx.db.selectFrom('passkeys').select(['credential_id', 'transports']).where('user_id', '=', user.id).execute();
  const options = await generateRegistrationOptions({
    rpName: BRAND,
    rpID,
    userName: user.email,
    userDisplayName: user.email,
    userID: new TextEncoder().encode(user.id),
    attestationType: 'none',
    timeout: CHALLENGE_TIMEOUT_MS,
    excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: transportsOf(p.transports) })),
    authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
  });
  await storeChallenge(ctx, options.challenge, 'register', { userId: user.id });
  return options;
}

/**
 * Adds a passkey from the browser's answer to registrationOptions. A first second factor makes the
 * session that added it count as signed in with one (its owner has just used it).
 */
export async function addPasskey(ctx: AppContext, user: RequestUser, input: { name: string; response: unknown }, client: Client): Promise<PasskeySummary> {
  const response = input.response as RegistrationResponseJSON;
  const challenge = challengeOf(response);
  if (!challenge || !(await consumeChallenge(ctx, ctx.db, challenge, 'register', { userId: user.id }))) {
    throw await refuse(ctx, client, { status: 400, reason: 'challenge', userId: user.id });
  }
  const { rpID, origin } = relyingParty(ctx);
  let info;
  try {
    const verification = await verifyRegistrationResponse({ response, expectedChallenge: challenge, expectedOrigin: origin, expectedRPID: rpID, requireUserVerification: true });
    if (!verification.verified || !verification.registrationInfo) throw new Error('not verified');
    info = verification.registrationInfo;
  } catch {
    throw await refuse(ctx, client, { status: 400, reason: 'registration', userId: user.id });
  }
  const firstFactor = !(await hasSecondFactor(ctx.db, user.id));
  const now = ctx.clock.now().toISOString();
  const passkey = { id: newId(), name: input.name, created_at: now, last_used_at: null };
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('passkeys')
        .values({
          id: passkey.id,
          user_id: user.id,
          credential_id: info.credential.id,
          public_key: Buffer.from(info.credential.publicKey).toString('base64url'),
          counter: info.credential.counter,
          transports: info.credential.transports ? JSON.stringify(info.credential.transports) : null,
          name: input.name,
          created_at: now,
          last_used_at: null,
        })
        .execute();
      if (firstFactor) await markSessionMfa(trx, user.id, user.sessionFamily);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(securityMessages.passkeyExists);
    throw error;
  }
  await recordSecurityEvent(ctx, { event_type: 'passkey_added', severity: 'low', user_id: user.id, ip: client.ip, details: { device: deviceLabel(client.userAgent) } });
  return passkey;
}

export async function renamePasskey(ctx: AppContext, userId: string, id: string, name: string): Promise<PasskeySummary> {
  const result = await ctx.db.updateTable('passkeys').set({ name }).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw notFound();
  const [passkey] = (await listPasskeys(ctx, userId)).filter((p) => p.id === id);
  return passkey!;
}

/** Removes a passkey; the account's password proves it is its owner asking. */
export async function removePasskey(ctx: AppContext, userId: string, id: string, password: string, client: Client): Promise<void> {
  const owner = await ctx.db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst();
  const passkey = await ctx.db.selectFrom('passkeys').select('id').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (!passkey) throw notFound();
  // A session is no licence to guess the password: wrong ones here count like failed sign-ins.
  const key = rateLimitKey('passkey-remove', userId);
  if (await isLimited(ctx, key, WRONG_PASSWORDS)) throw rateLimited(messages.signIn.rateLimited);
  if (!(await verifyPassword(owner?.password_hash, password))) {
    await recordHit(ctx, key);
    throw invalidCredentials(securityMessages.passwordWrong);
  }
  await ctx.db.deleteFrom('passkeys').where('id', '=', id).where('user_id', '=', userId).execute();
  await recordSecurityEvent(ctx, { event_type: 'passkey_removed', severity: 'medium', user_id: userId, ip: client.ip, details: { device: deviceLabel(client.userAgent) } });
}

/**
 * Options for signing in with a passkey: any discoverable credential (empty allowCredentials), or,
 * for the second step of a sign-in, that user's own passkeys.
 */
export async function authenticationOptions(ctx: AppContext, scope: { userId: string; mfaChallengeId: string } | null): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const { rpID } = relyingParty(ctx);
  const allow = scope ? await ctx.db.selectFrom('passkeys').select(['credential_id', 'transports']).where('user_id', '=', scope.userId).execute() : [];
  const options = await generateAuthenticationOptions({
    rpID,
    timeout: CHALLENGE_TIMEOUT_MS,
    userVerification: 'required',
    allowCredentials: allow.map((p) => ({ id: p.credential_id, transports: transportsOf(p.transports) })),
  });
  await storeChallenge(ctx, options.challenge, scope ? 'mfa' : 'sign_in', scope ?? {});
  return options;
}

/**
 * Checks a passkey assertion: a challenge we handed out for this purpose and not used yet, a
 * credential we know (of `scope.userId` when given), the right origin and rp id, user verification,
 * and a signature counter that does not go backwards. Returns the user it signs in.
 */
export async function verifyAssertion(ctx: AppContext, raw: unknown, scope: { userId: string; mfaChallengeId: string } | null, client: Client): Promise<string> {
  const response = raw as AuthenticationResponseJSON;
  const challenge = challengeOf(response);
  const knownUser = scope?.userId ?? null;
  if (!challenge || !(await consumeChallenge(ctx, ctx.db, challenge, scope ? 'mfa' : 'sign_in', scope ?? {}))) {
    throw await refuse(ctx, client, { status: 400, reason: 'challenge', userId: knownUser });
  }
  const passkey = await ctx.db.selectFrom('passkeys').selectAll().where('credential_id', '=', response.id).executeTakeFirst();
  if (!passkey) throw await refuse(ctx, client, { status: 401, reason: 'unknown_credential', userId: knownUser });
  const handle = response.response?.userHandle;
  if ((scope && passkey.user_id !== scope.userId) || (handle && handle !== userHandleOf(passkey.user_id))) {
    throw await refuse(ctx, client, { status: 401, reason: 'other_user', userId: knownUser ?? passkey.user_id });
  }
  const { rpID, origin } = relyingParty(ctx);
  let newCounter: number;
  try {
    const verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: true,
      credential: { id: passkey.credential_id, publicKey: Buffer.from(passkey.public_key, 'base64url'), counter: passkey.counter, transports: transportsOf(passkey.transports) },
    });
    if (!verification.verified) throw new Error('not verified');
    newCounter = verification.authenticationInfo.newCounter;
  } catch {
    throw await refuse(ctx, client, { status: 401, reason: 'assertion', userId: passkey.user_id });
  }
  await ctx.db.updateTable('passkeys').set({ counter: newCounter, last_used_at: ctx.clock.now().toISOString() }).where('id', '=', passkey.id).execute();
  return passkey.user_id;
}
