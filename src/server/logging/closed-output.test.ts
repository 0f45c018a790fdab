import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, serveOnSqlite, until } from '../test/processes';

// Run by a supervisor that has since gone away, the server's log output is a pipe nobody reads.
describe('jotline serve whose log reader has gone', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'jotline-closed-output-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('still stops on SIGTERM, dropping the lines nobody can read', async () => {
    const port = await freePort();
    const server = serveOnSqlite(dataDir, port, { stdio: ['ignore', 'pipe', 'ignore'] });
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
