import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, until } from '../test/processes';

// Run by a supervisor that has since gone away, the server's log output is a pipe nobody reads.
describe('jotline serve whose log reader has gone', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'jotline-closed-output-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('still stops on SIGTERM, dropping the lines nobody can read', async () => {
    const port = await freePort();
    const server = spawn(process.execPath, [resolve('bin/jotline.mjs'), 'serve'], {
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
      },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const exited = new Promise<number | null>((done) => server.once('exit', (code) => done(code)));
    try {
      let output = '';
      server.stdout!.on('data', (chunk) => (output += chunk));
      await until('the server to listen', () => output.includes('Jotline is up'), 60_000);
      server.stdout!.destroy(); // the reader goes away
      server.kill('SIGTERM');
      // It logs as it drains and stops; before, its writer retried the failed write at exit forever.
      const code = await Promise.race([exited, new Promise<string>((done) => setTimeout(() => done('still running'), 15_000))]);
      expect(code).toBe(0);
    } finally {
      if (server.exitCode === null) server.kill('SIGKILL');
    }
  }, 90_000);
});
