// The public elements: one self-contained ES module each (React, r2wc and signals included), so a
// page can embed a single <script type="module" src="/elements/twofold-faq.js">.
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
  'twofold-esign',
  'twofold-billing',
  'twofold-integrations',
  'twofold-webhooks',
  'twofold-template-editor',
  'twofold-report-builder',
];
