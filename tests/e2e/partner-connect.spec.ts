import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { expect, type Page, test } from '@playwright/test';
import { demoPassword, expectNoAxeViolations, linkFromMailbox } from './support.ts';

/**
 * Issue #25, tried as a new nonprofit would: a partner's onboarding page on another origin
 * (a static page on E2E_PORT + 1) embeds <twofold-registration partner=…>; the nonprofit registers,
 * confirms its email, allows the partner in the consent popup; the page gets the code, which the
 * test exchanges as the partner's server would, then creates a match through /api/v1, sees it in
 * the portal, refreshes the token; the admin disconnects and the next call is refused.
 */

const apiOrigin = (baseURL: string | undefined) => new URL(baseURL ?? 'http://localhost:8799').origin;
const partnerPort = () => Number(process.env.E2E_PORT ?? 8799) + 1;

function partnerPage(api: string, clientId: string, redirectUri: string, challenge: string, state: string) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>GiveHub onboarding</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<script type="module" src="${api}/elements/twofold-registration.js"></script>
<script type="module" src="${api}/elements/twofold-toaster.js"></script></head>
<body><main><h1>Welcome to GiveHub</h1>
<twofold-registration api-base="${api}" partner="${clientId}" redirect-uri="${redirectUri}"
  state="${state}" code-challenge="${challenge}" scope="matches:read matches:write"></twofold-registration>
<twofold-toaster></twofold-toaster>
<output id="connected"></output>
<script type="module">
document.addEventListener('twofold-connected', (e) => {
  document.getElementById('connected').textContent = JSON.stringify(e.detail);
});
</script>
</main></body></html>`;
}

async function fillRegistration(page: Page, org: { name: string; ein: string; email: string }) {
  const form = page.locator('twofold-registration');
  await form.getByLabel('Organization Name', { exact: true }).fill(org.name);
  await form.getByLabel('Organization Type').selectOption({ label: 'Nonprofit' });
  await form.getByLabel('EIN', { exact: true }).fill(org.ein);
  await form.getByLabel('Phone', { exact: true }).fill('(555) 010-0100');
  await form.getByLabel('Website', { exact: true }).fill('https://nonprofit.example.org');
  await form.getByLabel('Mission Statement').fill('After-school tutoring for every child.');
  await form.getByLabel('Street Address', { exact: true }).fill('3 School Lane');
  await form.getByLabel('City', { exact: true }).fill('Salem');
  await form.getByLabel('Country', { exact: true }).selectOption('US');
  await form.getByLabel('Educational Services', { exact: true }).check();
  await form.getByLabel('Contact Name', { exact: true }).fill('Tutor Admin');
  await form.getByLabel('Contact Email', { exact: true }).fill(org.email);
  await form.getByRole('button', { name: 'Complete Registration' }).click();
  await expect(form.getByRole('heading', { name: 'Registration Complete!' })).toBeVisible();
}

let server: Server | undefined;
test.afterEach(() => {
  server?.close();
  server = undefined;
});

test('a nonprofit registers inside a partner page, allows the partner, and the partner works with its token until disconnected', async ({
  page,
  context,
  baseURL,
  request,
}) => {
  const api = apiOrigin(baseURL);
  const partner = `http://127.0.0.1:${partnerPort()}`;
  const redirectUri = `${partner}/oauth/callback`;

  // A super user registers the partner app (its secret is shown once).
  const login = await request.post(`${api}/api/auth/login`, {
    data: { email: 'super@twofold.test', password: demoPassword },
  });
  const superToken = (await login.json()).access_token as string;
  const registered = await request.post(`${api}/api/partner-apps`, {
    headers: { authorization: `Bearer ${superToken}` },
    data: {
      name: `GiveHub ${Date.now() % 100000}`,
      website: 'https://givehub.example',
      redirect_uris: [redirectUri],
      scopes: ['matches:read', 'matches:write', 'statistics:read'],
    },
  });
  expect(registered.status()).toBe(201);
  const { app, client_secret: clientSecret } = await registered.json();
  const appName = app.name as string;

  // The partner's server keeps the PKCE verifier and the state; its page gets the challenge.
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const state = randomBytes(16).toString('base64url');
  const html = partnerPage(api, app.client_id, redirectUri, challenge, state);
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise<void>((resolve) => server?.listen(partnerPort(), '127.0.0.1', resolve));

  // 1. The nonprofit registers on the partner's page.
  await page.goto(`${partner}/onboarding`);
  const unique = `${Date.now()}`;
  const email = `tutor-${unique}@tutoring.example`;
  await fillRegistration(page, {
    name: `Tutoring Club ${unique.slice(-6)}`,
    ein: `${unique.slice(-9, -7)}-${unique.slice(-7)}`,
    email,
  });
  const element = page.locator('twofold-registration');
  const connect = element.getByRole('button', { name: `Connect ${appName}` });
  await expect(connect).toBeVisible();
  await expectNoAxeViolations(page);

  // 2. It confirms its email: the link in the dev mailbox, then a password.
  const link = await linkFromMailbox(context, email, '/portal/reset-password');
  const mailTab = await context.newPage();
  await mailTab.goto(link);
  const password = 'tutoring-club-secret';
  await mailTab.getByLabel('New Password', { exact: true }).fill(password);
  await mailTab.getByLabel('Confirm New Password').fill(password);
  await mailTab.getByRole('button', { name: 'Create Password' }).click();
  await expect(mailTab.getByRole('heading', { name: 'Password Created' })).toBeVisible();
  await mailTab.close();

  // A message from anywhere but Twofold's popup is not taken for the answer (here: the page itself).
  await page.evaluate(
    (s) => window.postMessage({ type: 'twofold-oauth-result', code: 'tfac_forged', state: s }, '*'),
    state,
  );

  // 3. Connect: the consent step in a popup on Twofold's origin; signed out, it signs in there.
  const popupOpened = page.waitForEvent('popup');
  await connect.click();
  const popup = await popupOpened;
  await expect(popup.getByRole('heading', { name: 'Sign in to connect an app' })).toBeVisible();
  await popup.getByLabel('Email').fill(email);
  await popup.getByLabel('Password', { exact: true }).fill(password);
  await popup.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(popup.getByRole('heading', { name: `Connect ${appName} to Twofold` })).toBeVisible();
  await expect(popup.getByText('Create matches for gifts made through it')).toBeVisible();
  await expect(popup.getByText('Read your matches: donors, amounts, employers and statuses')).toBeVisible();
  // Only what the page asked for, not every scope the app may have.
  await expect(popup.getByText('Read your matching statistics')).toHaveCount(0);
  await expect(popup.getByText(/It will act for/)).toContainText('Tutoring Club');
  await expectNoAxeViolations(popup);
  await popup.setViewportSize({ width: 390, height: 760 });
  expect(await popup.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const closed = popup.waitForEvent('close');
  await popup.getByRole('button', { name: 'Allow' }).click();
  await closed;

  // 4. The partner page received the code and its state, by postMessage, as twofold-connected.
  await expect(page.locator('#connected')).not.toBeEmpty();
  expect(await page.locator('#connected').textContent()).not.toContain('forged');
  const detail = JSON.parse((await page.locator('#connected').textContent()) ?? '{}');
  expect(detail.state).toBe(state);
  expect(detail.code).toMatch(/^tfac_/);
  await expect(element.getByText(`${appName} is connected to your organization.`)).toBeVisible();

  // 5. The partner's server exchanges it (client_secret_basic, PKCE verifier).
  const basic = `Basic ${Buffer.from(`${app.client_id}:${clientSecret}`).toString('base64')}`;
  const exchanged = await request.post(`${api}/oauth/token`, {
    headers: { authorization: basic },
    form: {
      grant_type: 'authorization_code',
      code: detail.code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
    },
  });
  expect(exchanged.status()).toBe(200);
  const tokens = await exchanged.json();
  expect(tokens.scope).toBe('matches:read matches:write');

  // 6. It creates a match through /api/v1 …
  const donorName = `Partner Gift ${unique.slice(-5)}`;
  const created = await request.post(`${api}/api/v1/matches`, {
    headers: { authorization: `Bearer ${tokens.access_token}`, 'idempotency-key': `gift-${unique}` },
    data: {
      // Today, within the Donations screen's default dates.
      donated_at: `${new Date().toISOString().slice(0, 10)} 12:00:00`,
      amount: 120,
      donor: { name: donorName, email: `donor-${unique}@example.org` },
      company_name: 'Unknown Employer Co',
    },
  });
  expect(created.status()).toBe(201);

  // … which the nonprofit's admin sees in the portal (signed in by the popup, same browser).
  await page.goto(`${api}/portal/donations`);
  await expect(page.getByText(donorName).first()).toBeVisible();

  // 7. The partner refreshes its token: a new pair; the new access token works.
  const refreshed = await request.post(`${api}/oauth/token`, {
    headers: { authorization: basic },
    form: { grant_type: 'refresh_token', refresh_token: tokens.refresh_token },
  });
  expect(refreshed.status()).toBe(200);
  const next = await refreshed.json();
  expect(next.refresh_token).not.toBe(tokens.refresh_token);
  const list = await request.get(`${api}/api/v1/matches`, {
    headers: { authorization: `Bearer ${next.access_token}` },
  });
  expect(list.status()).toBe(200);

  // 8. The admin sees it under Connected apps, and disconnects it.
  await page.goto(`${api}/portal/integrations`);
  const card = page.getByRole('region', { name: 'Connected apps' });
  await expect(card.getByRole('link', { name: appName })).toBeVisible();
  await expect(card.getByText(/Last used/)).toBeVisible();
  await expectNoAxeViolations(page);
  await card.getByRole('button', { name: `Disconnect ${appName}` }).click();
  await page.getByRole('button', { name: 'Disconnect app' }).click();
  await expect(card.getByText('No apps are connected.')).toBeVisible();

  // The next call is refused at once.
  const refused = await request.get(`${api}/api/v1/matches`, {
    headers: { authorization: `Bearer ${next.access_token}` },
  });
  expect(refused.status()).toBe(401);

  // Back and forth: the screen shows the same state on a second visit.
  await page.getByRole('link', { name: 'Dashboard' }).first().click();
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await page.goto(`${api}/portal/integrations`);
  await expect(
    page.getByRole('region', { name: 'Connected apps' }).getByText('No apps are connected.'),
  ).toBeVisible();
});

test('a super user registers a partner app and sees its secret once', async ({ page, baseURL }) => {
  const api = apiOrigin(baseURL);
  await page.goto(`${api}/portal/login`);
  await page.getByLabel('Email').fill('super@twofold.test');
  await page.getByLabel('Password', { exact: true }).fill(demoPassword);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await page.goto(`${api}/portal/integrations`);
  await page.getByRole('button', { name: 'Manage partner apps' }).click();
  const dialog = page.getByRole('dialog', { name: 'Partner apps' });
  const name = `Reports Co ${Date.now() % 100000}`;
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByLabel('Website', { exact: true }).fill('https://reports.example');
  await dialog.getByLabel('Redirect URIs (one per line)').fill('http://example.org/callback');
  await dialog.getByRole('button', { name: 'Register app' }).click();
  // http beyond loopback is refused, with the rule in words.
  await expect(dialog.getByText(/must be an absolute https URL/)).toBeVisible();
  await dialog.getByLabel('Redirect URIs (one per line)').fill('https://reports.example/callback');
  await dialog.getByRole('button', { name: 'Register app' }).click();
  await expect(dialog.getByTestId('client-secret')).toHaveText(/^tfcs_/);
  await expect(dialog.getByRole('heading', { name, level: 4 })).toBeVisible();
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: 'Rotate secret' }).last().click();
  await page
    .getByRole('dialog', { name: /Rotate the secret/ })
    .getByRole('button', { name: 'Rotate secret' })
    .click();
  await expect(dialog.getByText(/\(until /).last()).toBeVisible();
  await expect(dialog.getByTestId('client-secret')).toHaveText(/^tfcs_/);
});

test('the consent page on its own: sign in or register there, pick the organization, Deny goes back with access_denied', async ({
  page,
  baseURL,
  request,
}) => {
  const api = apiOrigin(baseURL);
  const partner = `http://127.0.0.1:${partnerPort() + 1}`;
  const redirectUri = `${partner}/callback`;
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      '<!doctype html><html lang="en"><title>Partner callback</title><main><h1>Back at the partner</h1></main></html>',
    );
  });
  await new Promise<void>((resolve) => server?.listen(partnerPort() + 1, '127.0.0.1', resolve));
  const login = await request.post(`${api}/api/auth/login`, {
    data: { email: 'super@twofold.test', password: demoPassword },
  });
  const registered = await request.post(`${api}/api/partner-apps`, {
    headers: { authorization: `Bearer ${(await login.json()).access_token}` },
    data: {
      name: `Fundly ${Date.now() % 100000}`,
      website: 'https://fundly.example',
      redirect_uris: [redirectUri],
      scopes: ['matches:read', 'webhooks:manage'],
    },
  });
  const { app } = await registered.json();
  const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: app.client_id,
    redirect_uri: redirectUri,
    state: 'xyz-state',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto(`${api}/oauth/authorize?${query}`);
  await expect(page.getByRole('heading', { name: 'Sign in to connect an app' })).toBeVisible();
  // No account yet: the registration form is there, and back again (twice, back and forth).
  for (let round = 0; round < 2; round++) {
    await page.getByRole('button', { name: 'Register your nonprofit' }).click();
    await expect(page.getByRole('heading', { name: 'Register Your Nonprofit' })).toBeVisible();
    await page.getByRole('button', { name: 'Already registered? Sign in' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in to connect an app' })).toBeVisible();
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectNoAxeViolations(page);
  // The demo admin administers several organizations: a picker.
  await page.getByLabel('Email').fill('admin@twofold.test');
  await page.getByLabel('Password', { exact: true }).fill(demoPassword);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: `Connect ${app.name} to Twofold` })).toBeVisible();
  const picker = page.getByLabel('Organization');
  await expect(picker.locator('option')).toHaveText(['Hope Harbor Foundation', 'Maple Street PTA']);
  await picker.selectOption({ label: 'Maple Street PTA' });
  await expect(page.getByText("Receive your organization's match events at its own webhook")).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Deny' }).click();
  await page.waitForURL((url) => url.origin === partner);
  const back = new URL(page.url());
  expect(back.searchParams.get('error')).toBe('access_denied');
  expect(back.searchParams.get('state')).toBe('xyz-state');
  expect(back.searchParams.get('code')).toBeNull();
});
