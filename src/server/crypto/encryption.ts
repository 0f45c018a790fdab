import { createCipheriv, createDecipheriv, createHmac, hkdfSync, pbkdf2, pbkdf2Sync, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';

const PREFIX = 'ENC:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Values sealed since key rotation came in name their master key: `ENC:` + 8-character key id + `:`. */
const KEY_ID_LENGTH = 8;
const PBKDF2_ITERATIONS = 100_000;
/** Salts made since HKDF keys came in start with this; older ones are bare base64 (PBKDF2 keys). */
const HKDF_SALT_PREFIX = 'h1:';
/** Derived keys kept in memory, the least recently used going first (32 bytes each). */
const MAX_CACHED_KEYS = 20_000;
const pbkdf2Async = promisify(pbkdf2);

/** Subject ids for text that belongs to no user yet (e.g. a text from an unknown number). */
export const SYSTEM_SUBJECT = { id: 'system', salt: 'c3lzdGVtLXNhbHQtdjE=' } as const;
/** The subject the service's own secrets are sealed for (sealed_secrets): an HKDF key, fixed salt. */
export const SECRETS_SUBJECT = { id: 'secrets', salt: `${HKDF_SALT_PREFIX}am90bGluZS1zZWNyZXRzMQ==` } as const;

export interface TextCipher {
  /** Names the master key new values are sealed with (8 characters, derived from the key; not secret). */
  readonly keyId: string;
  /** Encrypts for one user with their per-user key: `ENC:` + key id + `:` + base64(iv | ciphertext | tag). */
  encrypt(userId: string, salt: string, plaintext: string): string;
  /** Decrypts; a value that is not ours or fails to decrypt is returned raw (legacy rows). */
  decrypt(userId: string, salt: string, stored: string): string;
  /** Decrypts strictly: throws when the value is not sealed or no configured key opens it. */
  open(userId: string, salt: string, stored: string): string;
  /** The id of the key a stored value names; null for a value sealed before key ids (or not sealed). */
  keyIdOf(stored: string): string | null;
  /**
   * Derives the user's key off the event loop, so encrypt and decrypt find it ready. Callers that
   * load a user's salt call it (see journal/owner.ts); without it the first use derives in line.
   */
  prepare(userId: string, salt: string): Promise<void>;
  /** Bytes (photo files) under the same per-user key: key id (8 bytes) | iv | ciphertext | tag. */
  encryptBytes(userId: string, salt: string, plain: Buffer): Buffer;
  /** The inverse of encryptBytes; throws when no configured key opens the bytes. */
  decryptBytes(userId: string, salt: string, sealed: Buffer): Buffer;
  /** Bytes sealed before key ids (iv | ciphertext | tag): tried with the current key, then the previous. */
  decryptUnmarkedBytes(userId: string, salt: string, sealed: Buffer): Buffer;
  /** The key id at the start of bytes made by encryptBytes. */
  keyIdOfBytes(sealed: Buffer): string;
}

/** A new random IV (12 bytes). */
export function freshIv(): Buffer {
  return randomBytes(IV_BYTES);
}

/** A master key's public name: the first 8 characters of HMAC-SHA256(key, "jotline key id"), base64url. */
export function masterKeyId(masterKey: Buffer): string {
  return createHmac('sha256', masterKey).update('jotline key id').digest('base64url').slice(0, KEY_ID_LENGTH);
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
 *
 * Key rotation (keys/rotate.ts): new values are sealed with `masterKey` and name its id; values that
 * name the previous key's id, and unmarked values from before key ids, are opened with
 * `previousMasterKey` too, so both keys work until `jotline keys rotate` has resealed everything.
 */
export function createTextCipher(masterKey: Buffer, previousMasterKey?: Buffer): TextCipher {
  const masters = new Map<string, Buffer>([[masterKeyId(masterKey), masterKey]]);
  if (previousMasterKey && !previousMasterKey.equals(masterKey)) masters.set(masterKeyId(previousMasterKey), previousMasterKey);
  const currentId = masterKeyId(masterKey);
  const keys = new Map<string, Buffer>();
  const remember = (cacheKey: string, key: Buffer) => {
    keys.delete(cacheKey);
    keys.set(cacheKey, key);
    if (keys.size > MAX_CACHED_KEYS) keys.delete(keys.keys().next().value!);
    return key;
  };
  const pbkdf2Input = (master: Buffer, userId: string) => Buffer.concat([master, Buffer.from(userId, 'utf8')]);
  const hkdfKey = (master: Buffer, userId: string, salt: string) =>
    Buffer.from(hkdfSync('sha256', master, Buffer.from(salt.slice(HKDF_SALT_PREFIX.length), 'base64'), `jotline text key ${userId}`, 32));
  const keyFor = (keyId: string, userId: string, salt: string) => {
    const master = masters.get(keyId);
    if (!master) throw new Error(`No master key with id ${keyId} is configured`);
    const cacheKey = `${keyId}:${userId}:${salt}`;
    const cached = keys.get(cacheKey);
    if (cached) return remember(cacheKey, cached);
    const key = salt.startsWith(HKDF_SALT_PREFIX)
      ? hkdfKey(master, userId, salt)
      : pbkdf2Sync(pbkdf2Input(master, userId), Buffer.from(salt, 'base64'), PBKDF2_ITERATIONS, 32, 'sha256');
    return remember(cacheKey, key);
  };
  const seal = (key: Buffer, plain: Buffer) => {
    const iv = freshIv();
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    return Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  };
  const unseal = (key: Buffer, sealed: Buffer) => {
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES));
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)), decipher.final()]);
  };
  // Unmarked values predate key ids: whichever configured key opens them (the current one first).
  const unsealUnmarked = (userId: string, salt: string, sealed: Buffer) => {
    let failure: unknown;
    for (const keyId of masters.keys()) {
      try {
        return unseal(keyFor(keyId, userId, salt), sealed);
      } catch (error) {
        failure = error;
      }
    }
    throw failure;
  };
  const keyIdOf = (stored: string) =>
    stored.startsWith(PREFIX) && stored[PREFIX.length + KEY_ID_LENGTH] === ':' ? stored.slice(PREFIX.length, PREFIX.length + KEY_ID_LENGTH) : null;
  const open = (userId: string, salt: string, stored: string) => {
    if (!stored.startsWith(PREFIX)) throw new Error('Not a sealed value');
    const keyId = keyIdOf(stored);
    if (keyId === null) return unsealUnmarked(userId, salt, Buffer.from(stored.slice(PREFIX.length), 'base64')).toString('utf8');
    return unseal(keyFor(keyId, userId, salt), Buffer.from(stored.slice(PREFIX.length + KEY_ID_LENGTH + 1), 'base64')).toString('utf8');
  };
  return {
    keyId: currentId,
    async prepare(userId, salt) {
      for (const [keyId, master] of masters) {
        const cacheKey = `${keyId}:${userId}:${salt}`;
        if (keys.has(cacheKey)) continue;
        if (salt.startsWith(HKDF_SALT_PREFIX)) remember(cacheKey, hkdfKey(master, userId, salt));
        else remember(cacheKey, await pbkdf2Async(pbkdf2Input(master, userId), Buffer.from(salt, 'base64'), PBKDF2_ITERATIONS, 32, 'sha256'));
      }
    },
    encrypt(userId, salt, plaintext) {
      return `${PREFIX}${currentId}:${seal(keyFor(currentId, userId, salt), Buffer.from(plaintext, 'utf8')).toString('base64')}`;
    },
    decrypt(userId, salt, stored) {
      if (!stored.startsWith(PREFIX)) return stored;
      try {
        return open(userId, salt, stored);
      } catch {
        return stored;
      }
    },
    open,
    keyIdOf,
    encryptBytes(userId, salt, plain) {
      return Buffer.concat([Buffer.from(currentId, 'latin1'), seal(keyFor(currentId, userId, salt), plain)]);
    },
    decryptBytes(userId, salt, sealed) {
      return unseal(keyFor(sealed.subarray(0, KEY_ID_LENGTH).toString('latin1'), userId, salt), sealed.subarray(KEY_ID_LENGTH));
    },
    decryptUnmarkedBytes: unsealUnmarked,
    keyIdOfBytes: (sealed) => sealed.subarray(0, KEY_ID_LENGTH).toString('latin1'),
  };
}
