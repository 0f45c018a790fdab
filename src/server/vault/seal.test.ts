import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEntry, journalUser } from '../test/journal';
import { buildTestApp, type TestApp } from '../test/app';
import { isVaultFile, sealBytesForUser, sealForUser } from './seal';
import { sealEntryNow } from './seal-entries';
import { browserKeys, turnOn, vaultRequest } from '../test/vault';

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

  it('seals one readable entry at once (a day the sealing has not reached when a text arrives for it)', async () => {
    const user = await journalUser(t);
    const today = await createEntry(t, user, { content: 'Today so far' });
    const other = await createEntry(t, user, { content: 'Another day' });
    const keys = await browserKeys();
    await turnOn(t, user, keys);
    expect(await sealEntryNow(t.app.ctx, user.id, today.id)).toBe(true);
    const rows = await t.app.ctx.db.selectFrom('journal_entries').select(['id', 'sealed']).where('user_id', '=', user.id).execute();
    expect(keys.openSegment((JSON.parse(rows.find((r) => r.id === today.id)!.sealed!) as string[])[0]!).text).toBe('Today so far');
    expect(rows.find((r) => r.id === other.id)!.sealed).toBeNull();
    expect(await sealEntryNow(t.app.ctx, user.id, today.id)).toBe(false);
    expect((await vaultRequest(t, user, 'GET', '/api/vault')).json()).toMatchObject({ state: 'sealing', sealed_entries: 1, total_entries: 2 });
  });

  it('refuses to seal for a user without a vault (their text stays under the server key)', async () => {
    const user = await journalUser(t);
    await expect(sealForUser(t.app.ctx, user.id, { text: 'x', at: '2026-11-25T07:00:00.000Z', source: 'web' })).rejects.toMatchObject({ code: 'CONFLICT' });
  });
});
