import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTextCipher, masterKeyId, newKeySalt } from '../crypto/encryption';

const oldKey = randomBytes(32);
const newKey = randomBytes(32);
const salt = newKeySalt();

describe('the cipher during a key rotation', () => {
  it('encrypts new values under the new key, naming it, and decrypts values under either key', () => {
    const before = createTextCipher(oldKey);
    const during = createTextCipher(newKey, oldKey);
    const underOld = before.encrypt('user-a', salt, 'Lunch with Sam');
    const underNew = during.encrypt('user-a', salt, 'Dinner with Nora');
    expect(during.keyIdOf(underOld)).toBe(masterKeyId(oldKey));
    expect(during.keyIdOf(underNew)).toBe(masterKeyId(newKey));
    expect(during.keyId).toBe(masterKeyId(newKey));
    expect(during.decrypt('user-a', salt, underOld)).toBe('Lunch with Sam');
    expect(during.decryptStrict('user-a', salt, underNew)).toBe('Dinner with Nora');
    // An instance still on the old key alone cannot read the new values: the guard keeps it from starting.
    expect(before.decrypt('user-a', salt, underNew)).toBe(underNew);
  });

  it('says so when no configured key decrypts a value, and never mistakes it for text', () => {
    const foreign = createTextCipher(randomBytes(32)).encrypt('user-a', salt, 'secret');
    const during = createTextCipher(newKey, oldKey);
    expect(() => during.decryptStrict('user-a', salt, foreign)).toThrow(/No master key with id/);
    expect(during.decrypt('user-a', salt, foreign)).toBe(foreign);
    expect(() => during.decryptStrict('user-a', salt, 'plain text')).toThrow(/Not an encrypted value/);
    expect(() => during.decryptStrict('user-a', salt, 'ENC:' + foreign.slice('ENC:'.length + 9))).toThrow(/Not an encrypted value/);
  });

  it('encrypts photo bytes under the new key, naming it, and decrypts bytes under either key', () => {
    const picture = randomBytes(256);
    const before = createTextCipher(oldKey);
    const during = createTextCipher(newKey, oldKey);
    const underOld = before.encryptBytes('user-a', salt, picture);
    expect(during.keyIdOfBytes(underOld)).toBe(masterKeyId(oldKey));
    expect(during.decryptBytes('user-a', salt, underOld)).toEqual(picture);
    expect(during.keyIdOfBytes(during.encryptBytes('user-a', salt, picture))).toBe(masterKeyId(newKey));
    expect(() => createTextCipher(newKey).decryptBytes('user-a', salt, underOld)).toThrow();
  });
});
