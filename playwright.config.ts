import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 8799);
const baseURL = `http://localhost:${port}`;
/**
 * tests/e2e/embed.spec.ts: the foreign page, a different origin from the API's. 1000 ports up, so
 * runs on neighbouring E2E_PORTs (one per engineer) never take each other's ports.
 */
const embedPort = port + 1000;
const embedURL = `http://127.0.0.1:${embedPort}`;
// One data folder per port, so two runs on different ports never wipe each other's database.
const dataDir = `.tmp/e2e-data-${port}`;

/**
 * End-to-end journeys through the built portal against the real server, on a fresh PGlite
 * database seeded with the demo data. Debian's chromium: playwright cannot download browsers here.
 */
export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  // One retry, so a journey that loses a race with a busy 2-core machine once does not sink the
  // whole run; a real break fails both tries. Retried passes are reported as flaky (the list
  // reporter and the suite's last line both count them) so they are fixed, not forgotten.
  retries: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL,
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
    // axe-core is injected as a script tag; the portal's CSP rightly refuses inline scripts.
    bypassCSP: true,
    trace: 'off',
  },
  webServer: [
    {
      command: `rm -rf ${dataDir} && node --import tsx server/main.ts`,
      url: `${baseURL}/portal/login`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(port),
        DATA_DIR: dataDir,
        PUBLIC_URL: baseURL,
        SEED_DEMO: 'true',
        LOG_REQUESTS: 'false',
        SMTP_URL: '',
        DATABASE_URL: '',
        // tests/e2e/integrations.spec.ts: webhooks deliver to a receiver on this machine.
        WEBHOOK_ALLOW_PRIVATE: 'true',
        // tests/e2e/sending-domain.spec.ts: Verify asks the dns2 server that spec starts.
        DNS_RESOLVER: `127.0.0.1:${port + 3}`,
        // tests/e2e/passkeys-sso.spec.ts: the OpenID provider runs on this machine, over http.
        SSO_ALLOW_PRIVATE: 'true',
      },
    },
    // The embed kit's foreign page (demo/embed) on another origin: 127.0.0.1, E2E_PORT + 1000.
    {
      command: 'node scripts/embed-server.mjs',
      url: `${embedURL}/`,
      timeout: 30_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { EMBED_PORT: String(embedPort), API_BASE: baseURL },
    },
  ],
});
