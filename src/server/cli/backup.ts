import { loadConfig } from '../config';
import { sqliteFileOf } from '../db/database';
import { backupSqlite, BackupError, postgresBackupRecipe } from '../backup/backup';

const BACKUP_USAGE = 'Usage: jotline backup FILE   (a consistent copy of the SQLite database, taken while the service runs)';

/** `jotline backup FILE`: SQLite's online backup; for PostgreSQL, the pg_dump recipe (exit 1: nothing was copied). */
export async function backupCommand(args: readonly string[]): Promise<void> {
  const [target, ...extra] = args;
  if (!target || extra.length || target.startsWith('-')) {
    console.error(BACKUP_USAGE);
    process.exitCode = 2;
    return;
  }
  const config = loadConfig();
  const databaseFile = sqliteFileOf(config.databaseUrl);
  if (!databaseFile) {
    console.error(postgresBackupRecipe(target));
    process.exitCode = 1;
    return;
  }
  try {
    const { file, bytes } = await backupSqlite(databaseFile, target);
    console.log(`Backed up ${databaseFile} to ${file} (${(bytes / 1024 / 1024).toFixed(1)} MB).`);
    console.log('Keep MASTER_KEY with (but apart from) the backup: without it the journal text cannot be read.');
  } catch (err) {
    if (!(err instanceof BackupError)) throw err;
    console.error(err.message);
    process.exitCode = 1;
  }
}
