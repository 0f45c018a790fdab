import { createCipheriv, createDecipheriv, createHmac, hkdfSync, pbkdf2Sync, randomBytes } from 'node:crypto';

const PREFIX = 'ENC:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Encrypted values name their master key: `ENC:` + 8-character key id + `:`. */
const KEY_ID_LENGTH = 8;
/** Per-user salts start with this (HKDF keys). */
const HKDF_SALT_PREFIX = 'h1:';
/** Derived keys kept in memory, the least recently used going first (32 bytes each). */
const MAX_CACHED_KEYS = 20_000;

/**
 * The subject stored message bodies are encrypted for (sms_messages.body), whoever they belong to. Its
 * key is PBKDF2-SHA256(master key ‖ "system", salt, 100,000): the bodies of texts sent and received
 * stay encrypted under it, so it keeps that derivation (once per master key, when the cipher is made).
 */
export const SYSTEM_SUBJECT = { id: 'system', salt: 'c3lzdGVtLXNhbHQtdjE=' } as const;
/** The subject the service's own secrets are encrypted for (sealed_secrets): an HKDF key, fixed salt. */
export const SECRETS_SUBJECT = { id: 'secrets', salt: `${HKDF_SALT_PREFIX}am90bGluZS1zZWNyZXRzMQ==` } as const;

export interface TextCipher {
  /** Names the master key new values are encrypted with (8 characters, derived from the key; not secret). */
  readonly keyId: string;
  /** Encrypts for one user with their per-user key: `ENC:` + key id + `:` + base64(iv | ciphertext | tag). */
  encrypt(userId: string, salt: string, plaintext: string): string;
  /** Decrypts; a value that is not ours or fails to decrypt is returned raw (legacy rows). */
  decrypt(userId: string, salt: string, stored: string): string;
  /** Decrypts strictly: throws when the value is not encrypted or no configured key decrypts it. */
  decryptStrict(userId: string, salt: string, stored: string): string;
  /** The id of the key a stored value names; null for a value that is not encrypted. */
  keyIdOf(stored: string): string | null;
  /** Bytes (photo files) under the same per-user key: key id (8 bytes) | iv | ciphertext | tag. */
  encryptBytes(userId: string, salt: string, plain: Buffer): Buffer;
  /** The inverse of encryptBytes; throws when no configured key decrypts the bytes. */
  decryptBytes(userId: string, salt: string, encrypted: Buffer): Buffer;
  /** The key id at the start of bytes made by encryptBytes. */
  keyIdOfBytes(encrypted: Buffer): string;
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
 * AES-256-GCM with a per-user key: HKDF-SHA256(master key, salt, "jotline text key" ‖ user id). The
 * master key is 32 random bytes, so a work factor adds nothing; HKDF takes microseconds. Derived keys
 * are cached in memory, bounded. The system subject's key is the one exception (SYSTEM_SUBJECT).
 *
 * Key rotation (keys/rotate.ts): new values are encrypted with `masterKey` and name its id; values that
 * name the previous key's id are decrypted with `previousMasterKey`, so both keys work until
 * `jotline keys rotate` has re-encrypted everything.
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
  const systemKeys = new Map(
    [...masters].map(([keyId, master]) => [
      keyId,
      pbkdf2Sync(Buffer.concat([master, Buffer.from(SYSTEM_SUBJECT.id)]), Buffer.from(SYSTEM_SUBJECT.salt, 'base64'), 100_000, 32, 'sha256'),
    ]),
  );
  const keyFor = (keyId: string, userId: string, salt: string) => {
    const master = masters.get(keyId);
    if (!master) throw new Error(`No master key with id ${keyId} is configured`);
    if (userId === SYSTEM_SUBJECT.id && salt === SYSTEM_SUBJECT.salt) return systemKeys.get(keyId)!;
    if (!salt.startsWith(HKDF_SALT_PREFIX)) throw new Error('Not a key salt');
    const cacheKey = `${keyId}:${userId}:${salt}`;
    const cached = keys.get(cacheKey);
    if (cached) return remember(cacheKey, cached);
    return remember(cacheKey, Buffer.from(hkdfSync('sha256', master, Buffer.from(salt.slice(HKDF_SALT_PREFIX.length), 'base64'), `jotline text key ${userId}`, 32)));
  };
  const encryptWith = (key: Buffer, plain: Buffer) => {
    const iv = freshIv();
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    return Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  };
  const decryptWith = (key: Buffer, encrypted: Buffer) => {
    const decipher = createDecipheriv('aes-256-gcm', key, encrypted.subarray(0, IV_BYTES));
    decipher.setAuthTag(encrypted.subarray(encrypted.length - TAG_BYTES));
    return Buffer.concat([decipher.update(encrypted.subarray(IV_BYTES, encrypted.length - TAG_BYTES)), decipher.final()]);
  };
  const keyIdOf = (stored: string) =>
    stored.startsWith(PREFIX) && stored[PREFIX.length + KEY_ID_LENGTH] === ':' ? stored.slice(PREFIX.length, PREFIX.length + KEY_ID_LENGTH) : null;
  const decryptStrict = (userId: string, salt: string, stored: string) => {
    const keyId = keyIdOf(stored);
    if (keyId === null) throw new Error('Not an encrypted value');
    return decryptWith(keyFor(keyId, userId, salt), Buffer.from(stored.slice(PREFIX.length + KEY_ID_LENGTH + 1), 'base64')).toString('utf8');
  };
  return {
    keyId: currentId,
    encrypt(userId, salt, plaintext) {
      return `${PREFIX}${currentId}:${encryptWith(keyFor(currentId, userId, salt), Buffer.from(plaintext, 'utf8')).toString('base64')}`;
    },
    decrypt(userId, salt, stored) {
      if (!stored.startsWith(PREFIX)) return stored;
      try {
        return decryptStrict(userId, salt, stored);
      } catch {
        return stored;
      }
    },
    decryptStrict,
    keyIdOf,
    encryptBytes(userId, salt, plain) {
      return Buffer.concat([Buffer.from(currentId, 'latin1'), encryptWith(keyFor(currentId, userId, salt), plain)]);
    },
    decryptBytes(userId, salt, encrypted) {
      return decryptWith(keyFor(encrypted.subarray(0, KEY_ID_LENGTH).toString('latin1'), userId, salt), encrypted.subarray(KEY_ID_LENGTH));
    },
    keyIdOfBytes: (encrypted) => encrypted.subarray(0, KEY_ID_LENGTH).toString('latin1'),
  };
}
