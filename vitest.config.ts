import { defineConfig } from 'vitest/config';
import tsconfigPaths from 'vite-tsconfig-paths';

// Two projects run side by side: the unit tests (pure code, each file in its own temp files)
// spread over the cores; the integration suites share one PostgreSQL database and one Redis,
// so they run one file at a time.
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
    // Two unit-test files and one integration file at a time (2 cores; the integration files mostly wait on I/O).
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
          poolOptions: { forks: { singleFork: true } },
        },
      },
    ],
  },
});
