import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../shared/journal';
import { messages } from '../../shared/messages';
import { createEntry, journalUser, multipart, noisyPng, type JournalTestUser } from '../test/journal';
import { buildTestApp, type TestApp } from '../test/app';

/** Every file under a directory, at any depth. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/**
 * Runs `work` while this process may write no file past `bytes` (RLIMIT_FSIZE, as `ulimit -f`
 * sets it): a write that goes further fails part-way with EFBIG, as one to a full disk fails with
 * ENOSPC, after its first bytes are on disk. Only the soft limit moves, so it is raised again after.
 */
async function withFileSizeLimit<T>(bytes: number, work: () => Promise<T>): Promise<T> {
  // The limit is the process's: in a worker thread it would reach every other test file's writes.
  if (!isMainThread) throw new Error('This test must run in a process of its own (vitest pool "forks")');
  execFileSync('prlimit', ['--pid', String(process.pid), `--fsize=${bytes}:`]);
  try {
    return await work();
  } finally {
    execFileSync('prlimit', ['--pid', String(process.pid), '--fsize=unlimited:']);
  }
}

describe('a photo write that fails part-way (a full disk)', () => {
  let t: TestApp;
  let user: JournalTestUser;
  beforeAll(async () => {
    // The database is in memory (or PostgreSQL), so only photo files meet the limit.
    t = await buildTestApp({ DATABASE_URL: process.env.TEST_DATABASE_URL ?? 'sqlite::memory:' });
    user = await journalUser(t);
  });
  afterAll(() => t.close());

  const photosDir = () => t.app.ctx.config.storage.provider === 'disk' ? t.app.ctx.config.storage.directory : '';
  const photoRows = () => t.app.ctx.db.selectFrom('journal_photos').select(['file_path', 'thumb_path']).where('user_id', '=', user.id).execute();

  it('leaves no file behind, says to try later, and the next try stores the photo with its row', async () => {
    const entry = await createEntry(t, user, { content: 'A photo that needs room.' });
    // About 200 KB sealed: well past the 64 KB any file may reach while the limit holds.
    const photo = await noisyPng(200_000);
    const form = await multipart({}, [{ name: 'garden.png', bytes: photo }]);
    const upload = () => t.app.inject({ method: 'POST', url: `/api/entries/${entry.id}/photos`, headers: { ...user.headers, ...form.headers }, payload: form.payload });

    const refused = await withFileSizeLimit(64 * 1024, upload);
    expect(refused.statusCode).toBe(503);
    expect(refused.json().error.message).toBe(messages.entries.photoStorageFull);
    expect(filesUnder(photosDir())).toEqual([]);
    expect(await photoRows()).toEqual([]);

    // A new entry with a photo is refused whole: no entry, no file.
    const withPhoto = await multipart({ content: 'A new entry with its photo.' }, [{ name: 'garden.png', bytes: photo }]);
    const created = await withFileSizeLimit(64 * 1024, () => t.app.inject({ method: 'POST', url: '/api/entries', headers: { ...user.headers, ...withPhoto.headers }, payload: withPhoto.payload }));
    expect(created.statusCode).toBe(503);
    expect(filesUnder(photosDir())).toEqual([]);
    const entries = await t.app.inject({ method: 'GET', url: '/api/entries', headers: user.headers });
    expect((entries.json().entries as JournalEntry[]).map((e) => e.content)).toEqual(['A photo that needs room.']);

    // Room again: the photo is stored, and the files and the row agree.
    const stored = await upload();
    expect(stored.statusCode).toBe(201);
    const rows = await photoRows();
    expect(rows).toHaveLength(1);
    expect(filesUnder(photosDir()).map((path) => path.slice(photosDir().length + 1)).sort()).toEqual([rows[0]!.file_path, rows[0]!.thumb_path].sort());
  });
});
