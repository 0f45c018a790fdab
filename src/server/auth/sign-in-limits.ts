import type { AppContext } from '../context';
import { hashToken } from '../crypto/tokens';
import { clearHits, clearHitsByPrefix, rateLimitKey, releaseHits, reserveHits } from '../rate-limit';
import { AUTH_LIMITS, type Client } from './limits';

/**
 * Whom a sign-in attempt is about: the account when the address has one, so deleting and
 * re-creating an account starts afresh; the address itself otherwise.
 */
const subjectOf = (email: string, userId: string | undefined) => (userId ? `user:${userId}` : `email:${email}`);

const accountKey = (subject: string) => rateLimitKey('signin-fail-account', subject);
const pairPrefix = (subject: string) => `${rateLimitKey('signin-fail-pair', subject)}:`;
const deviceKey = (device: string) => rateLimitKey('signin-fail-device', device);

/**
 * Counts a password attempt before the password is checked, so a burst cannot get more checks
 * than the limits allow: per account and client address (5), per account (50) and per client
 * address (50), all in 15 minutes. A device known to the account (`device`, from its device
 * cookie) is counted on its own instead (5), so the owner's browser still gets in while strangers
 * use up the account's limit. Returns the reservation, or null when any limit is used up.
 */
export async function reserveSignInAttempt(
  ctx: AppContext,
  email: string,
  userId: string | undefined,
  client: Client,
  device: string | null = null,
): Promise<string[] | null> {
  if (device) return reserveHits(ctx, [{ key: deviceKey(device), rule: AUTH_LIMITS.signInFailuresPerDevice }]);
  const subject = subjectOf(email, userId);
  return reserveHits(ctx, [
    { key: rateLimitKey('signin-fail-ip', client.ip), rule: AUTH_LIMITS.signInFailuresPerIp },
    { key: accountKey(subject), rule: AUTH_LIMITS.signInFailuresPerAccount },
    { key: `${pairPrefix(subject)}${hashToken(client.ip.toLowerCase())}`, rule: AUTH_LIMITS.signInFailuresPerEmail },
  ]);
}

/** The right password: the attempt does not count, and this address's (or device's) earlier failures are forgiven. */
export async function forgiveSignInAttempt(ctx: AppContext, userId: string, reservation: string[], client: Client, device: string | null = null): Promise<void> {
  await releaseHits(ctx, reservation);
  await clearHits(ctx, device ? deviceKey(device) : `${pairPrefix(subjectOf('', userId))}${hashToken(client.ip.toLowerCase())}`);
}

/** The owner proved it another way (a texted sign-in link, a password reset): lift every lock on the account. */
export async function clearSignInLimits(ctx: AppContext, userId: string): Promise<void> {
  const subject = subjectOf('', userId);
  await clearHits(ctx, accountKey(subject));
  await clearHitsByPrefix(ctx, pairPrefix(subject));
}
