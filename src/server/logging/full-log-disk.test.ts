import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, serveOnSqlite, until } from '../test/processes';

const METRICS_TOKEN = 'full-log-disk-metrics-token';

// `jotline serve > log` where the log's disk is full: every write of standard output fails with
// ENOSPC (/dev/full fails every write so).
describe('jotline serve whose log disk is full', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'jotline-full-log-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('goes on answering, and counts the lines it dropped in /metrics', async () => {
    const port = await freePort();
    const full = openSync('/dev/full', 'w');
    const server = serveOnSqlite(dataDir, port, { env: { METRICS_TOKEN }, stdio: ['ignore', full, 'ignore'] });
    closeSync(full);
    try {
      const health = () => fetch(`http://127.0.0.1:${port}/healthz`).then((res) => res.status, () => 0);
      await until('the server to listen', async () => (await health()) === 200, 60_000);
      // Each request logs its lines; before, the first failed write ended the process.
      for (let i = 0; i < 40; i++) expect(await health()).toBe(200);
      expect(server.exitCode).toBeNull();
      const metrics = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(metrics.status).toBe(200);
      const dropped = Number(/^jotline_log_lines_dropped_total (\d+)$/m.exec(await metrics.text())?.[1]);
      expect(dropped).toBeGreaterThanOrEqual(40);
    } finally {
      if (server.exitCode === null) server.kill('SIGKILL');
    }
  }, 90_000);
});
