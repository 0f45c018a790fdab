import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEntry, journalUser, listEntries, type JournalTestUser } from '../test/journal';
import { buildTestApp, type TestApp } from '../test/app';
import { backupSqlite, BackupError, postgresBackupRecipe } from './backup';

describe('backing up a SQLite database', () => {
  let t: TestApp;
  let user: JournalTestUser;
  let dir: string;
  let databaseFile: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'jotline-backup-'));
    databaseFile = join(dir, 'live.db');
    t = await buildTestApp({ DATABASE_URL: `sqlite:${databaseFile}` });
    t.clock.set(new Date('2026-02-10T09:00:00Z'));
    user = await journalUser(t);
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('copies the live database, recent writes included, into a file another app can open and read', async () => {
    await createEntry(t, user, { content: 'written just before the backup' });
    const target = join(dir, 'copy.db');
    const result = await backupSqlite(databaseFile, target);
    expect(result.file).toBe(target);
    expect(result.bytes).toBeGreaterThan(0);
    // It holds e-mail addresses and phone numbers: for the owner's eyes only.
    expect(statSync(target).mode & 0o777).toBe(0o600);
    // The app keeps writing meanwhile; the copy is what it was.
    await createEntry(t, user, { content: 'written after the backup' });

    const restored = await buildTestApp({ DATABASE_URL: `sqlite:${target}`, MASTER_KEY: t.app.ctx.config.masterKey!.toString('base64') });
    restored.clock.set(t.clock.now());
    try {
      const { entries } = await listEntries(restored, user);
      expect(entries.map((e) => e.content)).toEqual(['written just before the backup']);
    } finally {
      await restored.close();
    }
    expect(readdirSync(dir).filter((name) => name.includes('partial'))).toEqual([]);
  });

  it('never overwrites an existing file, and says why', async () => {
    const target = join(dir, 'precious.db');
    writeFileSync(target, 'an older backup');
    await expect(backupSqlite(databaseFile, target)).rejects.toThrow(BackupError);
    await expect(backupSqlite(databaseFile, target)).rejects.toThrow(/already exists/);
    expect(readFileSync(target, 'utf8')).toBe('an older backup');
  });

  it('refuses a folder that does not exist, or a database that does not', async () => {
    await expect(backupSqlite(databaseFile, join(dir, 'missing', 'copy.db'))).rejects.toThrow(/does not exist/);
    await expect(backupSqlite(join(dir, 'nothing.db'), join(dir, 'copy2.db'))).rejects.toThrow(/No database/);
    expect(existsSync(join(dir, 'nothing.db'))).toBe(false);
  });
});

describe('jotline backup', () => {
  const run = (args: string[], env: Record<string, string>) =>
    spawnSync(process.execPath, [resolve('bin/jotline.mjs'), 'backup', ...args], {
      env: { PATH: process.env.PATH, NODE_ENV: 'development', MASTER_KEY: randomBytes(32).toString('base64'), ...env },
      encoding: 'utf8',
      timeout: 60_000,
    });

  it('backs up the configured SQLite database from the command line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jotline-backup-cli-'));
    try {
      const t = await buildTestApp({ DATABASE_URL: `sqlite:${join(dir, 'live.db')}` });
      await t.app.close();
      const before = readdirSync(dir);
      const result = run([join(dir, 'nightly.db')], { DATA_DIR: dir, DATABASE_URL: `sqlite:${join(dir, 'live.db')}` });
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout).toContain(`to ${join(dir, 'nightly.db')}`);
      // The backup and nothing else: no -wal or -shm left beside the stopped service's database.
      expect(readdirSync(dir).sort()).toEqual([...before, 'nightly.db'].sort());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('on PostgreSQL prints the pg_dump recipe, never the password, and exits 1 (nothing was copied)', () => {
    const result = run(['jotline.dump'], { DATABASE_URL: 'postgres://jotline:s3cret-pass@db.internal:5432/jotline' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('pg_dump --format=custom --no-owner --file=jotline.dump "$DATABASE_URL"');
    expect(result.stderr).toContain('pg_restore');
    expect(result.stderr + result.stdout).not.toContain('s3cret-pass');
    expect(postgresBackupRecipe("my backup's.dump")).toContain(`--file='my backup'\\''s.dump'`);
  }, 60_000);
});
