import { defineConfig } from '@playwright/test';
import base from './playwright.config.ts';

/** `npm run screenshots`: the portal's routes as pictures (tests/screenshots), on the e2e server setup. */
export default defineConfig({ ...base, testDir: 'tests/screenshots', retries: 0 });
