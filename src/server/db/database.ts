import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, Kysely, sql, Migrator, PostgresDialect, SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type MigrationProvider, type SqliteDatabase } from 'kysely';
import pg from 'pg';
import { makeOwnerOnly, makePrivateDir } from '../private-files';
import { migrations } from './migrations/index';
import type { Database } from './tables';

export type Db = Kysely<Database>;
export type DbKind = 'sqlite' | 'postgres';

/** The SQLite connection's page cache, in KiB (64 MiB). */
const PAGE_CACHE_KIB = 64 * 1024;

export interface DatabaseHandle {
  db: Db;
  kind: DbKind;
  /** The SQLite file; none in memory or on PostgreSQL. */
  file?: string;
  close(): Promise<void>;
}

/**
 * SQLite transactions that take the write lock when they begin. A deferred transaction (SQLite's
 * default) that reads and then writes fails with "database is locked" when another process wrote
 * in between, which busy_timeout cannot wait out; an immediate one waits its turn. One process
 * shares one connection anyway, so this matters when several processes share the file.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  constructor(
    settings: ConstructorParameters<typeof SqliteDriver>[0],
    private readonly sqlite: SQLite.Database,
  ) {
    super(settings);
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  /**
   * SQLite rolls a transaction back itself on some errors (a full disk: SQLITE_FULL, an I/O error);
   * rolling back again would fail with "cannot rollback - no transaction is active" and that error
   * would be thrown instead of the one that says what happened.
   */
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.sqlite.inTransaction) await super.rollbackTransaction(connection);
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  constructor(
    private readonly settings: ConstructorParameters<typeof SqliteDialect>[0],
    private readonly sqlite: SQLite.Database,
  ) {
    super(settings);
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.settings, this.sqlite);
  }
}

/**
 * better-sqlite3 with its prepared statements kept by SQL text (the least recently used go first), so
 * each is parsed once. Kysely runs one statement at a time on the connection, so a kept statement is
 * never in use twice at once.
 */
function withStatementCache(sqlite: SQLite.Database, size = 256): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql) {
      let statement = statements.get(sql);
      if (statement) statements.delete(sql);
      else {
        statement = sqlite.prepare(sql);
        if (statements.size >= size) statements.delete(statements.keys().next().value!);
      }
      statements.set(sql, statement);
      return statement;
    },
  };
}

/** SQL texts PostgreSQL keeps parsed and planned on each connection, by their name. */
const preparedOnPostgres = new Map<string, string>();

/**
 * Has PostgreSQL parse and plan `sql` once on each connection and run it by `name` after: for a
 * statement every request runs (the journal's gate), whose planning was three quarters of its
 * database CPU. Only statements named here are kept, since a connection keeps each until it closes.
 * SQLite keeps its statements prepared anyway (withStatementCache).
 */
export function prepareOnPostgres(sql: string, name: string): void {
  preparedOnPostgres.set(sql, name);
}

/** Runs the statements prepareOnPostgres names by their name on this connection. */
function runPreparedByName(client: pg.PoolClient): void {
  // The client's own query, looked up at each call (what wraps pg's Client sees these too).
  const query = (...args: unknown[]) => (Object.getPrototypeOf(client) as { query(...args: unknown[]): unknown }).query.apply(client, args);
  (client as { query: unknown }).query = (text: unknown, ...rest: unknown[]) => {
    const name = typeof text === 'string' ? preparedOnPostgres.get(text) : undefined;
    return name && Array.isArray(rest[0]) ? query({ name, text, values: rest[0] }, ...rest.slice(1)) : query(text, ...rest);
  };
}

/** The SQLite file a database URL names (`:memory:` for an in-memory one), or null for PostgreSQL. */
export function sqliteFileOf(url: string): string | null {
  return /^postgres(ql)?:\/\//.test(url) ? null : url.replace(/^(sqlite|file):/, '');
}

/** Opens SQLite (`sqlite:/path/file.db`, `file:…`, `sqlite::memory:`) or PostgreSQL (`postgres://…`). */
export function openDatabase(url: string): DatabaseHandle {
  const sqliteFile = sqliteFileOf(url);
  if (sqliteFile === null) {
    // A request waits at most 4 s for a connection (busy or being opened), so it finds PostgreSQL away in
    // time to answer 503 within 5 s, and a burst queued behind busy connections is not refused early.
    const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 4_000 });
    // A connection PostgreSQL drops (a restart, pg_terminate_backend) emits 'error', which would end the
    // process unheard, on the pool when idle and on the connection itself when checked out. The query
    // that was running fails on its own; the pool discards the connection and opens a new one.
    pool.on('error', () => {});
    pool.on('connect', (client) => {
      client.on('error', () => {});
      runPreparedByName(client);
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  const file = sqliteFile;
  if (file !== ':memory:') makePrivateDir(dirname(file));
  const sqlite = new SQLite(file);
  // SQLite makes its files 0644 less the umask; the journal is for the server only. The WAL and
  // shared-memory files take the database file's mode when SQLite creates them.
  if (file !== ':memory:') makeOwnerOnly(file);
  sqlite.pragma('journal_mode = WAL');
  // better-sqlite3 leaves WAL at NORMAL, where power loss can take the last commits: an acknowledged
  // text must survive it.
  sqlite.pragma('synchronous = FULL');
  if (file !== ':memory:') makeOwnerOnly(`${file}-wal`, `${file}-shm`);
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // A deleted or overwritten value is zeroed, not left in free pages (a text's body once journaled).
  sqlite.pragma('secure_delete = ON');
  // SQLite keeps 2 MB of pages by default, less than the indexes every text touches at our size.
  sqlite.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
  const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }, sqlite) });
  return {
    db,
    kind: 'sqlite',
    file: file === ':memory:' ? undefined : file,
    // The app's connection closes last: SQLite checkpoints what is left and removes the log.
    close: () => db.destroy(),
  };
}

/**
 * Gives SQLite's planner statistics (ANALYZE where they are missing or stale): without them it
 * guesses, and took an index on a column that matches most rows over the primary key. PostgreSQL's
 * autovacuum keeps its own.
 */
export async function optimizeQueryPlanner(handle: Pick<DatabaseHandle, 'db' | 'kind'>): Promise<void> {
  if (handle.kind === 'sqlite') await sql`pragma optimize=0x10002`.execute(handle.db);
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Brings the schema up to date; throws with the failing migration's name. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  // Migrations written side by side can land in any order; each still runs once.
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
