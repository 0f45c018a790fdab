import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from './database';

// A SQLite file of its own in every pass: the checkpoint thread exists only for SQLite files.
describe('checkpoints of a SQLite file, from a thread of their own', () => {
  let dir: string;
  let file: string;
  let handle: DatabaseHandle;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'jotline-wal-'));
    file = join(dir, 'journal.db');
    handle = openDatabase(`sqlite:${file}`);
    await sql`create table notes (id integer primary key, body text not null)`.execute(handle.db);
  });
  afterEach(async () => {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Commits `count` notes, each in its own transaction, as webhooks do. */
  async function writeNotes(count: number): Promise<void> {
    for (let i = 0; i < count; i++) await sql`insert into notes (body) values (${`note ${i} `.repeat(40)})`.execute(handle.db);
  }

  /** Every how many pages of log the app's own connection checkpoints. */
  async function checkpointEvery(): Promise<number> {
    return (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(handle.db)).rows[0]!.wal_autocheckpoint;
  }

  /** The notes found in the database file alone, without its write-ahead log: what a checkpoint has copied there. */
  function notesInTheFileAlone(): number {
    const copy = join(dir, `copy-${Math.random().toString(36).slice(2)}.db`);
    copyFileSync(file, copy);
    const db = new SQLite(copy, { readonly: true });
    try {
      const hasTable = db.prepare(`select count(*) as n from sqlite_master where name = 'notes'`).get() as { n: number };
      return hasTable.n ? (db.prepare('select count(*) as n from notes').get() as { n: number }).n : 0;
    } finally {
      db.close();
    }
  }

  it('leaves checkpoints to the thread: the app\'s connection keeps only a far-off one of its own', async () => {
    // SQLite's own default is every 1,000 pages, in the connection that commits: the event loop.
    expect(await checkpointEvery()).toBe(10_000);
  });

  it('copies what was committed into the database file, and reports it', async () => {
    await writeNotes(200);
    const result = await handle.checkpoints!.now();
    expect(result.log).toBeGreaterThan(0);
    expect(result.checkpointed).toBe(result.log);
    expect(notesInTheFileAlone()).toBe(200);
  });

  it('checkpoints on its own, a moment after the writes', async () => {
    await writeNotes(50);
    const deadline = Date.now() + 10_000;
    while (notesInTheFileAlone() < 50 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(notesInTheFileAlone()).toBe(50);
  });

  it('when the thread stops, the app\'s connection checkpoints as SQLite does by default', async () => {
    await handle.checkpoints!.stop();
    expect(await checkpointEvery()).toBe(1_000);
    await expect(handle.checkpoints!.now()).rejects.toThrow('stopped');
    await writeNotes(10);
    expect((await sql<{ n: number }>`select count(*) as n from notes`.execute(handle.db)).rows[0]!.n).toBe(10);
  });

  it('on close, the app\'s connection closes last: everything is in the file and the log is gone', async () => {
    await writeNotes(120);
    await handle.close();
    expect(existsSync(`${file}-wal`)).toBe(false);
    expect(notesInTheFileAlone()).toBe(120);
    handle = openDatabase(`sqlite:${file}`);
  });

  it('keeps a process with nothing else to do alive until its database is closed', () => {
    // The thread is otherwise left out of what keeps a process running: a command or a script that
    // closes its database as its last step must still finish the close, and exit 0 rather than 13
    // (a top-level await left unsettled) with the log left behind. Loaded as bin/jotline.mjs loads
    // the app, through the TypeScript loader's register().
    const fileUrl = (path: string) => JSON.stringify(pathToFileURL(path).href);
    // The loader's ES module build, beside the CommonJS one that require resolves.
    const loader = createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs');
    const script = [
      `const { register } = await import(${fileUrl(loader)});`,
      'register();',
      `const { openDatabase } = await import(${fileUrl(join(import.meta.dirname, 'database.ts'))});`,
      `const handle = openDatabase(${JSON.stringify(`sqlite:${join(dir, 'script.db')}`)});`,
      `await handle.db.schema.createTable('t').addColumn('x', 'integer').execute();`,
      'await handle.close();',
      `console.log('closed');`,
    ].join('\n');
    const scriptFile = join(dir, 'close-and-exit.mjs');
    writeFileSync(scriptFile, script);
    const run = spawnSync(process.execPath, [scriptFile], { encoding: 'utf8', timeout: 60_000 });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe('closed');
    expect(existsSync(join(dir, 'script.db-wal'))).toBe(false);
  });

  it('is not started for a database in memory', () => {
    const memory = openDatabase('sqlite::memory:');
    expect(memory.checkpoints).toBeUndefined();
    return memory.close();
  });
});
