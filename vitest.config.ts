import { defineConfig } from 'vitest/config';

// Two workers on CI's two cores: most server files wait on sockets, child processes and the
// database more than they compute. Server files share their workers' module graph (isolate: false):
// each loaded the whole app anew, which took longer than their tests; they keep no state in
// modules that another file's tests could see (apps, clocks and databases are each test's own).
export default defineConfig({
  test: {
    maxWorkers: 2,
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
