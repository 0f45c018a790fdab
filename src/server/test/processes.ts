import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

// For tests that run the real server as a process of its own (crash, shutdown, several instances).

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A TCP port free on the loopback address right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Polls `check` until it holds; fails naming `what` after `timeoutMs`. */
export async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs: number, everyMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** `jotline serve` on its own SQLite database in `dataDir`, logging JSON lines at info. */
export function serveOnSqlite(dataDir: string, port: number, options: { env?: Record<string, string>; stdio: StdioOptions }): ChildProcess {
  return spawn(process.execPath, [resolve('bin/jotline.mjs'), 'serve'], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: `sqlite:${join(dataDir, 'serve.db')}`,
      MASTER_KEY: randomBytes(32).toString('base64'),
      LOG_LEVEL: 'info',
      LOG_PRETTY: 'false',
      ...options.env,
    },
    stdio: options.stdio,
  });
}
