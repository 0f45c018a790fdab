import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ImportProgressEvent } from '../../shared/import';
import { messages } from '../../shared/messages';
import type { UserEvent } from '../events';
import { newId } from '../ids';
import { journalUser, listEntries } from '../test/journal';
import { buildSmsTestApp, type SmsTestApp } from '../test/sms';
import { buildTestApp, type TestApp } from '../test/app';
import { claimNextJob, insertJob, keepClaim, saveProgress } from './jobs-repo';
import { HEARTBEAT_MS } from './run-import';
import { importsSettled, IMPORTS_PER_INSTANCE, runImports, STALE_CLAIM_MS } from './runner';
import { storePart } from './stored-upload';
import { vaultMessages } from '../../shared/vault-messages';
import { browserKeys } from '../test/vault';
import { databaseCanRead } from '../test/vault-zero-access';
import { brisbaneTrip, importFile, importStatus, postImport } from '../test/import';

/** A jrnl journal of `days` entries, one a day from 2010. */
function bigJournal(days: number, words = 12): Buffer {
  const line = 'Another ordinary day, written down so it is not forgotten. '.repeat(words);
  const lines: string[] = [];
  for (let i = 0; i < days; i++) {
    const day = new Date(Date.UTC(2010, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
    lines.push(`[${day} 21:00] Day ${i + 1}.`, line, '');
  }
  return Buffer.from(lines.join('\n'));
}

const jobOf = (ctx: SmsTestApp['ctx'], id: string) => ctx.db.selectFrom('import_jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('imports as jobs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    t.clock.set(new Date('2026-05-10T12:00:00Z'));
  });
  afterAll(() => t.close());

  it('tells the user’s open pages how it goes (counts only), then that entries changed', async () => {
    const user = await journalUser(t);
    const heard: UserEvent[] = [];
    const unsubscribe = t.app.ctx.events.subscribe(user.id, (event) => heard.push(event));
    const result = await importFile(t, user.headers, bigJournal(250), 'journal.txt');
    unsubscribe();
    expect(result).toMatchObject({ status: 'done', total: 250, imported: 250 });
    const progress = heard.filter((e): e is ImportProgressEvent => e.type === 'import.progress');
    expect(progress.map((e) => [e.status, e.imported])).toEqual([
      ['running', 0],
      ['running', 100],
      ['running', 200],
      ['running', 250],
      ['done', 250],
    ]);
    expect(progress.every((e) => e.import_id === result.id && e.total === 250)).toBe(true);
    expect(Object.keys(progress[0]!).sort()).toEqual(['import_id', 'imported', 'photos_imported', 'photos_skipped', 'skipped', 'status', 'total', 'type']);
    // Each chunk's entries change together: the pages hear of them once a chunk.
    expect(heard.filter((e) => e.type === 'entries.changed')).toHaveLength(3);
  });

  it('writes nothing readable into a journal whose vault was turned on after the upload was let in', async () => {
    const user = await journalUser(t);
    const now = t.clock.now().toISOString();
    const id = newId();
    const salt = (await t.app.ctx.db.selectFrom('profiles').select('key_salt').where('id', '=', user.id).executeTakeFirstOrThrow()).key_salt;
    // The upload passed the route's vault check and was stored; the vault was turned on meanwhile.
    await storePart(t.app.ctx, { userId: user.id, importId: id, salt }, 0, Buffer.from('[2024-03-01 09:00] Called mom about the Zanzibar trip.'));
    await insertJob(t.app.ctx.db, { id, user_id: user.id, status: 'queued', file_bytes: 55, file_parts: 1, created_at: now, updated_at: now });
    await t.app.ctx.db
      .insertInto('vaults')
      .values({ user_id: user.id, public_key: (await browserKeys()).publicKey, wrapped_keys: '{}', state: 'on', created_at: now, updated_at: now })
      .execute();
    await runImports(t.app.ctx);
    await importsSettled(t.app.ctx);
    expect(await importStatus(t, user.headers, id)).toMatchObject({ status: 'failed', imported: 0, error: vaultMessages.errors.importVaultOn });
    expect(await t.app.ctx.db.selectFrom('journal_entries').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    expect(await databaseCanRead(t.app.ctx, user.id, 'Zanzibar')).toBe(false);
  });

  it('runs one import at a time for a user: a second upload meanwhile is refused with 409', async () => {
    const user = await journalUser(t);
    const now = t.clock.now().toISOString();
    const id = newId();
    // An import of theirs under way (claimed just now, on another instance).
    await insertJob(t.app.ctx.db, { id, user_id: user.id, status: 'running', file_bytes: 10, file_parts: 1, claimed_at: now, created_at: now, updated_at: now });
    const refused = await postImport(t, user.headers, bigJournal(2), 'journal.txt');
    expect([refused.statusCode, refused.json().error.message]).toEqual([409, messages.importer.alreadyRunning]);
    await t.app.ctx.db.updateTable('import_jobs').set({ status: 'done' }).where('id', '=', id).execute();
    expect(await importFile(t, user.headers, bigJournal(2), 'journal.txt')).toMatchObject({ status: 'done', imported: 2 });
  });

  it(`runs at most ${IMPORTS_PER_INSTANCE} imports at once on an instance; the rest wait their turn`, async () => {
    const users = await Promise.all(Array.from({ length: IMPORTS_PER_INSTANCE + 2 }, () => journalUser(t)));
    const ids = await Promise.all(
      users.map(async (user) => {
        const res = await postImport(t, user.headers, bigJournal(300), 'journal.txt');
        expect(res.statusCode).toBe(202);
        return res.json().import_id as string;
      }),
    );
    let most = 0;
    let waited = false;
    for (;;) {
      const statuses = await t.app.ctx.db.selectFrom('import_jobs').select('status').where('id', 'in', ids).execute();
      most = Math.max(most, statuses.filter((s) => s.status === 'running').length);
      waited ||= statuses.some((s) => s.status === 'queued');
      if (statuses.every((s) => s.status === 'done')) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(most).toBeLessThanOrEqual(IMPORTS_PER_INSTANCE);
    expect(waited).toBe(true);
    for (const [i, user] of users.entries()) expect(await importStatus(t, user.headers, ids[i]!)).toMatchObject({ status: 'done', imported: 300 });
  });

  it('goes on after a fault part-way, from where it stopped: a chunk that failed left nothing behind, and nothing is doubled', async () => {
    const user = await journalUser(t);
    const storage = t.app.ctx.storage;
    const { zip } = await brisbaneTrip();
    let puts = 0;
    t.app.ctx.storage = {
      ...storage,
      async put(key, body, type) {
        // The upload's parts go in; then the disk fills as the second photo's thumbnail is stored.
        if (!key.includes('/imports/') && ++puts === 4) throw new Error('disk full');
        await storage.put(key, body, type);
      },
    };
    let id: string;
    try {
      const res = await postImport(t, user.headers, zip, 'Brisbane.zip');
      id = res.json().import_id;
      await importsSettled(t.app.ctx);
    } finally {
      t.app.ctx.storage = storage;
    }
    // Left claimed, as after a crash: nothing of the failed chunk is in the journal or the photo store.
    expect(await jobOf(t.app.ctx, id)).toMatchObject({ status: 'running', imported: 0, position: 0 });
    expect(await listEntries(t, user)).toMatchObject({ entries: [] });
    const photoFiles = (dir: string): string[] => {
      try {
        return readdirSync(join(t.dataDir, 'photos', user.id, dir), { recursive: true }) as string[];
      } catch {
        return [];
      }
    };
    expect(readdirSync(join(t.dataDir, 'photos', user.id)).filter((d) => d !== 'imports').flatMap(photoFiles)).toEqual([]);

    // Once the claim is stale, the import is taken up again and finishes.
    t.clock.advance(STALE_CLAIM_MS + 1_000);
    await runImports(t.app.ctx);
    await importsSettled(t.app.ctx);
    expect(await importStatus(t, user.headers, id)).toMatchObject({ status: 'done', total: 5, imported: 5, photos_imported: 3, photos_skipped: 2 });
    expect((await listEntries(t, user)).entries).toHaveLength(5);
    // The upload's parts are gone with the job.
    expect(photoFiles('imports').filter((f) => f.endsWith('.part'))).toEqual([]);
  });

  it('fails an import taken over again and again rather than trying forever', async () => {
    const user = await journalUser(t);
    const long = new Date(t.clock.now().getTime() - 2 * STALE_CLAIM_MS).toISOString();
    const id = newId();
    await insertJob(t.app.ctx.db, { id, user_id: user.id, status: 'running', file_bytes: 10, file_parts: 0, attempts: 6, claimed_at: long, created_at: long, updated_at: long });
    await runImports(t.app.ctx);
    await importsSettled(t.app.ctx);
    expect(await importStatus(t, user.headers, id)).toMatchObject({ status: 'failed', error: messages.importer.stalled });
  });

  it('takes an import’s upload out of the photo store with the account it belongs to', async () => {
    const user = await journalUser(t);
    const now = t.clock.now().toISOString();
    const id = newId();
    const salt = (await t.app.ctx.db.selectFrom('profiles').select('key_salt').where('id', '=', user.id).executeTakeFirstOrThrow()).key_salt;
    await storePart(t.app.ctx, { userId: user.id, importId: id, salt }, 0, Buffer.from('[2024-03-01 09:00] Called mom.'));
    await insertJob(t.app.ctx.db, { id, user_id: user.id, status: 'running', file_bytes: 30, file_parts: 1, claimed_at: now, created_at: now, updated_at: now });
    expect(readdirSync(join(t.dataDir, 'photos', user.id, 'imports', id))).toEqual(['00000.part']);
    const res = await t.app.inject({ method: 'DELETE', url: '/api/auth/user', headers: user.headers, payload: { confirmationText: 'DELETE' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(readdirSync(join(t.dataDir, 'photos', user.id, 'imports', id))).toEqual([]);
    expect(await t.app.ctx.db.selectFrom('import_jobs').select('id').where('id', '=', id).execute()).toEqual([]);
  });

  it('takes over an import whose instance went silent within 30 seconds', async () => {
    const user = await journalUser(t);
    const now = t.clock.now();
    const id = newId();
    // Silent for 31 s: its instance was killed (a running one renews the claim every 10 s).
    await insertJob(t.app.ctx.db, { id, user_id: user.id, status: 'running', file_bytes: 10, file_parts: 0, attempts: 1, claimed_at: new Date(now.getTime() - 31_000).toISOString(), created_at: now.toISOString(), updated_at: now.toISOString() });
    const taken = await claimNextJob(t.app.ctx.db, now.toISOString(), new Date(now.getTime() - STALE_CLAIM_MS).toISOString(), []);
    expect(taken).toMatchObject({ takenOver: true, job: { id } });
    expect(STALE_CLAIM_MS).toBeLessThanOrEqual(30_000);
    await t.app.ctx.db.updateTable('import_jobs').set({ status: 'failed' }).where('id', '=', id).execute();
  });

  it('keeps a running import’s claim fresh while it works, so no other instance takes it over', async () => {
    const user = await journalUser(t);
    const started = t.clock.now();
    const id = newId();
    await insertJob(t.app.ctx.db, { id, user_id: user.id, status: 'running', file_bytes: 10, file_parts: 0, attempts: 1, claimed_at: started.toISOString(), created_at: started.toISOString(), updated_at: started.toISOString() });
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const stop = keepClaim(t.app.ctx.db, { id, attempts: 1 }, () => t.clock.now().toISOString(), HEARTBEAT_MS);
    try {
      // A chunk that takes a minute: the heartbeat renews the claim as time goes by.
      for (let beat = 0; beat < 6; beat++) {
        t.clock.advance(HEARTBEAT_MS);
        await vi.advanceTimersByTimeAsync(HEARTBEAT_MS);
        await vi.waitFor(async () => expect((await jobOf(t.app.ctx, id)).claimed_at).toBe(t.clock.now().toISOString()));
      }
      const now = t.clock.now();
      expect(now.getTime() - started.getTime()).toBeGreaterThan(STALE_CLAIM_MS);
      expect(await claimNextJob(t.app.ctx.db, now.toISOString(), new Date(now.getTime() - STALE_CLAIM_MS).toISOString(), [])).toBeUndefined();
      // Stopped (the instance died): the claim goes stale and is taken over.
      stop();
      t.clock.advance(STALE_CLAIM_MS + 1);
      await vi.advanceTimersByTimeAsync(STALE_CLAIM_MS + 1);
      const later = t.clock.now();
      expect(await claimNextJob(t.app.ctx.db, later.toISOString(), new Date(later.getTime() - STALE_CLAIM_MS).toISOString(), [])).toMatchObject({ takenOver: true, job: { id } });
    } finally {
      stop();
      vi.useRealTimers();
      await t.app.ctx.db.updateTable('import_jobs').set({ status: 'failed' }).where('id', '=', id).execute();
    }
  });

  it('fails an import that keeps stopping with the reason it last stopped for', async () => {
    const user = await journalUser(t);
    const long = new Date(t.clock.now().getTime() - 2 * STALE_CLAIM_MS).toISOString();
    const id = newId();
    await insertJob(t.app.ctx.db, { id, user_id: user.id, status: 'running', file_bytes: 10, file_parts: 0, attempts: 6, claimed_at: long, created_at: long, updated_at: long });
    await t.app.ctx.db.updateTable('import_jobs').set({ error: 'Worker terminated due to reaching memory limit' }).where('id', '=', id).execute();
    await runImports(t.app.ctx);
    await importsSettled(t.app.ctx);
    expect(await importStatus(t, user.headers, id)).toMatchObject({
      status: 'failed',
      error: `${messages.importer.stalled} ${messages.importer.lastStop('Worker terminated due to reaching memory limit')}`,
    });
  });

  it('lets only the claim that holds a job write its progress', async () => {
    const user = await journalUser(t);
    const now = t.clock.now();
    const id = newId();
    await insertJob(t.app.ctx.db, { id, user_id: user.id, status: 'running', file_bytes: 10, file_parts: 0, attempts: 1, claimed_at: new Date(now.getTime() - STALE_CLAIM_MS - 1).toISOString(), created_at: now.toISOString(), updated_at: now.toISOString() });
    const stale = { id, attempts: 1 };
    const taken = await claimNextJob(t.app.ctx.db, now.toISOString(), new Date(now.getTime() - STALE_CLAIM_MS).toISOString(), []);
    expect(taken).toMatchObject({ takenOver: true, job: { id, attempts: 2 } });
    expect(await saveProgress(t.app.ctx.db, stale, { position: 100 }, now.toISOString())).toBe(false);
    expect(await saveProgress(t.app.ctx.db, taken!.job, { position: 100 }, now.toISOString())).toBe(true);
    await t.app.ctx.db.updateTable('import_jobs').set({ status: 'failed' }).where('id', '=', id).execute();
  });
});

describe('an import through a restart', () => {
  const storage = mkdtempSync(join(tmpdir(), 'jotline-import-store-'));
  afterAll(() => rmSync(storage, { recursive: true, force: true }));

  it('stops after its chunk when the instance shuts down, and the next start goes on from there', async () => {
    const first = await buildSmsTestApp({ env: { STORAGE_URL: storage } });
    first.clock.set(new Date('2026-05-10T12:00:00Z'));
    let second: SmsTestApp | undefined;
    try {
      const user = await journalUser(first);
      const res = await postImport(first, user.headers, bigJournal(3000, 2), 'journal.txt');
      const id = res.json().import_id as string;
      while ((await jobOf(first.ctx, id)).position === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      await first.app.close();
      const stopped = await jobOf(first.ctx, id).catch(() => null);
      expect(stopped).toBeNull(); // the database closed with the instance

      second = await buildSmsTestApp({ sameDatabaseAs: first, env: { STORAGE_URL: storage } });
      second.clock.set(new Date('2026-05-10T12:00:01Z'));
      const resumed = await jobOf(second.ctx, id);
      expect(resumed.status).toBe('queued');
      expect(resumed.position).toBeGreaterThan(0);
      expect(resumed.position).toBeLessThan(3000);
      await runImports(second.ctx);
      await importsSettled(second.ctx);
      expect(await jobOf(second.ctx, id)).toMatchObject({ status: 'done', position: 3000, imported: 3000, skipped: 0 });
      const rows = await second.ctx.db.selectFrom('journal_entries').select('entry_date').where('user_id', '=', user.id).execute();
      expect(new Set(rows.map((r) => r.entry_date)).size).toBe(3000);
      expect(rows).toHaveLength(3000);
    } finally {
      await second?.close();
      await first.close().catch(() => undefined);
    }
  });
});
