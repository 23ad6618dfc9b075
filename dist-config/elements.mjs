// Which elements the build makes, and how (dist-config/build.mjs, bench/bundle-size.mjs).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Every element: the staff ones are one self-contained ES module each (React, r2wc and signals
// included), so a page can embed a single <script type="module" src="/elements/twofold-x.js">.
export const elementNames = [
  'twofold-login',
  'twofold-reset-password',
  'twofold-registration',
  'twofold-contact',
  'twofold-sidebar',
  'twofold-org-picker',
  'twofold-dashboard',
  'twofold-donations',
  'twofold-organization-details',
  'twofold-toaster',
  'twofold-match-dialog',
  'twofold-faq',
  'twofold-donor-match-update',
  'twofold-match-request',
  'twofold-company-lookup',
  'twofold-esign',
  'twofold-billing',
  'twofold-integrations',
  'twofold-webhooks',
  'twofold-companies',
  'twofold-template-editor',
  'twofold-report-builder',
  'twofold-campaigns',
  'twofold-verification',
  'twofold-employers',
  'twofold-payouts',
  'twofold-scheduled-emails',
  'twofold-account',
  'twofold-oauth-consent',
];

/** The name of the chunk the public elements share (dist/elements/twofold-public-runtime.js). */
export const publicRuntimeName = 'twofold-public-runtime';

const elementsDir = fileURLToPath(new URL('../elements/', import.meta.url));

/**
 * The elements a partner's page embeds (README, 'Embedding'): those that publish themselves with
 * `definePublicElement` (they import elements/define-public-element.ts), read from elements/ so
 * the list cannot drift. They are built together against preact/compat, sharing one runtime chunk.
 */
export const publicElementNames = readdirSync(elementsDir)
  .filter((file) => /^twofold-[a-z0-9-]+\.ts$/.test(file))
  .filter((file) =>
    /from\s+['"]\.\/define-public-element(\.ts)?['"]/.test(readFileSync(join(elementsDir, file), 'utf8')),
  )
  .map((file) => file.replace(/\.ts$/, ''))
  .sort();

/** The staff elements (and the toaster): React, one self-contained bundle each. */
export const staffElementNames = elementNames.filter((name) => !publicElementNames.includes(name));
