import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { portalRoutes } from '../e2e/portal-routes.ts';
import { signIn } from '../e2e/support.ts';

/**
 * `npm run screenshots`: every portal route at 1280 × 800 and 390 × 844, full page, into
 * screenshots/ (name-width.png), for a reviewer to look at. Not part of `npm test`.
 */
const out = 'screenshots';
mkdirSync(out, { recursive: true });

for (const width of [1280, 390]) {
  for (const route of portalRoutes) {
    test(`${route.name} at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: width > 600 ? 800 : 844 });
      if (route.signedIn) await signIn(page, 'admin@twofold.test');
      await page.goto(route.path);
      await expect(page.getByText(route.ready).filter({ visible: true }).first()).toBeVisible();
      await expect(page.getByText(/^Loading/)).toHaveCount(0);
      await page.screenshot({
        path: `${out}/${route.name}-${width}.png`,
        fullPage: true,
        animations: 'disabled',
      });
    });
  }
}

/** A registration naming an existing account: the confirmation its owner lands on, at both widths. */
test('registration confirmation landing at 1280 and 390 px', async ({ page, context }) => {
  const { linkFromMailbox } = await import('../e2e/support.ts');
  const unique = `${Date.now()}`;
  const email = `shot-${unique}@example.org`;
  for (const [name, ein] of [
    [`Shot Pantry ${unique.slice(-6)}`, `${unique.slice(-9, -7)}-${unique.slice(-7)}`],
    [`Shot Shelter ${unique.slice(-6)}`, `${unique.slice(-8, -6)}-${unique.slice(-6)}1`],
  ]) {
    await page.goto('/portal/register');
    await page.getByLabel('Organization Name', { exact: true }).fill(name as string);
    await page.getByLabel('Organization Type').selectOption({ label: 'Nonprofit' });
    await page.getByLabel('EIN', { exact: true }).fill(ein as string);
    await page.getByLabel('Phone', { exact: true }).fill('(555) 010-0100');
    await page.getByLabel('Website', { exact: true }).fill('https://nonprofit.example.org');
    await page.getByLabel('Mission Statement').fill('Meals for families.');
    await page.getByLabel('Street Address', { exact: true }).fill('12 Harbor Way');
    await page.getByLabel('City', { exact: true }).fill('Salem');
    await page.getByLabel('Country', { exact: true }).selectOption('US');
    await page.getByLabel('Foodbanks', { exact: true }).check();
    await page.getByLabel('Contact Name', { exact: true }).fill('Shot Admin');
    await page.getByLabel('Contact Email', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Complete Registration' }).click();
    await expect(page.getByRole('heading', { name: 'Registration Complete!' })).toBeVisible();
  }
  await page.screenshot({ path: `${out}/registration-complete-1280.png`, fullPage: true });
  const link = async () => new URL(await linkFromMailbox(context, email, '/portal/login'));
  await expect.poll(async () => (await link()).searchParams.has('invitation')).toBe(true);
  const href = (await link()).href;
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width > 600 ? 800 : 844 });
    await page.goto(href);
    await expect(page.getByRole('heading', { name: /^Join Shot Shelter/ })).toBeVisible();
    await page.screenshot({ path: `${out}/registration-confirmation-${width}.png`, fullPage: true });
  }
});

/** The email preview (/preview-notification/{id}) of a real notification, at both widths. */
test('email preview at 1280 and 390 px', async ({ page }) => {
  await signIn(page, 'admin@twofold.test');
  await expect.poll(() => page.evaluate(() => localStorage.getItem('currentOrganizationId'))).toBeTruthy();
  const { token, orgId } = await page.evaluate(() => ({
    token: localStorage.getItem('auth_token') as string,
    orgId: localStorage.getItem('currentOrganizationId') as string,
  }));
  const headers = { Authorization: `Bearer ${token}` };
  // Birch Telecom (the demo catalogue) matches through a CSR portal: the donor is emailed at once.
  const created = await page.request.post(`/api/organization/${orgId}/donation`, {
    headers,
    data: {
      id: 0,
      donated_at: '2026-03-05T15:30:00.000Z',
      amount: 500,
      donor: { name: 'Petra Preview', email: `preview-${Date.now()}@example.org` },
      company_name: 'Birch Telecom',
    },
  });
  const { donation } = (await created.json()) as { donation: { id: number } };
  const got = await page.request.get(`/api/donation/${donation.id}`, { headers });
  const id = ((await got.json()) as { donation: { notifications: Array<{ id: number }> } }).donation
    .notifications[0]?.id;
  expect(id).toBeTruthy();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width > 600 ? 800 : 844 });
    await page.goto(`/preview-notification/${id}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // The email itself renders in its sandboxed frame after the page: wait for its words.
    await expect(page.frameLocator('iframe').locator('body')).toContainText('Hope Harbor');
    await expect(page.getByText(/^Loading/)).toHaveCount(0);
    // The window, not the full page: Chromium's full-page capture leaves the sandboxed (opaque
    // origin) email frame blank, though it shows on screen.
    await page.screenshot({ path: `${out}/email-preview-${width}.png` });
  }
});

/** A super user's portal: the sidebar's Companies entry opens the catalogue with its queue. */
test('companies as a super user at 1280 and 390 px', async ({ page }) => {
  await signIn(page, 'super@twofold.test');
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width > 600 ? 800 : 844 });
    await page.goto('/portal');
    if (width < 600) await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('link', { name: 'Companies', exact: true }).click();
    await expect(page).toHaveURL(/\/portal\/companies$/);
    await expect(page.getByText(/\d+ Found/).first()).toBeVisible();
    await expect(page.getByText(/^Loading/)).toHaveCount(0);
    await page.screenshot({ path: `${out}/companies-super-user-${width}.png`, fullPage: true });
  }
});

/**
 * Screens inside dialogs, at both widths: the import's field mapper (cards below 600 px, its
 * "Upload as" column in view) and the confirmation before Mark verified.
 */
test('field mapper and a confirmation at 1280 and 390 px', async ({ page }) => {
  const messyCsv = fileURLToPath(new URL('../e2e/fixtures/donations-messy.csv', import.meta.url));
  await signIn(page, 'admin@twofold.test');
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width > 600 ? 800 : 844 });
    await page.goto('/portal/donations');
    await expect(page.getByText(/\d+ Found/).first()).toBeVisible();
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    const upload = page.getByRole('dialog', { name: 'Upload Donations' });
    await upload.getByLabel('Donations file').setInputFiles(messyCsv);
    await upload.getByRole('button', { name: 'Continue' }).click();
    const mapper = page.getByRole('dialog', { name: 'Field Mapper' });
    await expect(mapper.getByText(/rows? ready/)).toBeVisible();
    await page.screenshot({ path: `${out}/field-mapper-${width}.png`, animations: 'disabled' });
    await page.keyboard.press('Escape');

    await page.goto('/portal/verification');
    await expect(page.getByText(/wait on your organization/)).toBeVisible();
    await page.getByRole('checkbox').nth(1).check();
    await page.getByRole('button', { name: 'Mark verified' }).click();
    await expect(page.getByRole('dialog', { name: /^Mark 1 match verified\?$/ })).toBeVisible();
    await page.screenshot({ path: `${out}/confirm-verify-${width}.png`, animations: 'disabled' });
    await page.keyboard.press('Escape');
  }
});
