import { defineConfig } from 'vitest/config';

// Two workers on CI's two cores on SQLite: most server files wait on sockets, child processes and
// the database more than they compute, and each file's apps have databases of their own. On
// PostgreSQL (TEST_DATABASE_URL) most files share one database, and one file's background jobs
// (imports, transcriptions) would claim another's rows: files run one at a time there. Server files
// share their worker's module graph (isolate: false): each loaded the whole app anew, which took
// longer than their tests; they keep no state in modules that another file's tests could see (apps,
// clocks and databases are each test's own).
export default defineConfig({
  test: {
    maxWorkers: process.env.TEST_DATABASE_URL ? 1 : 2,
    projects: [
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['src/server/**/*.test.ts', 'src/shared/**/*.test.ts'],
          isolate: false,
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        esbuild: { jsx: 'automatic' },
        test: {
          name: 'web',
          environment: 'happy-dom',
          include: ['src/web/**/*.test.{ts,tsx}'],
          setupFiles: ['src/web/test/setup.ts'],
          testTimeout: 20_000,
        },
      },
    ],
  },
});
