import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/app';
import { browserKeys, turnOn, vaultRequest } from '../test/vault';
import { sealEntryNow } from './seal-entries';
import { createEntry, journalUser } from '../test/journal';

describe('sealing one entry', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

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
});
