import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { buildApp } from '../app';
import { manualClock } from '../clock';
import { loadConfig } from '../config';

export interface TestApp {
  app: FastifyInstance;
  clock: ReturnType<typeof manualClock>;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * A whole app on a temporary SQLite database (or on PostgreSQL when TEST_DATABASE_URL is set),
 * with the SMS and mail simulators and a clock the test controls. Requests go through app.inject.
 */
export async function buildTestApp(env: Record<string, string> = {}, options: { onRoute?: (route: RouteOptions) => void; logDestination?: { write(line: string): void } } = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'jotline-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    DATABASE_URL: process.env.TEST_DATABASE_URL ?? `sqlite:${join(dataDir, 'test.db')}`,
    MASTER_KEY: randomBytes(32).toString('base64'),
    PUBLIC_URL: 'http://jotline.test',
    LOG_LEVEL: 'silent',
    JOBS: 'off',
    // Test files share one PostgreSQL database and hour: only the ceiling's own test reaches it.
    SMS_VERIFICATION_HOURLY_MAX: '1000000',
    ...env,
  });
  const clock = manualClock(process.env.TEST_NOW ? new Date(process.env.TEST_NOW) : new Date());
  const app = await buildApp(config, { clock, serveWeb: false, onRoute: options.onRoute, logDestination: options.logDestination });
  await app.ready();
  return {
    app,
    clock,
    dataDir,
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
