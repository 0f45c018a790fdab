import { createCipheriv, createDecipheriv, pbkdf2Sync, randomBytes } from 'node:crypto';

const PREFIX = 'ENC:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const PBKDF2_ITERATIONS = 100_000;

/** Subject ids for text that belongs to no user yet (e.g. a text from an unknown number). */
export const SYSTEM_SUBJECT = { id: 'system', salt: 'c3lzdGVtLXNhbHQtdjE=' } as const;

export interface TextCipher {
  /** Encrypts for one user with their per-user key: `ENC:` + base64(iv | ciphertext | tag). */
  encrypt(userId: string, salt: string, plaintext: string): string;
  /** Decrypts; a value that is not ours or fails to decrypt is returned raw (legacy rows). */
  decrypt(userId: string, salt: string, stored: string): string;
}

/** A new random per-user salt (16 bytes, base64). */
export function newKeySalt(): string {
  return randomBytes(16).toString('base64');
}

/**
 * AES-256-GCM with a per-user key = PBKDF2-SHA256(master key ‖ user id, per-user salt, 100,000).
 * Derived keys are cached in memory: the derivation is deliberately slow.
 */
export function createTextCipher(masterKey: Buffer): TextCipher {
  const keys = new Map<string, Buffer>();
  const keyFor = (userId: string, salt: string) => {
    const cacheKey = `${userId}:${salt}`;
    let key = keys.get(cacheKey);
    if (!key) {
      key = pbkdf2Sync(Buffer.concat([masterKey, Buffer.from(userId, 'utf8')]), Buffer.from(salt, 'base64'), PBKDF2_ITERATIONS, 32, 'sha256');
      keys.set(cacheKey, key);
    }
    return key;
  };
  return {
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
  };
}
