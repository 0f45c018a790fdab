import { createHmac } from 'node:crypto';
import type { AppContext } from '../context';

// Import fingerprints (journal_imports): a keyed hash of where an entry or photo came from, so the
// same file imports once. They are made under a key of the journal's own, which its owner's browser
// may ask for: with the Vault on, the browser reads the file and checks its entries against the
// fingerprints itself, so the promise holds across turning the Vault on (docs/vault.md §5). Sealing
// the journal seals them to the vault's key (vault/import-fingerprints.ts); the server then holds
// none it could test a guess against.

/** Fingerprints under the journal's own key; those without the prefix were made before it (server key and user id). */
export const KEYED_FINGERPRINT_PREFIX = 'k1:';

/** The key of one journal's import fingerprints, derived from the server's key of stored hashes. */
export function importFingerprintKey(ctx: AppContext, userId: string): Buffer {
  return createHmac('sha256', ctx.keys.storedHashes).update(`import-fingerprint-key:${userId}`).digest();
}

/** HMAC-SHA256 of the origin under the journal's key, base64url: what the browser computes too. */
export function keyedFingerprint(key: Buffer, origin: string): string {
  return KEYED_FINGERPRINT_PREFIX + createHmac('sha256', key).update(origin, 'utf8').digest('base64url');
}

/** The fingerprint imports made before the journal's key had: still recognised while the Vault is off. */
export function earlierFingerprint(ctx: AppContext, userId: string, origin: string): string {
  return createHmac('sha256', ctx.keys.storedHashes).update(`import:${userId}:${origin}`).digest('base64url');
}

/** An origin's fingerprints, the current first: the one recorded, and any it may have been recorded as before. */
export function fingerprinter(ctx: AppContext, userId: string): (origin: string) => { current: string; earlier: string } {
  const key = importFingerprintKey(ctx, userId);
  return (origin) => ({ current: keyedFingerprint(key, origin), earlier: earlierFingerprint(ctx, userId, origin) });
}
