import { esbuildPlugin } from '@web/dev-server-esbuild';
import { playwrightLauncher } from '@web/test-runner-playwright';

// Browser tests run in Debian's chromium against the BUILT element bundles (dist/elements, what
// ships): wtr cannot load Vite's `?inline` CSS. Run `npm run build` first.
const chromiumFlags = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export default {
  files: ['src/**/*.browser.test.ts', 'elements/**/*.browser.test.ts', 'demo/**/*.browser.test.ts'],
  nodeResolve: true,
  concurrency: 1,
  plugins: [esbuildPlugin({ ts: true, target: 'es2022' })],
  browsers: [
    playwrightLauncher({
      product: 'chromium',
      launchOptions: {
        executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
        headless: true,
        args: chromiumFlags,
      },
    }),
  ],
  testFramework: { config: { timeout: 10000 } },
};
