import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Two projects: client logic (no DOM; browser behaviour is tested in Chromium by
 * @web/test-runner and Playwright) and the server suites. The server suites read TEST_DB
 * (pglite, the default, or postgres with DATABASE_URL); scripts/test.sh runs them on both.
 */
export default defineConfig({
  test: {
    // Two cores; each server test file runs its own in-process WASM database.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'client',
          include: ['src/**/*.test.ts', 'elements/**/*.test.ts', 'demo/**/*.test.ts', 'scripts/**/*.test.ts'],
          // *.browser.test.ts run in Chromium under @web/test-runner, not here.
          exclude: [...configDefaults.exclude, '**/*.browser.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          include: ['server/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
