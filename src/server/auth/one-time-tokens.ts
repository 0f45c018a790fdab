import type { Db } from '../db/database';
import type { OneTimeTokenPurpose } from '../db/tables';
import { hashToken, randomToken } from '../crypto/tokens';
import { newId } from '../ids';
import { TOKEN_TTL_MINUTES } from './limits';
import { findUsableOneTimeToken, insertOneTimeToken, markOneTimeTokenUsed } from './token-repo';

/**
 * Creates a single-use token for the user; returns the raw token (only its hash is stored).
 * `ttlMinutes` overrides the purpose's default lifetime.
 */
export async function issueOneTimeToken(
  db: Db,
  now: Date,
  userId: string,
  purpose: OneTimeTokenPurpose,
  ttlMinutes: number = TOKEN_TTL_MINUTES[purpose],
): Promise<string> {
  const raw = randomToken();
  await insertOneTimeToken(db, {
    id: newId(),
    userId,
    purpose,
    tokenHash: hashToken(raw),
    expiresAt: new Date(now.getTime() + ttlMinutes * 60_000).toISOString(),
    now: now.toISOString(),
  });
  return raw;
}

/** The token's row while it is unused and unexpired, without using it. */
export function findUsableToken(db: Db, now: Date, purpose: OneTimeTokenPurpose, raw: string) {
  return findUsableOneTimeToken(db, purpose, hashToken(raw), now.toISOString());
}

/** Uses the token; returns its user id, or undefined when it is unknown, expired or used. */
export async function consumeOneTimeToken(db: Db, now: Date, purpose: OneTimeTokenPurpose, raw: string): Promise<string | undefined> {
  const token = await findUsableToken(db, now, purpose, raw);
  if (!token) return undefined;
  return (await markOneTimeTokenUsed(db, token.id, now.toISOString())) ? token.user_id : undefined;
}
