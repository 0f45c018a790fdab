import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { masterKeyId } from '../crypto/encryption';
import { createEntry } from '../test/journal';
import { buildSmsTestApp, type SmsTestApp } from '../test/sms';
import { bearer, buildUser, signIn } from '../test/factories';

const keyA = randomBytes(32).toString('base64');
const keyB = randomBytes(32).toString('base64');

describe('jotline keys rotate from the command line', () => {
  let dir: string;
  let t: SmsTestApp;
  const run = (args: string[], keys: Record<string, string>) =>
    spawnSync(process.execPath, [resolve('bin/jotline.mjs'), ...args], {
      env: { PATH: process.env.PATH, NODE_ENV: 'development', DATA_DIR: dir, STORAGE_URL: join(dir, 'photos'), DATABASE_URL: t.shared.env.DATABASE_URL!, ...keys },
      encoding: 'utf8',
      timeout: 60_000,
    });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'jotline-keys-cli-'));
    t = await buildSmsTestApp({ env: { MASTER_KEY: keyA, STORAGE_URL: join(dir, 'photos') } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('re-encrypts the journal while an instance with both keys serves it, then says the old key can go', async () => {
    const account = await buildUser(t, { timezone: 'UTC' });
    const writer = { id: account.id, token: '', headers: bearer(await signIn(t, account)) };
    await createEntry(t, writer, { content: 'Walked to the lighthouse', title: 'Sunday', tags: ['sea'] });

    const serving = await buildSmsTestApp({ sameDatabaseAs: t, env: { MASTER_KEY: keyB, MASTER_KEY_PREVIOUS: keyA, STORAGE_URL: join(dir, 'photos') } });
    try {
      const rotated = run(['keys', 'rotate'], { MASTER_KEY: keyB, MASTER_KEY_PREVIOUS: keyA });
      expect(rotated.status, rotated.stderr).toBe(0);
      const [from, to] = [masterKeyId(Buffer.from(keyA, 'base64')), masterKeyId(Buffer.from(keyB, 'base64'))];
      expect(rotated.stdout).toContain(`Rotated from key ${from} to key ${to}.`);
      expect(rotated.stdout).toMatch(/Re-encrypted for \d+ users: [1-9]\d* entries/);
      expect(rotated.stdout).toContain(`Everything is now under key ${to}. Remove MASTER_KEY_PREVIOUS from every instance`);
      // Never the journal's text.
      expect(rotated.stdout + rotated.stderr).not.toContain('lighthouse');

      const res = await serving.app.inject({ method: 'GET', url: '/api/entries', headers: bearer(await signIn(serving, account)) });
      expect(res.json().entries.map((e: { content: string; title: string; tags: string[] }) => [e.title, e.content, e.tags])).toEqual([['Sunday', 'Walked to the lighthouse', ['sea']]]);
      const row = await serving.ctx.db.selectFrom('journal_entries').select('content').where('user_id', '=', account.id).executeTakeFirstOrThrow();
      expect(serving.ctx.cipher.keyIdOf(row.content)).toBe(to);

      const again = run(['keys', 'rotate'], { MASTER_KEY: keyB, MASTER_KEY_PREVIOUS: keyA });
      expect(again.status, again.stderr).toBe(0);
      expect(again.stdout).toContain('was already finished');
    } finally {
      await serving.close();
    }
  }, 120_000);

  it('says what to set when the old key is missing, and how to call it', () => {
    const missing = run(['keys', 'rotate'], { MASTER_KEY: randomBytes(32).toString('base64') });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('Set MASTER_KEY to the new key and MASTER_KEY_PREVIOUS to the key it replaces');

    const wrong = run(['keys', 'spin'], { MASTER_KEY: keyB });
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain('Usage: jotline keys rotate   (re-encrypt everything from MASTER_KEY_PREVIOUS under MASTER_KEY');
  }, 120_000);
});
