import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rotateMasterKey } from '../keys/rotate';
import { multipart, testImage, type JournalTestUser } from '../test/journal';
import { buildSmsTestApp, type SmsTestApp } from '../test/sms';
import { bearer, buildUser, signIn } from '../test/factories';
import { browserKeys, sealJournal, turnOn } from '../test/vault';

describe('jotline keys rotate and the vault', () => {
  const storage = mkdtempSync(join(tmpdir(), 'jotline-vault-keys-'));
  const apps: SmsTestApp[] = [];
  afterAll(async () => {
    for (const app of apps.reverse()) await app.close();
    rmSync(storage, { recursive: true, force: true });
  });

  it('leaves vault journals alone: nothing there is under MASTER_KEY, and everything still opens with the private key', async () => {
    const keyA = randomBytes(32).toString('base64');
    const a = await buildSmsTestApp({ env: { STORAGE_URL: storage, MASTER_KEY: keyA } });
    apps.push(a);
    const account = await buildUser(a, { timezone: 'UTC' });
    const user: JournalTestUser = { id: account.id, token: '', headers: bearer(await signIn(a, account)) };
    const form = await multipart({ content: 'Harbour at night', title: 'Boats' }, [{ name: 'boats.jpg', bytes: await testImage('jpeg') }]);
    expect((await a.app.inject({ method: 'POST', url: '/api/entries', headers: { ...user.headers, ...form.headers }, payload: form.payload })).statusCode).toBe(201);
    const keys = await browserKeys();
    await turnOn(a, user, keys);
    await sealJournal(a, user);
    const snapshot = async (app: SmsTestApp) => {
      const entries = await app.ctx.db.selectFrom('journal_entries').select(['id', 'content', 'title', 'tags', 'sealed']).where('user_id', '=', user.id).execute();
      const photos = await app.ctx.db.selectFrom('journal_photos').select(['file_path', 'thumb_path', 'file_name']).where('user_id', '=', user.id).execute();
      return { entries, photos, files: photos.flatMap((p) => [readFileSync(join(storage, p.file_path)), readFileSync(join(storage, p.thumb_path))]) };
    };
    const before = await snapshot(a);

    const b = await buildSmsTestApp({ sameDatabaseAs: a, env: { STORAGE_URL: storage, MASTER_KEY: randomBytes(32).toString('base64'), MASTER_KEY_PREVIOUS: keyA } });
    apps.push(b);
    const report = await rotateMasterKey(b.ctx);
    expect(report).toMatchObject({ finished: true, counts: { unreadable: 0, photoFiles: 0, photoNames: 0 } });
    const after = await snapshot(b);
    expect(after).toEqual(before);
    expect(keys.openSegment((JSON.parse(after.entries[0]!.sealed!) as string[])[0]!)).toMatchObject({ text: 'Harbour at night', title: 'Boats' });
    expect(keys.open(after.photos[0]!.file_name)).toBe('boats.jpg');
  });
});
