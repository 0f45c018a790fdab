import { SignJWT, jwtVerify } from 'jose';
import { ACCESS_TOKEN_TTL_SECONDS } from '../../shared/limits';

/** Who issues access tokens and what they are for; both are required on verification. */
const ISSUER = 'jotline';
const AUDIENCE = 'jotline-api';

export interface AccessClaims {
  userId: string;
  sessionFamily: string;
}

/** A short-lived signed access token (HS256). */
export async function signAccessToken(key: Uint8Array, claims: AccessClaims, now: Date): Promise<{ token: string; expiresAt: number }> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  const expiresAt = issuedAt + ACCESS_TOKEN_TTL_SECONDS;
  const token = await new SignJWT({ sid: claims.sessionFamily })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(claims.userId)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .sign(key);
  return { token, expiresAt };
}

// The key imported once per secret: given raw bytes, jose imports them again on every request
// (about a tenth of the CPU time of GET /api/entries).
const verifyingKeys = new WeakMap<Uint8Array, Promise<CryptoKey>>();

function verifyingKey(key: Uint8Array): Promise<CryptoKey> {
  let imported = verifyingKeys.get(key);
  if (!imported) {
    imported = crypto.subtle.importKey('raw', new Uint8Array(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
    verifyingKeys.set(key, imported);
  }
  return imported;
}

/**
 * Returns the claims, or null for a token that is malformed, forged or expired, or that lacks an
 * expiry, an issue time, our issuer or our audience (a token without `exp` would never end).
 */
export async function verifyAccessToken(key: Uint8Array, token: string, now: Date): Promise<AccessClaims | null> {
  const verified = verifiedTokensOf(key);
  const known = verified.get(token);
  // A token verified before is only checked for expiry again: its signature and claims cannot change.
  if (known) return known.expiresAt > now.getTime() / 1000 ? known.claims : null;
  try {
    const { payload } = await jwtVerify(token, await verifyingKey(key), {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ['HS256'],
      requiredClaims: ['exp', 'iat', 'sub'],
      currentDate: now,
    });
    if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
    const claims = { userId: payload.sub, sessionFamily: payload.sid };
    if (verified.size >= MAX_VERIFIED_TOKENS) verified.clear();
    verified.set(token, { claims, expiresAt: payload.exp! });
    return claims;
  } catch {
    return null;
  }
}

// Verifying a signature is an asynchronous WebCrypto job, about a tenth of the CPU time of a
// journal request; a page of the app sends the same token many times in its few minutes of life.
// Bounded: at the limit the whole map starts again (tokens are short-lived anyway).
const MAX_VERIFIED_TOKENS = 20_000;
const verifiedTokens = new WeakMap<Uint8Array, Map<string, { claims: AccessClaims; expiresAt: number }>>();

function verifiedTokensOf(key: Uint8Array): Map<string, { claims: AccessClaims; expiresAt: number }> {
  let verified = verifiedTokens.get(key);
  if (!verified) {
    verified = new Map();
    verifiedTokens.set(key, verified);
  }
  return verified;
}
