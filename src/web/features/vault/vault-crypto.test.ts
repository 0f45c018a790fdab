import { describe, expect, it } from 'vitest';
import { VAULT_FILE_MAGIC } from '../../../shared/vault';
import { loadSodium } from './sodium';
import { createVault, openFile, openSegment, openText, rewrapPassphrase, sealSegment, unlockWithPassphrase, unlockWithRecoveryCode, WrongSecretError } from './vault-crypto';

const PASSPHRASE = 'tidal marble lantern quietly';

describe('the vault keys in the browser', () => {
  it('makes a key pair whose private key the passphrase and the recovery code each unwrap', async () => {
    const vault = await createVault(PASSPHRASE);
    expect(atob(vault.publicKey)).toHaveLength(32);
    expect(vault.wrappedKeys).toMatchObject({ v: 1, passphrase: { kdf: 'argon2id13', ops: 3, mem: 64 * 1024 * 1024 }, recovery: { kdf: 'argon2id13' } });
    // Nothing sent to the server holds the private key or the code in the clear.
    const sent = JSON.stringify({ public_key: vault.publicKey, wrapped_keys: vault.wrappedKeys });
    const sodium = await loadSodium();
    expect(sent).not.toContain(sodium.to_base64(vault.keys.privateKey, sodium.base64_variants.ORIGINAL));
    expect(sent).not.toContain(vault.recoveryCode);

    const byPassphrase = await unlockWithPassphrase(vault.wrappedKeys, PASSPHRASE, vault.publicKey);
    expect(byPassphrase.privateKey).toEqual(vault.keys.privateKey);
    const byCode = await unlockWithRecoveryCode(vault.wrappedKeys, vault.recoveryCode, vault.publicKey);
    expect(byCode.privateKey).toEqual(vault.keys.privateKey);
  });

  it('refuses a wrong passphrase or code, and a wrapping that is not this vault’s', async () => {
    const vault = await createVault(PASSPHRASE);
    await expect(unlockWithPassphrase(vault.wrappedKeys, 'tidal marble lantern quietly!', vault.publicKey)).rejects.toBeInstanceOf(WrongSecretError);
    await expect(unlockWithRecoveryCode(vault.wrappedKeys, 'AAAAA-AAAAA-AAAAA-AAAAA-AAAAA', vault.publicKey)).rejects.toBeInstanceOf(WrongSecretError);
    const other = await createVault(PASSPHRASE);
    // Another vault's wrapping opens with the same passphrase, but not to this vault's key.
    await expect(unlockWithPassphrase(other.wrappedKeys, PASSPHRASE, vault.publicKey)).rejects.toBeInstanceOf(WrongSecretError);
    // A wrapping asking for an absurd cost is refused rather than hanging the tab.
    const greedy = { ...vault.wrappedKeys, passphrase: { ...vault.wrappedKeys.passphrase, mem: 8 * 1024 * 1024 * 1024 } };
    await expect(unlockWithPassphrase(greedy, PASSPHRASE, vault.publicKey)).rejects.toBeInstanceOf(WrongSecretError);
  });

  it('takes the recovery code however it is typed, and the passphrase however its accents are composed', async () => {
    const vault = await createVault('café au lait à minuit');
    const typed = vault.recoveryCode.toLowerCase().replace(/-/g, ' ').replace(/0/g, 'o').replace(/1/g, 'l');
    expect((await unlockWithRecoveryCode(vault.wrappedKeys, typed, vault.publicKey)).privateKey).toEqual(vault.keys.privateKey);
    const decomposed = 'café au lait à minuit'.normalize('NFD');
    expect((await unlockWithPassphrase(vault.wrappedKeys, decomposed, vault.publicKey)).privateKey).toEqual(vault.keys.privateKey);
  });

  it('re-wraps under a new passphrase: the old one no longer opens, the recovery code still does', async () => {
    const vault = await createVault(PASSPHRASE);
    const next = await rewrapPassphrase(vault.keys, vault.wrappedKeys, 'a whole new sentence here');
    expect(next.recovery).toEqual(vault.wrappedKeys.recovery);
    await expect(unlockWithPassphrase(next, PASSPHRASE, vault.publicKey)).rejects.toBeInstanceOf(WrongSecretError);
    expect((await unlockWithPassphrase(next, 'a whole new sentence here', vault.publicKey)).privateKey).toEqual(vault.keys.privateKey);
    expect((await unlockWithRecoveryCode(next, vault.recoveryCode, vault.publicKey)).privateKey).toEqual(vault.keys.privateKey);
  });

  it('opens what is sealed to the public key: segments, names and files', async () => {
    const vault = await createVault(PASSPHRASE);
    const segment = { text: 'Heron on the weir', title: 'Morning', tags: ['birds'], at: '2026-11-25T07:00:00.000Z', source: 'web' as const };
    const sealed = await sealSegment(vault.keys.publicKey, segment);
    expect(await openSegment(vault.keys, sealed)).toEqual(segment);

    const sodium = await loadSodium();
    const name = sodium.to_base64(sodium.crypto_box_seal(sodium.from_string('heron.jpg'), vault.keys.publicKey), sodium.base64_variants.ORIGINAL);
    expect(await openText(vault.keys, name)).toBe('heron.jpg');
    const bytes = new Uint8Array([255, 216, 255, 224, 1, 2, 3]);
    const stored = new Uint8Array([...new TextEncoder().encode(VAULT_FILE_MAGIC), ...sodium.crypto_box_seal(bytes, vault.keys.publicKey)]);
    expect(await openFile(vault.keys, stored)).toEqual(bytes);
    await expect(openFile(vault.keys, bytes)).rejects.toThrow('Not a vault file');

    const stranger = await createVault(PASSPHRASE);
    await expect(openSegment(stranger.keys, sealed)).rejects.toThrow();
  });
});
