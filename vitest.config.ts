import { defineConfig } from 'vitest/config';
import tsconfigPaths from 'vite-tsconfig-paths';

// Two projects run side by side: the unit tests (pure code, each file in its own temp files)
// and the integration suites, which share one PostgreSQL server and one Redis: each suite gets
// a schema of its own (tests/support/databases.ts) and each file Redis keys of its own
// (REDIS_PREFIX, tests/setup/vitest.setup.ts), so they run side by side as well (one at a time,
// they were most of the run while the other core sat idle).
const shared = {
  environment: 'node' as const,
  setupFiles: ['tests/setup/vitest.setup.ts'],
  testTimeout: 60_000,
  hookTimeout: 120_000,
  pool: 'forks' as const,
};
// Unit-test files under app/ that drive the shared databases anyway.
const usesSharedDatabases = ['app/services/imports/data-cli.server.test.ts'];

export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    // Three files at a time on 2 cores (the integration files mostly wait on I/O).
    maxWorkers: 3,
    minWorkers: 1,
    projects: [
      {
        plugins: [tsconfigPaths()],
        test: {
          ...shared,
          name: 'unit',
          include: ['app/**/*.test.{ts,tsx}', 'tests/unit/**/*.test.{ts,tsx}'],
          exclude: usesSharedDatabases,
        },
      },
      {
        plugins: [tsconfigPaths()],
        test: {
          ...shared,
          name: 'integration',
          include: ['tests/integration/**/*.test.{ts,tsx}', ...usesSharedDatabases],
        },
      },
    ],
  },
});
