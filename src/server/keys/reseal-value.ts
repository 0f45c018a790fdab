import type { TextCipher } from '../crypto/encryption';

/** What became of one stored text value. */
export type Resealed = { kind: 'resealed'; value: string } | { kind: 'current' } | { kind: 'unreadable' };

/**
 * A stored value under the new key: values already naming it, and values that were never sealed
 * (written before encryption), are left alone; one that no configured key opens is reported and
 * kept as it is (resealing it as text would bury it for good).
 */
export function resealValue(cipher: TextCipher, userId: string, salt: string, stored: string | null): Resealed {
  if (stored === null || !stored.startsWith('ENC:') || cipher.keyIdOf(stored) === cipher.keyId) return { kind: 'current' };
  let plain: string;
  try {
    plain = cipher.open(userId, salt, stored);
  } catch {
    return { kind: 'unreadable' };
  }
  return { kind: 'resealed', value: cipher.encrypt(userId, salt, plain) };
}
