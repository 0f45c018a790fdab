import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, rmdirSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../shared/messages';
import { apiClient, buildUser, signIn } from '../test/factories';
import { buildTestApp, type TestApp } from '../test/app';

/** A 4 MB filesystem of its own, when this process may mount one (root, or a container allowed to). */
function mountSmallDisk(dir: string): string | null {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', dir], { stdio: 'pipe' });
    return null;
  } catch (error) {
    return String((error as { stderr?: Buffer }).stderr ?? error).trim();
  }
}

// SQLite on a disk that fills up: SQLITE_FULL, which SQLite answers by rolling the transaction back.
describe('SQLite on a full disk', () => {
  const dir = mkdtempSync(join(tmpdir(), 'jotline-full-disk-'));
  const mountError = mountSmallDisk(dir);
  const filler = join(dir, 'filler');
  let t: TestApp;
  const logLines: string[] = [];

  beforeAll(async () => {
    if (mountError) console.log(`SQLite on a full disk: no small filesystem to fill (${mountError}); skipped.`);
    else t = await buildTestApp({ DATABASE_URL: `sqlite:${join(dir, 'full.db')}`, LOG_LEVEL: 'info' }, { logDestination: { write: (line) => void logLines.push(line) } });
  });
  afterAll(async () => {
    await t?.close();
    if (!mountError) execFileSync('umount', [dir]);
    rmdirSync(dir);
  });

  /** Writes the filler file until the disk has no room left. */
  const fillTheDisk = () => {
    const fd = openSync(filler, 'w');
    const chunk = randomBytes(64 * 1024);
    try {
      for (;;) writeSync(fd, chunk);
    } catch (error) {
      expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
    } finally {
      closeSync(fd);
    }
  };

  it.skipIf(mountError !== null)('answers writes 503 with a clear message while full, loses nothing, and writes again once there is room', async () => {
    const user = await buildUser(t);
    const token = await signIn(t, user);
    const api = apiClient(t);
    expect((await api.post('/api/entries', { content: 'Before the disk filled up' }, token)).status).toBe(201);
    // The write-ahead log emptied, so the next write needs new room on the disk.
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(t.app.ctx.db);
    fillTheDisk();

    const unavailable = { error: { code: 'UNAVAILABLE', message: messages.generic.unavailable } };
    for (let i = 0; i < 5; i++) {
      const write = await api.post('/api/entries', { content: `Written on a full disk ${i}` }, token);
      expect(write.status).toBe(503);
      expect(write.body).toEqual(unavailable);
    }
    const text = () =>
      t.app.inject({
        method: 'POST',
        url: '/webhooks/twilio/sms',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ MessageSid: 'SM' + 'f'.repeat(32), From: user.phone, To: '+15555550100', Body: 'A text on a full disk', NumMedia: '0' }).toString(),
      });
    // Twilio retries a 5xx: the text is not lost.
    expect((await text()).statusCode).toBe(503);

    // The operator reads the real cause, once, not a line per refused write.
    const causes = logLines.filter((line) => line.includes('database disk full'));
    expect(causes).toHaveLength(1);
    expect(causes[0]).toContain('SQLITE_FULL');

    unlinkSync(filler);
    const after = await api.post('/api/entries', { content: 'Written once there was room' }, token);
    expect(after.status).toBe(201);
    expect((await text()).statusCode).toBe(200);
    const list = await api.get('/api/entries', token);
    expect(list.body.entries.map((e: { content: string }) => e.content).sort()).toEqual(['Before the disk filled up', 'Written once there was room']);
    expect(await t.app.ctx.db.selectFrom('sms_messages').select('id').where('direction', '=', 'inbound').execute()).toHaveLength(1);
  }, 60_000);
});
