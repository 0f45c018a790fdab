import { describe, expect, it } from 'vitest';
import { browserKeys } from '../test/vault';
import { isVaultFile, sealFileBytes, sealSegment } from './sealed-box';

describe("the vault's box", () => {
  it('seals a segment and a photo to the public key the user set up; each box is new', async () => {
    const keys = await browserKeys();
    const segment = { text: 'Fog on the bay', at: '2026-11-25T07:00:00.000Z', source: 'sms' as const };
    const sealed = await sealSegment(keys.publicKey, segment);
    expect(keys.openSegment(sealed)).toEqual(segment);
    // An ephemeral key per box: the same text never seals to the same bytes.
    expect(await sealSegment(keys.publicKey, segment)).not.toBe(sealed);

    const photo = Buffer.from('pretend these are JPEG bytes');
    const stored = await sealFileBytes(keys.publicKey, photo);
    expect(isVaultFile(stored)).toBe(true);
    expect(stored.includes(photo)).toBe(false);
    expect(keys.openFile(stored)).toEqual(photo);
  });
});
