import { createCipheriv, pbkdf2Sync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTextCipher, freshIv, masterKeyId, newKeySalt, SYSTEM_SUBJECT } from './encryption';

const masterKey = randomBytes(32);

/** A message body encrypted for the system subject as stored bodies have always been: its PBKDF2 key. */
function encryptedForSystem(plaintext: string): string {
  const key = pbkdf2Sync(Buffer.concat([masterKey, Buffer.from('system')]), Buffer.from(SYSTEM_SUBJECT.salt, 'base64'), 100_000, 32, 'sha256');
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `ENC:${masterKeyId(masterKey)}:` + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64');
}

describe('the text cipher', () => {
  it('encrypts and decrypts text for its owner only, with a fresh IV each time', () => {
    const cipher = createTextCipher(masterKey);
    const salt = newKeySalt();
    const encrypted = cipher.encrypt('user-a', salt, 'Dinner with Nora 🍝');
    expect(encrypted).toMatch(/^ENC:/);
    expect(encrypted).not.toContain('Nora');
    expect(cipher.encrypt('user-a', salt, 'Dinner with Nora 🍝')).not.toBe(encrypted);
    expect(cipher.decrypt('user-a', salt, encrypted)).toBe('Dinner with Nora 🍝');
    // Another user, another salt or another master key cannot decrypt it: the stored value comes back as is.
    expect(cipher.decrypt('user-b', salt, encrypted)).toBe(encrypted);
    expect(cipher.decrypt('user-a', newKeySalt(), encrypted)).toBe(encrypted);
    expect(createTextCipher(randomBytes(32)).decrypt('user-a', salt, encrypted)).toBe(encrypted);
  });

  it('never hands out the same IV twice, across the blocks they are drawn from', () => {
    const cipher = createTextCipher(masterKey);
    const salt = newKeySalt();
    const seen = new Set<string>();
    // 3,000 IVs span several blocks (682 IVs each): direct draws and the ones encrypted values carry.
    for (let i = 0; i < 1_500; i++) {
      const iv = freshIv();
      expect(iv).toHaveLength(12);
      seen.add(iv.toString('hex'));
      const encrypted = Buffer.from(cipher.encrypt('user-a', salt, `entry ${i}`).split(':')[2]!, 'base64');
      seen.add(encrypted.subarray(0, 12).toString('hex'));
      expect(cipher.decrypt('user-a', salt, cipher.encrypt('user-a', salt, `entry ${i}`))).toBe(`entry ${i}`);
    }
    expect(seen.size).toBe(3_000);
  });

  it('gives accounts HKDF keys, refuses a salt that is not one, and keeps the system key stored bodies were encrypted with', () => {
    const cipher = createTextCipher(masterKey);
    expect(newKeySalt()).toMatch(/^h1:[A-Za-z0-9+/]{22}==$/);
    expect(() => cipher.encrypt('user-a', randomBytes(16).toString('base64'), 'no key')).toThrow(/Not a key salt/);
    expect(cipher.decryptStrict(SYSTEM_SUBJECT.id, SYSTEM_SUBJECT.salt, encryptedForSystem('Texted in March'))).toBe('Texted in March');
  });
});
