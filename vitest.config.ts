import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Two projects: client logic (no DOM; browser behaviour is tested in Chromium by
 * @web/test-runner and Playwright) and the server suites. The server suites read TEST_DB
 * (pglite, the default, or postgres with DATABASE_URL); scripts/test.sh runs them on both.
 */
/** Server test files that replace modules (vi.mock): they need a module graph of their own. */
const needIsolation = ['server/mail/donor-email.test.ts'];

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
          exclude: [...configDefaults.exclude, ...needIsolation],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // A test file reuses the modules the files before it in the same worker loaded: the
          // server's module graph takes seconds to import, and loading it afresh for each of a
          // hundred files was half of the suite's time (PostgreSQL: 8 to 4 minutes). So a test
          // must not depend on module state another file may have touched (count from a
          // "before", never from zero); files that mock modules run isolated below.
          isolate: false,
        },
      },
      {
        test: {
          name: 'server-isolated',
          include: needIsolation,
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
