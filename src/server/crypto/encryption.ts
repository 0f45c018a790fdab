import { createCipheriv, createDecipheriv, hkdfSync, pbkdf2, pbkdf2Sync, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';

const PREFIX = 'ENC:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const PBKDF2_ITERATIONS = 100_000;
/** Salts made since HKDF keys came in start with this; older ones are bare base64 (PBKDF2 keys). */
const HKDF_SALT_PREFIX = 'h1:';
/** Derived keys kept in memory, the least recently used going first (32 bytes each). */
const MAX_CACHED_KEYS = 20_000;
const pbkdf2Async = promisify(pbkdf2);

/** Subject ids for text that belongs to no user yet (e.g. a text from an unknown number). */
export const SYSTEM_SUBJECT = { id: 'system', salt: 'c3lzdGVtLXNhbHQtdjE=' } as const;

export interface TextCipher {
  /** Encrypts for one user with their per-user key: `ENC:` + base64(iv | ciphertext | tag). */
  encrypt(userId: string, salt: string, plaintext: string): string;
  /** Decrypts; a value that is not ours or fails to decrypt is returned raw (legacy rows). */
  decrypt(userId: string, salt: string, stored: string): string;
  /**
   * Derives the user's key off the event loop, so encrypt and decrypt find it ready. Callers that
   * load a user's salt call it (see journal/owner.ts); without it the first use derives in line.
   */
  prepare(userId: string, salt: string): Promise<void>;
  /** Bytes (photo files) under the same per-user key: iv | ciphertext | tag. */
  encryptBytes(userId: string, salt: string, plain: Buffer): Buffer;
  /** The inverse of encryptBytes; throws when the bytes were not sealed with this user's key. */
  decryptBytes(userId: string, salt: string, sealed: Buffer): Buffer;
}

/** A new random per-user salt (16 bytes, base64), marked for an HKDF key. */
export function newKeySalt(): string {
  return HKDF_SALT_PREFIX + randomBytes(16).toString('base64');
}

/**
 * AES-256-GCM with a per-user key derived from the master key, the user id and a per-user salt:
 * - salts made now: HKDF-SHA256(master key, salt, "jotline text key" ‖ user id). The master key is
 *   32 random bytes, so a work factor adds nothing; HKDF takes microseconds.
 * - older salts: PBKDF2-SHA256(master key ‖ user id, salt, 100,000), about 17 ms each, so rows
 *   written before stay readable. `prepare` derives these on the thread pool.
 * Derived keys are cached in memory, bounded.
 */
export function createTextCipher(masterKey: Buffer): TextCipher {
  const keys = new Map<string, Buffer>();
  const remember = (cacheKey: string, key: Buffer) => {
    keys.delete(cacheKey);
    keys.set(cacheKey, key);
    if (keys.size > MAX_CACHED_KEYS) keys.delete(keys.keys().next().value!);
    return key;
  };
  const pbkdf2Input = (userId: string) => Buffer.concat([masterKey, Buffer.from(userId, 'utf8')]);
  const hkdfKey = (userId: string, salt: string) =>
    Buffer.from(hkdfSync('sha256', masterKey, Buffer.from(salt.slice(HKDF_SALT_PREFIX.length), 'base64'), `jotline text key ${userId}`, 32));
  const keyFor = (userId: string, salt: string) => {
    const cacheKey = `${userId}:${salt}`;
    const cached = keys.get(cacheKey);
    if (cached) return remember(cacheKey, cached);
    const key = salt.startsWith(HKDF_SALT_PREFIX)
      ? hkdfKey(userId, salt)
      : pbkdf2Sync(pbkdf2Input(userId), Buffer.from(salt, 'base64'), PBKDF2_ITERATIONS, 32, 'sha256');
    return remember(cacheKey, key);
  };
  return {
    async prepare(userId, salt) {
      const cacheKey = `${userId}:${salt}`;
      if (keys.has(cacheKey)) return;
      if (salt.startsWith(HKDF_SALT_PREFIX)) remember(cacheKey, hkdfKey(userId, salt));
      else remember(cacheKey, await pbkdf2Async(pbkdf2Input(userId), Buffer.from(salt, 'base64'), PBKDF2_ITERATIONS, 32, 'sha256'));
    },
    encrypt(userId, salt, plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', keyFor(userId, salt), iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return PREFIX + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64');
    },
    decrypt(userId, salt, stored) {
      if (!stored.startsWith(PREFIX)) return stored;
      try {
        const raw = Buffer.from(stored.slice(PREFIX.length), 'base64');
        const iv = raw.subarray(0, IV_BYTES);
        const tag = raw.subarray(raw.length - TAG_BYTES);
        const decipher = createDecipheriv('aes-256-gcm', keyFor(userId, salt), iv);
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        return stored;
      }
    },
    encryptBytes(userId, salt, plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', keyFor(userId, salt), iv);
      return Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    },
    decryptBytes(userId, salt, sealed) {
      const decipher = createDecipheriv('aes-256-gcm', keyFor(userId, salt), sealed.subarray(0, IV_BYTES));
      decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
      return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)), decipher.final()]);
    },
  };
}
