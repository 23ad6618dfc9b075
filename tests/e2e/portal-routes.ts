/**
 * Every page the portal serves, as the layout checks (390 px overflow, axe) and `npm run
 * screenshots` visit them. A new screen adds one line here. `signedIn` pages are visited as the
 * admin of Hope Harbor; `ready` is text that shows once the page has loaded what it shows first.
 */
export interface PortalRoute {
  name: string;
  path: string;
  signedIn: boolean;
  ready: string | RegExp;
}

export const portalRoutes: readonly PortalRoute[] = [
  { name: 'login', path: '/portal/login', signedIn: false, ready: 'Sign in' },
  // Without the emailed token, the page says the link is not valid (spec).
  { name: 'reset-password', path: '/portal/reset-password', signedIn: false, ready: 'Invalid Reset Link' },
  { name: 'register', path: '/portal/register', signedIn: false, ready: 'Register Your Nonprofit' },
  { name: 'contact', path: '/portal/contact', signedIn: false, ready: /Contact/ },
  { name: 'faq', path: '/portal/faq?vr&esign&cn=Acme', signedIn: false, ready: /Acme/ },
  {
    name: 'match-page',
    path: '/match/hope-harbor foundation',
    signedIn: false,
    ready: 'Hope Harbor Foundation',
  },
  { name: 'companies-lookup', path: '/companies', signedIn: false, ready: 'Does your employer match gifts?' },
  // The donor's own edit page, opened without the emailed link: it offers a new link.
  {
    name: 'donor-match-update',
    path: '/portal/donor-match-update/1',
    signedIn: false,
    ready: /open the link in the email/,
  },
  // The donor's signing page; a link that is not one still shows the page and says so.
  { name: 'sign', path: '/sign/not-a-link', signedIn: false, ready: 'Sign your matching gift form' },
  { name: 'dashboard', path: '/portal', signedIn: true, ready: 'Dashboard' },
  { name: 'companies', path: '/portal/companies', signedIn: true, ready: /\d+ Found/ },
  { name: 'donations', path: '/portal/donations', signedIn: true, ready: /\d+ Found/ },
  { name: 'verification', path: '/portal/verification', signedIn: true, ready: /wait|Nothing is waiting/ },
  { name: 'payouts', path: '/portal/payouts', signedIn: true, ready: 'Upload a payout report' },
  { name: 'scheduled-emails', path: '/portal/scheduled-emails', signedIn: true, ready: /emails? from/ },
  { name: 'employers', path: '/portal/employers', signedIn: true, ready: 'To review' },
  // Issue #24: the user's own account page (its Security section).
  { name: 'account', path: '/portal/account', signedIn: true, ready: 'Signed-in sessions' },
  { name: 'organization-basic', path: '/portal/organization-details', signedIn: true, ready: 'Basic' },
  {
    name: 'organization-users',
    path: '/portal/organization-details?tab=users',
    signedIn: true,
    ready: 'Users',
  },
  {
    name: 'organization-files',
    path: '/portal/organization-details?tab=files',
    signedIn: true,
    ready: 'Files',
  },
  {
    name: 'organization-settings',
    path: '/portal/organization-details?tab=settings',
    signedIn: true,
    ready: 'Settings',
  },
  {
    name: 'organization-sso',
    path: '/portal/organization-details?tab=sso',
    signedIn: true,
    ready: 'Email domains',
  },
  {
    name: 'organization-audit',
    path: '/portal/organization-details?tab=audit',
    signedIn: true,
    ready: 'can never be changed or deleted',
  },
  { name: 'reports', path: '/portal/reports', signedIn: true, ready: 'My Reports' },
  { name: 'campaigns', path: '/portal/campaigns', signedIn: true, ready: /Match Ratio/ },
  { name: 'email-templates', path: '/portal/email-templates', signedIn: true, ready: 'CSR vendor portal' },
  {
    name: 'email-customization',
    path: '/portal/email-customization?template=7',
    signedIn: true,
    ready: 'Initial Email',
  },
  { name: 'integrations', path: '/portal/integrations', signedIn: true, ready: 'Manage API Keys' },
  { name: 'widget-guide', path: '/portal/integrations/widget', signedIn: true, ready: /Copy/ },
  { name: 'webhooks', path: '/portal/webhooks', signedIn: true, ready: /Webhooks/ },
  { name: 'billing', path: '/portal/billing', signedIn: true, ready: /Free/ },
  { name: 'stripe-setup', path: '/portal/stripe-setup', signedIn: true, ready: /Step 1|1\./ },
  // A path the portal does not know: its own page, with the way back to the Dashboard.
  { name: 'not-found', path: '/portal/no-such-page', signedIn: true, ready: 'Page not found' },
];
