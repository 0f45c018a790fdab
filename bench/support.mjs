// What the HTTP benchmarks share: servers in child processes of their own, the app built from its
// sources, and medians.
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { register } from 'tsx/esm/api';

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

/** Listens on a free local port; resolves with it. */
export function listening(server) {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
}

/** The whole app, built from the TypeScript sources with `env` as its whole environment. */
export async function loadApp(env) {
  register();
  const { loadConfig } = await import('../src/server/config.ts');
  const { buildApp } = await import('../src/server/app.ts');
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
  process.once('SIGINT', () => process.exit(0));
  process.send({ port: app.server.address().port });
}

/**
 * Runs `script` again as a child process in the role `name` (it answers with `{ port }` once
 * listening); resolves with its URL, pid and a stop. BENCH_CPU_PROF=dir writes a CPU profile of the
 * app's process there.
 */
export function child(script, name, env = {}) {
  const execArgv = process.env.BENCH_CPU_PROF && name === 'app' ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const proc = fork(script, [name, JSON.stringify(env)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv });
  return new Promise((resolve, reject) => {
    proc.once('message', ({ port }) => resolve({ url: `http://127.0.0.1:${port}`, pid: proc.pid, stop: () => proc.kill('SIGINT') }));
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

/** The middle value (the upper middle of an even count). */
export function median(values) {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

/** Each figure of a load run's rounds (p50, p99, rps, cpuUs), its median; CPU null when /proc could not be read. */
export function medianOf(results) {
  const cpu = results.map((r) => r.cpuUs);
  return {
    p50: median(results.map((r) => r.p50)),
    p99: median(results.map((r) => r.p99)),
    rps: median(results.map((r) => r.rps)),
    cpuUs: cpu.includes(null) ? null : median(cpu),
  };
}
