// What the HTTP benchmarks share: servers in child processes of their own, the app built from its
// sources, databases of their own (SQLite in a temporary directory, PostgreSQL created and dropped),
// CPU time per process, and medians.
import { execFileSync, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { register } from 'tsx/esm/api';

/**
 * The source tree whose app is measured: this one, or BENCH_APP_ROOT (another checkout, e.g. an
 * earlier commit, measured with these same scripts in the same run).
 */
export const appRoot = process.env.BENCH_APP_ROOT ?? join(import.meta.dirname, '..');

/**
 * BENCH_BEFORE=dir: another checkout (the commit before a change) measured beside this one in the
 * same run, its rows labelled with its commit. Null when not asked for.
 */
export function beforeTree() {
  const root = process.env.BENCH_BEFORE;
  if (!root) return null;
  const commit = execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  return { root, label: `before (${commit})` };
}

let registered = false;
/** Imports a module of the measured app's tree, or of `root` (`src/server/…`, `bench/seed-journal.ts`). */
export function appModule(path, root = appRoot) {
  if (!registered) register();
  registered = true;
  return import(join(root, path));
}

/**
 * A fresh data directory and the environment of an app on a SQLite database in it, with only the
 * benchmark's own settings (`extra`): a developer's environment must not change what is measured.
 */
export function benchEnv(extra = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'jotline-bench-'));
  return {
    dataDir,
    env: {
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      DATABASE_URL: `sqlite:${join(dataDir, 'bench.db')}`,
      MASTER_KEY: randomBytes(32).toString('base64'),
      LOG_LEVEL: 'silent',
      JOBS: 'off',
      ...extra,
    },
  };
}

/** The databases to measure on: BENCH_DB=sqlite,postgres (both unless told). */
export const benchDatabases = (process.env.BENCH_DB ?? 'sqlite,postgres').split(',').map((s) => s.trim());

/** The PostgreSQL server the benchmarks create their databases on (BENCH_PG_URL names its maintenance database). */
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function adminQuery(statement) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * A PostgreSQL database of the benchmark's own, created now: `{ url, drop }`, or `{ skipped }`
 * saying why when the server cannot be reached (the SQLite figures still run).
 */
export async function postgresDatabase(label) {
  const name = `jotline_bench_${label}_${process.pid}`;
  try {
    await adminQuery(`drop database if exists ${name} with (force)`);
    await adminQuery(`create database ${name}`);
  } catch (err) {
    return { skipped: `PostgreSQL at ${new URL(PG_ADMIN_URL).host} not reachable (${err.message})` };
  }
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.href, drop: () => adminQuery(`drop database if exists ${name} with (force)`) };
}

/** Listens on a free local port; resolves with it. */
export function listening(server) {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
}

/** The whole app, built from the TypeScript sources (of `root`) with `env` as its whole environment. */
export async function loadApp(env, root = appRoot) {
  const { loadConfig } = await appModule('src/server/config.ts', root);
  const { buildApp } = await appModule('src/server/app.ts', root);
  return buildApp(loadConfig(env), { serveWeb: false });
}

/** The child process's part as the app: listens, tells its parent the port, exits when stopped (so a --cpu-prof profile is written). */
export async function serveApp(env) {
  const app = await loadApp(env);
  // BENCH_SQLITE_SYNCHRONOUS=NORMAL measures what the app's FULL costs (on its one connection).
  if (env.BENCH_SQLITE_SYNCHRONOUS) {
    const { sql } = await import('kysely');
    await sql.raw(`pragma synchronous = ${env.BENCH_SQLITE_SYNCHRONOUS}`).execute(app.ctx.db);
  }
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.once('SIGINT', () => {
    setTimeout(() => process.exit(0), 5000).unref();
    void app.close().finally(() => process.exit(0));
  });
  process.send({ port: app.server.address().port });
}

/**
 * Runs `script` again as a child process in the role `name` (it answers with `{ port }` once
 * listening), its app from `root`; resolves with its URL, pid and a stop that resolves once it has
 * exited. BENCH_CPU_PROF=dir writes a CPU profile of each app process there.
 */
export function child(script, name, env = {}, root = appRoot) {
  const execArgv = process.env.BENCH_CPU_PROF && name === 'app' ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const proc = fork(script, [name, JSON.stringify(env)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv, env: { ...process.env, BENCH_APP_ROOT: root } });
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  return new Promise((resolve, reject) => {
    proc.once('message', ({ port }) =>
      resolve({
        url: `http://127.0.0.1:${port}`,
        port,
        pid: proc.pid,
        stop: () => {
          proc.kill('SIGINT');
          return exited;
        },
      }),
    );
    proc.once('exit', (code) => reject(new Error(`${name} server exited (${code})`)));
  });
}

/**
 * CPU seconds a process has used so far, all its threads, user and system (Linux's /proc; null
 * elsewhere). Read before and after a load, it gives what each request cost the server whatever
 * the machine's other work: a steadier figure than requests per second on a shared machine.
 */
export function cpuSecondsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime (fields 14 and 15 of stat, counted from the state, field 3), in clock ticks of 1/100 s.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** cpuSecondsOf summed over several processes (null when any cannot be read). */
export function cpuSecondsOfAll(pids) {
  const each = pids.map(cpuSecondsOf);
  return each.includes(null) ? null : each.reduce((a, b) => a + b, 0);
}

/**
 * A CPU meter over processes that may come and go (PostgreSQL backends: a pool closes idle
 * connections): `stop()` gives the CPU seconds used since the meter started by those still there.
 */
export function cpuMeter(pids) {
  const before = new Map(pids.map((pid) => [pid, cpuSecondsOf(pid)]));
  return {
    stop() {
      let used = 0;
      for (const [pid, start] of before) {
        const end = cpuSecondsOf(pid);
        if (start !== null && end !== null) used += end - start;
      }
      return used;
    },
  };
}

/** The application name of the benchmark's own PostgreSQL connections, so its reads are not counted as the app's. */
export const BENCH_PG_APPLICATION = 'jotline-bench';

/** The benchmark's own connection to the app's database (a Kysely instance, closed with destroy()). */
export async function benchDb(url) {
  const { Kysely, PostgresDialect, SqliteDialect } = await import('kysely');
  if (/^postgres/.test(url)) {
    const { default: pg } = await import('pg');
    return new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 2, application_name: BENCH_PG_APPLICATION }) }) });
  }
  const { default: SQLite } = await import('better-sqlite3');
  const sqlite = new SQLite(url.replace(/^sqlite:/, ''));
  sqlite.pragma('busy_timeout = 5000');
  return new Kysely({ dialect: new SqliteDialect({ database: sqlite }) });
}

/**
 * The process ids of the PostgreSQL backends serving the app on a database (the benchmark's own
 * connections excepted): their CPU time is what the database spent on the app's statements.
 */
export async function postgresBackendPids(db) {
  const { sql } = await import('kysely');
  const { rows } = await sql`select pid from pg_stat_activity where datname = current_database() and coalesce(application_name, '') <> ${BENCH_PG_APPLICATION}`.execute(db);
  return rows.map((r) => r.pid);
}

/** The middle value (the upper middle of an even count). */
export function median(values) {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

/** The value at quantile q of sorted values. */
export function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** Each figure of a load run's rounds, its median; a figure null in any round stays null. */
export function medianOf(results) {
  const out = {};
  for (const key of Object.keys(results[0])) {
    const values = results.map((r) => r[key]);
    out[key] = values.includes(null) || values.includes(undefined) ? null : median(values);
  }
  return out;
}
