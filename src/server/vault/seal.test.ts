import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journalUser } from '../journal/test-helpers';
import { buildTestApp, type TestApp } from '../test/app';
import { isVaultFile, sealBytesForUser, sealForUser } from './seal';
import { browserKeys, turnOn } from './test-support';

describe('sealing for a vault user (what processing a text calls)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('seals a segment and a photo to the public key the user set up; each box is new', async () => {
    const user = await journalUser(t);
    const keys = await browserKeys();
    await turnOn(t, user, keys);
    const segment = { text: 'Fog on the bay', at: '2026-11-25T07:00:00.000Z', source: 'sms' as const };
    const sealed = await sealForUser(t.app.ctx, user.id, segment);
    expect(keys.openSegment(sealed)).toEqual(segment);
    // An ephemeral key per box: the same text never seals to the same bytes.
    expect(await sealForUser(t.app.ctx, user.id, segment)).not.toBe(sealed);

    const photo = Buffer.from('pretend these are JPEG bytes');
    const stored = await sealBytesForUser(t.app.ctx, user.id, photo);
    expect(isVaultFile(stored)).toBe(true);
    expect(stored.includes(photo)).toBe(false);
    expect(keys.openFile(stored)).toEqual(photo);
  });

  it('refuses to seal for a user without a vault (their text stays under the server key)', async () => {
    const user = await journalUser(t);
    await expect(sealForUser(t.app.ctx, user.id, { text: 'x', at: '2026-11-25T07:00:00.000Z', source: 'web' })).rejects.toMatchObject({ code: 'CONFLICT' });
  });
});
