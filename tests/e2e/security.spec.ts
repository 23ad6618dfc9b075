import { expect, type Page, test } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { demoPassword, expectInAuditLog, expectNoAxeViolations, signIn } from './support.ts';

/**
 * Issue #24: the account page's Security section (authenticator app, recovery codes, sessions),
 * signing in with a code, and an organization that requires two-factor sign-in.
 */

/** What an authenticator app shows for `secret`, `offsetSteps` 30-second steps from now. */
function codeFor(secret: string, offsetSteps = 0): string {
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  return totp.generate({ timestamp: Date.now() + offsetSteps * 30_000 });
}

async function openAccount(page: Page) {
  await page.getByRole('link', { name: 'Account' }).click();
  await expect(page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Security', level: 2 })).toBeVisible();
}

/**
 * Removes the authenticator app again (within ten minutes of signing in, no code is needed), so
 * the shared demo accounts sign in with a password alone in the journeys that run after these.
 */
async function removeAuthenticator(page: Page) {
  await page.goto('/portal/account');
  await page.getByRole('button', { name: 'Remove authenticator app' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Remove authenticator app' }).click();
  await expect(page.getByRole('button', { name: 'Set up authenticator app' })).toBeVisible();
}

/** Sets up the authenticator app from the account page, as a person with a phone would. */
async function enrolAuthenticator(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Set up authenticator app' }).click();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  // The key as the page shows it (in groups of four), typed into the app by hand.
  const shown = (await page.locator('code.account__secret').textContent()) ?? '';
  const secret = shown.replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await page.getByLabel('Code from the app').fill(codeFor(secret));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('heading', { name: 'Your recovery codes' })).toBeVisible();
  await expect(page.locator('.account__code-list li')).toHaveCount(10);
  await page.getByRole('button', { name: 'I have saved these codes' }).click();
  await expect(page.getByText('10 of 10 recovery codes left.')).toBeVisible();
  return secret;
}

test('enrol an authenticator app, sign out, and sign in with the password and a code', async ({ page }) => {
  await signIn(page, 'writer@twofold.test');
  await openAccount(page);
  await expect(page.getByRole('cell', { name: /This device/ })).toBeVisible();
  await expectNoAxeViolations(page);
  const secret = await enrolAuthenticator(page);
  await expectNoAxeViolations(page);

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/portal\/login/);
  await page.getByLabel('Email').fill('writer@twofold.test');
  await page.getByLabel('Password', { exact: true }).fill(demoPassword);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
  await expectNoAxeViolations(page);
  // A wrong code is refused with the reason; the next step's code (the one used to enrol is spent) signs in.
  await page.getByLabel('Authentication code').fill('000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText(/That code is not valid/)).toBeVisible();
  await page.getByLabel('Authentication code').fill(codeFor(secret, 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();

  // The account page again, then at phone width: nothing wider than the screen.
  await openAccount(page);
  await expect(page.getByText('Authenticator app', { exact: false }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Remove authenticator app' })).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('heading', { name: 'Signed-in sessions' })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectNoAxeViolations(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await removeAuthenticator(page);
});

test('end another session from the account page: that browser is refused and sent to sign in', async ({
  browser,
}) => {
  // The other browser says it is Firefox on Linux, so its row is the one to end.
  const other = await browser.newContext({
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
  });
  const here = await browser.newContext();
  try {
    const otherPage = await other.newPage();
    await signIn(otherPage, 'admin@twofold.test');
    const page = await here.newPage();
    await signIn(page, 'admin@twofold.test');
    await openAccount(page);
    const firefox = page.getByRole('row').filter({ hasText: 'Firefox 128 on Linux' });
    await expect(firefox).toHaveCount(1);
    await expect(page.getByRole('row').filter({ hasText: 'This device' })).toHaveCount(1);
    await firefox.getByRole('button', { name: /End session/ }).click();
    await expect(page.getByText('Session ended').first()).toBeVisible();
    await expect(firefox).toHaveCount(0);

    // The other browser's next call is refused: it is signed out.
    await otherPage.goto('/portal/donations');
    await expect(otherPage).toHaveURL(/\/portal\/login/);
    await expect(otherPage.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
    // This one carries on.
    await page.goto('/portal/donations');
    await expect(page.getByRole('heading', { name: 'Donations', level: 1 })).toBeVisible();
    // Both sign-ins and the ended session are in the organization's audit log.
    await expectInAuditLog(page, [
      { event: 'Session ended', who: 'admin@twofold.test' },
      { event: 'Signed in', who: 'admin@twofold.test' },
    ]);
  } finally {
    await other.close();
    await here.close();
  }
});

test('an admin requires two-factor sign-in; a member without it is sent to enrolment until done', async ({
  browser,
}) => {
  const adminContext = await browser.newContext();
  const memberContext = await browser.newContext();
  try {
    const admin = await adminContext.newPage();
    await signIn(admin, 'admin@twofold.test');
    await openAccount(admin);
    await enrolAuthenticator(admin);
    await admin.goto('/portal/organization-details?tab=settings');
    await expect(admin.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
    await expect(admin.getByText('Hope Harbor Foundation').first()).toBeVisible();
    const require = admin.getByRole('checkbox', {
      name: 'Require two-factor sign-in for everyone with access to this organization',
    });
    await require.check();
    await expect(admin.getByText('Two-factor requirement saved')).toBeVisible();
    await expect(require).toBeChecked();
    await expectNoAxeViolations(admin);

    // The reader signs in with a password and lands on enrolment, not the dashboard.
    const member = await memberContext.newPage();
    await member.goto('/portal/login');
    await member.getByLabel('Email').fill('reader@twofold.test');
    await member.getByLabel('Password', { exact: true }).fill(demoPassword);
    await member.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(member).toHaveURL(/\/portal\/account$/);
    await expect(member.locator('p[part="required"]')).toBeVisible();
    // Anything else sends them back here.
    await member.goto('/portal/donations');
    await expect(member).toHaveURL(/\/portal\/account$/);
    await expect(member.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();
    await enrolAuthenticator(member);
    await expect(member.locator('p[part="required"]')).toHaveCount(0);
    await member.goto('/portal/donations');
    await expect(member.getByRole('heading', { name: 'Donations', level: 1 })).toBeVisible();

    // The admin finds each step in the audit log: the requirement, both enrolments, the codes.
    await expectInAuditLog(admin, [
      { event: 'Two-factor requirement changed', who: 'admin@twofold.test' },
      { event: 'Authenticator app added', who: 'admin@twofold.test' },
      { event: 'Authenticator app added', who: 'reader@twofold.test' },
      { event: 'Recovery codes generated', who: 'reader@twofold.test' },
      { event: 'Signed in', who: 'reader@twofold.test' },
    ]);

    // Back as it was for the journeys after this one: no requirement, no authenticator apps.
    await admin.goto('/portal/organization-details?tab=settings');
    await require.uncheck();
    await expect(admin.getByText('Two-factor requirement saved')).toBeVisible();
    await removeAuthenticator(member);
    await removeAuthenticator(admin);
  } finally {
    await adminContext.close();
    await memberContext.close();
  }
});
