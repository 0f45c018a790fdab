import { closeSync, existsSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { makeOwnerOnly } from '../private-files';

/** The README's PostgreSQL recipe; `$DATABASE_URL` stays a variable so no password is ever printed. */
export function postgresBackupRecipe(file: string): string {
  return [
    'jotline backup copies a SQLite database. On PostgreSQL, use pg_dump (it reads a consistent snapshot while the service runs):',
    '',
    `  pg_dump --format=custom --no-owner --file=${quoteForShell(file)} "$DATABASE_URL"`,
    '',
    'and to restore it into an empty database (then start the app, which runs any newer migrations):',
    '',
    `  pg_restore --no-owner --dbname="$DATABASE_URL" ${quoteForShell(file)}`,
    '',
    'Keep MASTER_KEY with (but apart from) the backup: without it the journal text cannot be read.',
  ].join('\n');
}

export class BackupError extends Error {}

interface SqliteBackupResult {
  file: string;
  bytes: number;
}

/**
 * Copies a SQLite database with SQLite's online backup, page by page, while the app keeps
 * writing. The copy is written beside the target and renamed into place only once it is whole
 * and passes an integrity check, so a failed run never leaves a half-written backup under FILE.
 */
export async function backupSqlite(databaseFile: string, target: string): Promise<SqliteBackupResult> {
  const file = resolve(target);
  if (!existsSync(databaseFile)) throw new BackupError(`No database at ${databaseFile}: nothing to back up.`);
  if (existsSync(file)) throw new BackupError(`${file} already exists; choose a new name or move the old backup away.`);
  if (!existsSync(dirname(file))) throw new BackupError(`The folder ${dirname(file)} does not exist.`);
  const partial = join(dirname(file), `.${basename(file)}.partial`);
  rmSync(partial, { force: true });
  // Owner-only from its first byte: it holds e-mail addresses, phone numbers and encrypted journals.
  closeSync(openSync(partial, 'wx', 0o600));
  makeOwnerOnly(partial);
  // Read and write, though the backup only reads: a read-only connection to a database in WAL mode
  // that no one has open (the service stopped) creates the -wal and -shm files and cannot remove
  // them. This one, closing last, checkpoints and removes them as the service does when it stops;
  // with the service running, they stay the service's.
  const source = new SQLite(databaseFile, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    await source.backup(partial);
  } catch (err) {
    rmSync(partial, { force: true });
    throw new BackupError(`The backup failed: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    source.close();
  }
  const copy = new SQLite(partial, { fileMustExist: true });
  try {
    // A backup in rollback-journal mode is a single self-contained file.
    copy.pragma('journal_mode = DELETE');
    const check = copy.pragma('integrity_check', { simple: true });
    if (check !== 'ok') throw new BackupError(`The copy failed its integrity check: ${String(check)}`);
  } catch (err) {
    copy.close();
    rmSync(partial, { force: true });
    throw err;
  }
  copy.close();
  renameSync(partial, file);
  return { file, bytes: statSync(file).size };
}

function quoteForShell(value: string): string {
  return /^[\w./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
