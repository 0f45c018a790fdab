import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** An unguessable token for links and refresh tokens (256 bits, URL-safe). */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are stored hashed, so a database leak does not hand out sessions. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A purpose-bound key derived from the master key (access-token signing, media URLs…). */
export function deriveKey(masterKey: Buffer, purpose: string): Buffer {
  return createHmac('sha256', masterKey).update(`jotline:${purpose}`).digest();
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
