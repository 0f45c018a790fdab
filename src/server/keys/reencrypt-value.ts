import type { TextCipher } from '../crypto/encryption';

/** What became of one stored text value. */
export type Reencrypted = { kind: 'reencrypted'; value: string } | { kind: 'current' } | { kind: 'unreadable' };

/**
 * A stored value under the new key: values already naming it, and values that were never encrypted
 * (written before encryption), are left alone; one that no configured key decrypts is reported and
 * kept as it is (re-encrypting it as text would bury it for good).
 */
export function reencryptValue(cipher: TextCipher, userId: string, salt: string, stored: string | null): Reencrypted {
  if (stored === null || !stored.startsWith('ENC:') || cipher.keyIdOf(stored) === cipher.keyId) return { kind: 'current' };
  let plain: string;
  try {
    plain = cipher.decryptStrict(userId, salt, stored);
  } catch {
    return { kind: 'unreadable' };
  }
  return { kind: 'reencrypted', value: cipher.encrypt(userId, salt, plain) };
}
