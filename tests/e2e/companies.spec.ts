import { expect, test } from '@playwright/test';
import { expectNoAxeViolations, signIn } from './support.ts';

/**
 * Issue 12: the public employer lookup at /companies, and the Companies screen: super users save
 * with history, everyone else reads, and a staff suggestion from a match reaches the review queue.
 */

test('anyone searches an employer on /companies and sees whether and how it matches', async ({ page }) => {
  await page.goto('/companies');
  await expect(page.getByRole('heading', { name: 'Does your employer match gifts?' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Employer' }).fill('Birch Tel');
  await page.getByRole('button', { name: /^Birch Telecom/ }).click();
  const detail = page.locator('twofold-company-lookup [part="detail"]');
  await expect(detail.getByRole('heading', { name: 'Birch Telecom' })).toBeFocused();
  await expect(detail.getByText('Matches gifts', { exact: true })).toBeVisible();
  await expect(detail.getByText('3:1')).toBeVisible();
  await expect(detail.getByText(/Within \d+ days of the gift|By the end of|No deadline/)).toBeVisible();
  await expect(detail.getByRole('link', { name: /giving portal/ })).toHaveAttribute(
    'href',
    'https://birch-telecom.example.com/giving',
  );
  await expectNoAxeViolations(page);
});

test('a reader sees a company read-only, with no Save', async ({ page }) => {
  await signIn(page, 'reader@twofold.test');
  await page.goto('/portal/companies');
  await page.getByLabel('Search companies').fill('Cobalt Foods');
  await page.getByRole('button', { name: 'Cobalt Foods' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cobalt Foods' });
  await expect(dialog.getByLabel('Ratio')).toHaveAttribute('readonly', '');
  await expect(dialog.getByLabel('Method')).toBeDisabled();
  await expect(dialog.getByRole('button', { name: 'Save' })).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test('a super user saves a company and the history says who changed what', async ({ page }) => {
  await signIn(page, 'super@twofold.test');
  await page.goto('/portal/companies');
  await page.getByLabel('Search companies').fill('Cobalt Foods');
  await page.getByRole('button', { name: 'Cobalt Foods' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cobalt Foods' });
  const ratio = `${(Date.now() % 8) + 1}.5`;
  await dialog.getByLabel('Ratio').fill(ratio);
  await dialog.getByRole('button', { name: 'Save' }).click();
  const entry = dialog.locator('.company-history__list > li').first();
  await expect(entry).toContainText(`→ ${ratio}:1`);
  await expect(entry).toContainText('Sasha Patel');
  await expectNoAxeViolations(page);
});
