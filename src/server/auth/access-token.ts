import { SignJWT, jwtVerify } from 'jose';
import { ACCESS_TOKEN_TTL_SECONDS } from '../../shared/limits';

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
    .setIssuer('jotline')
    .sign(key);
  return { token, expiresAt };
}

/** Returns the claims, or null for a token that is malformed, forged or expired. */
export async function verifyAccessToken(key: Uint8Array, token: string, now: Date): Promise<AccessClaims | null> {
  try {
    const { payload } = await jwtVerify(token, key, { issuer: 'jotline', algorithms: ['HS256'], currentDate: now });
    if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
    return { userId: payload.sub, sessionFamily: payload.sid };
  } catch {
    return null;
  }
}
