import type { AppContext } from '../../context';
import type { Db } from '../../db/database';
import { newId } from '../../ids';
import { SECOND_FACTOR_TTL_MINUTES } from '../../../shared/second-factor';

type ChallengePurpose = 'register' | 'sign_in' | 'mfa';

/** The relying party: PUBLIC_URL's host name (no port) and its origin. */
export function relyingParty(ctx: AppContext): { rpID: string; origin: string } {
  const url = new URL(ctx.config.publicUrl);
  return { rpID: url.hostname, origin: url.origin };
}

export const CHALLENGE_TIMEOUT_MS = SECOND_FACTOR_TTL_MINUTES * 60_000;

/** Keeps a challenge handed out in options, for one use within 5 minutes. */
export async function storeChallenge(
  ctx: AppContext,
  challenge: string,
  purpose: ChallengePurpose,
  scope: { userId?: string; mfaChallengeId?: string } = {},
): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db
    .insertInto('webauthn_challenges')
    .values({
      id: newId(),
      challenge,
      purpose,
      user_id: scope.userId ?? null,
      mfa_challenge_id: scope.mfaChallengeId ?? null,
      expires_at: new Date(now.getTime() + CHALLENGE_TIMEOUT_MS).toISOString(),
      used_at: null,
      created_at: now.toISOString(),
    })
    .execute();
}

/** The challenge a response answers, as the browser wrote it into clientDataJSON; null when unreadable. */
export function challengeOf(response: { response: { clientDataJSON: string } }): string | null {
  try {
    const clientData: unknown = JSON.parse(Buffer.from(response.response.clientDataJSON, 'base64url').toString('utf8'));
    const challenge = (clientData as { challenge?: unknown })?.challenge;
    return typeof challenge === 'string' && challenge.length > 0 && challenge.length <= 512 ? challenge : null;
  } catch {
    return null;
  }
}

/**
 * Uses a stored challenge once: its row when it was handed out for this purpose (and user, and
 * mfa_token) and has neither been used nor lapsed; undefined otherwise.
 */
export async function consumeChallenge(
  ctx: AppContext,
  db: Db,
  challenge: string,
  purpose: ChallengePurpose,
  scope: { userId?: string; mfaChallengeId?: string } = {},
) {
  const now = ctx.clock.now().toISOString();
  const row = await db
    .selectFrom('webauthn_challenges')
    .selectAll()
    .where('challenge', '=', challenge)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (!row) return undefined;
  if (scope.userId !== undefined && row.user_id !== scope.userId) return undefined;
  if (scope.mfaChallengeId !== undefined && row.mfa_challenge_id !== scope.mfaChallengeId) return undefined;
  const used = await db.updateTable('webauthn_challenges').set({ used_at: now }).where('id', '=', row.id).where('used_at', 'is', null).executeTakeFirst();
  return Number(used.numUpdatedRows) === 1 ? row : undefined;
}

/**
 * The housekeeping job: forgets passkey challenges and mfa_tokens lapsed a day ago (every sign-in
 * page asks for options), and the records of sessions whose refresh tokens are all gone.
 */
export async function deleteLapsedSignInRows(ctx: AppContext): Promise<void> {
  const db = ctx.db;
  const before = new Date(ctx.clock.now().getTime() - 86_400_000).toISOString();
  await db.deleteFrom('webauthn_challenges').where('expires_at', '<', before).execute();
  await db.deleteFrom('mfa_challenges').where('expires_at', '<', before).execute();
  await db
    .deleteFrom('auth_sessions')
    .where('last_seen_at', '<', before)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('refresh_tokens').select('refresh_tokens.id').whereRef('refresh_tokens.family_id', '=', 'auth_sessions.id'))))
    .execute();
}
