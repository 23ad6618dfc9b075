import { type CDPSession, expect, type Page, test } from '@playwright/test';
import { startTestOidcProvider, type TestOidcProvider } from '../../server/test-oidc-provider.ts';
import { demoPassword, expectInAuditLog, expectNoAxeViolations, signIn } from './support.ts';

/**
 * Issue #24: a passkey registered and used alone with Chromium's virtual authenticator (the
 * DevTools protocol's WebAuthn domain), and single sign-on through a real OpenID provider
 * (oidc-provider) running in this test process, on a port of this engineer's range.
 */

async function virtualAuthenticator(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return cdp;
}

async function signOut(page: Page) {
  await page.evaluate(() => localStorage.clear());
  await page.goto('/portal/login');
}

async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

test('a passkey registered on the account page signs in alone, without an email or password', async ({
  page,
}) => {
  await virtualAuthenticator(page);
  await signIn(page, 'writer@twofold.test');
  await page.goto('/portal/account');
  await expect(page.getByRole('heading', { name: 'Passkeys' })).toBeVisible();
  await expect(page.getByText('You have no passkeys yet.')).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByLabel('Passkey name (optional)').fill('Work laptop');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  const list = page.getByRole('list', { name: 'Your passkeys' });
  await expect(list.getByText('Work laptop')).toBeVisible();
  await expect(page.getByText('Passkey added')).toBeVisible();

  // Rename it, twice (a second interaction broke screens before).
  for (const name of ['Laptop', 'Office laptop']) {
    await list.getByRole('button', { name: /^Rename / }).click();
    const dialog = page.getByRole('dialog', { name: 'Rename passkey' });
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByRole('button', { name: 'Save name' }).click();
    await expect(dialog).toBeHidden();
    await expect(list.getByText(name, { exact: true })).toBeVisible();
  }
  await expectNoAxeViolations(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await noSidewaysScroll(page);
  await page.setViewportSize({ width: 1280, height: 800 });

  // Signed out, the passkey alone signs in: no email typed (a discoverable credential).
  await signOut(page);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();

  // And again after typing the email.
  await signOut(page);
  await page.getByLabel('Email').fill('writer@twofold.test');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();

  // Removing it asks first and then it is gone.
  await page.goto('/portal/account');
  await list.getByRole('button', { name: 'Remove Office laptop' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove passkey' }).click();
  await expect(page.getByText('You have no passkeys yet.')).toBeVisible();

  // Hope Harbor's admin finds the writer's passkey sign-in, addition and removal in the audit log.
  await signOut(page);
  await signIn(page, 'admin@twofold.test');
  await expectInAuditLog(page, [
    { event: 'Passkey added', who: 'writer@twofold.test' },
    { event: 'Passkey removed', who: 'writer@twofold.test' },
    { event: 'Signed in', who: 'writer@twofold.test' },
  ]);
});

test.describe('single sign-on', () => {
  let op: TestOidcProvider;
  let hopeId = 0;
  let superToken = '';
  const domain = 'hope-sso.test';

  test.beforeAll(async ({ playwright }, info) => {
    const base = String(info.project.use.baseURL);
    const port = Number(new URL(base).port) + 31;
    op = await startTestOidcProvider({ port, redirectUris: [`${base}/api/auth/sso/callback`] });
    const api = await playwright.request.newContext({ baseURL: base });
    const admin = await (
      await api.post('/api/auth/login', { data: { email: 'admin@twofold.test', password: demoPassword } })
    ).json();
    hopeId = admin.me.orgs.find((o: { name: string }) => o.name === 'Hope Harbor Foundation').id;
    superToken = (
      await (
        await api.post('/api/auth/login', { data: { email: 'super@twofold.test', password: demoPassword } })
      ).json()
    ).access_token;
    await api.dispose();
  });

  test.afterAll(async ({ playwright }, info) => {
    // Leave the shared server as it was for the other journeys.
    const api = await playwright.request.newContext({ baseURL: String(info.project.use.baseURL) });
    await api.delete(`/api/organization/${hopeId}/sso`, {
      headers: { authorization: `Bearer ${superToken}` },
    });
    await api.dispose();
    await op?.close();
  });

  test('an admin connects the provider; a new person signs in through it and lands in the organization', async ({
    page,
  }) => {
    op.accounts.set(`nia@${domain}`, { email: `nia@${domain}`, email_verified: true, name: 'Nia Provider' });
    await signIn(page, 'super@twofold.test');
    await page.evaluate((id) => localStorage.setItem('currentOrganizationId', String(id)), hopeId);
    await page.goto('/portal/organization-details?tab=sso');
    await expect(page.getByRole('tab', { name: 'Single sign-on' })).toHaveAttribute('aria-selected', 'true');
    await page.getByLabel('Provider name').fill('Hope Workspace');
    await page.getByLabel('Issuer URL').fill(op.issuer);
    await page.getByLabel('Client ID').fill(op.clientId);
    await page.getByLabel('Client secret').fill(op.clientSecret);
    await page.getByLabel('Email domains').fill(domain);
    await page.getByRole('button', { name: 'Connect provider' }).click();
    await expect(page.getByText('Single sign-on saved')).toBeVisible();
    // The secret is write-only: the field is empty again and says one is kept.
    await expect(page.getByLabel('Client secret')).toHaveValue('');
    await expect(page.getByText('A secret is stored and never shown.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save single sign-on' })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await noSidewaysScroll(page);
    await page.setViewportSize({ width: 1280, height: 800 });

    await signOut(page);
    await page.getByLabel('Email').fill(`nia@${domain}`);
    const button = page.getByRole('link', { name: 'Sign in with Hope Workspace' });
    await expect(button).toBeVisible();
    await expectNoAxeViolations(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await noSidewaysScroll(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    await button.click();
    await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
    await expect(
      page.getByRole('navigation').getByText('Hope Harbor Foundation', { exact: true }),
    ).toBeVisible();
    expect(new URL(page.url()).searchParams.get('sso')).toBeNull();

    // A second time: the account exists and signs straight in.
    await signOut(page);
    await page.getByLabel('Email').fill(`nia@${domain}`);
    await page.getByRole('link', { name: 'Sign in with Hope Workspace' }).click();
    await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();

    // The connection, Nia's joining and her sign-ins are in Hope Harbor's audit log.
    await signOut(page);
    await signIn(page, 'super@twofold.test');
    await page.evaluate((id) => localStorage.setItem('currentOrganizationId', String(id)), hopeId);
    await expectInAuditLog(page, [
      { event: 'Single sign-on configured', who: 'super@twofold.test' },
      { event: 'Access granted', who: `nia@${domain}` },
      { event: 'Signed in', who: `nia@${domain}` },
    ]);
  });

  test('with "ask an admin to approve", a first sign-in waits until an admin approves it on the tab', async ({
    page,
  }) => {
    op.accounts.set(`pia@${domain}`, { email: `pia@${domain}`, email_verified: true, name: 'Pia Waiting' });
    const saved = await page.request.put(`/api/organization/${hopeId}/sso`, {
      headers: { authorization: `Bearer ${superToken}` },
      data: {
        provider_name: 'Hope Workspace',
        issuer: op.issuer,
        client_id: op.clientId,
        client_secret: op.clientSecret,
        domains: [domain],
        default_level: 'write',
        join_mode: 'approve',
        require_sso: false,
      },
    });
    expect(saved.status()).toBe(200);
    await page.goto('/portal/login');
    await page.getByLabel('Email').fill(`pia@${domain}`);
    await page.getByRole('link', { name: 'Sign in with Hope Workspace' }).click();
    await expect(page.getByText(/must approve your access/)).toBeVisible();

    await signIn(page, 'super@twofold.test');
    await page.evaluate((id) => localStorage.setItem('currentOrganizationId', String(id)), hopeId);
    await page.goto('/portal/organization-details?tab=sso');
    // Away to another tab and back: the tab loads again and still shows the request.
    await page.getByRole('tab', { name: 'Users' }).click();
    await page.getByRole('tab', { name: 'Single sign-on' }).click();
    const waiting = page.getByRole('listitem').filter({ hasText: `pia@${domain}` });
    await expect(waiting).toBeVisible();
    await expect(waiting.getByLabel(`Level for pia@${domain}`)).toHaveValue('write');
    await expectNoAxeViolations(page);
    await waiting.getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByText('Request approved')).toBeVisible();
    await expect(page.getByText('No one is waiting.')).toBeVisible();

    await signOut(page);
    await page.getByLabel('Email').fill(`pia@${domain}`);
    await page.getByRole('link', { name: 'Sign in with Hope Workspace' }).click();
    await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  });

  test('a refused sign-in comes back to the login page with the reason', async ({ page }) => {
    op.accounts.set(`omar@${domain}`, { email: `omar@${domain}`, email_verified: false });
    // The connection as the journey above left it (made again here when this test runs alone).
    const saved = await page.request.put(`/api/organization/${hopeId}/sso`, {
      headers: { authorization: `Bearer ${superToken}` },
      data: {
        provider_name: 'Hope Workspace',
        issuer: op.issuer,
        client_id: op.clientId,
        client_secret: op.clientSecret,
        domains: [domain],
        default_level: 'read',
        join_mode: 'join',
        require_sso: false,
      },
    });
    expect(saved.status()).toBe(200);
    await page.goto('/portal/login');
    await page.getByLabel('Email').fill(`omar@${domain}`);
    await page.getByRole('link', { name: 'Sign in with Hope Workspace' }).click();
    await expect(page.getByText('Single sign-on did not complete')).toBeVisible();
    await expect(page.getByText(/has not verified this email address/)).toBeVisible();
    await expect(page).toHaveURL(/\/portal\/login$/);
    await expectNoAxeViolations(page);
  });
});
