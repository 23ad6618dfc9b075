import { expect, test } from '@playwright/test';
import { demoPassword, expectNoAxeViolations, signIn } from './support.ts';

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

test('staff suggest a correction from the match dialog; a super user accepts it from the queue', async ({
  page,
  browser,
}) => {
  // A match at Driftwood Foods (through the staff API), so the dialog shows a catalogue company.
  const login = await page.request.post('/api/auth/login', {
    data: { email: 'writer@twofold.test', password: demoPassword },
  });
  const { access_token: token, me } = await login.json();
  const orgId = me.orgs.find((o: { name: string }) => o.name === 'Hope Harbor Foundation').id as number;
  const search = await (await page.request.get('/api/public/companies?q=Driftwood%20Foods')).json();
  const delta = search.companies[0];
  const donor = `Suggesting Sam ${Date.now()}`;
  const created = await page.request.post(`/api/organization/${orgId}/donation`, {
    headers: { authorization: `Bearer ${token}` },
    data: {
      donated_at: '2025-05-01T12:00:00Z',
      amount: 80,
      donor: { name: donor, email: `sam-${Date.now()}@example.org` },
      company_id: delta.id,
      company_name: delta.name,
    },
  });
  expect(created.ok()).toBe(true);

  await signIn(page, 'writer@twofold.test');
  await page.goto('/portal/donations');
  await expect(page.getByText('Loading donations...')).toHaveCount(0);
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await page.getByLabel('Donor name or email').fill(donor);
  await expect(page.getByText('1 Found')).toBeVisible();
  await page.getByRole('row').filter({ hasText: donor }).click();
  const match = page.getByRole('dialog');
  await match.getByText('Suggest a correction').click();
  const ratio = `${(Date.now() % 7) + 2}`;
  await match.getByLabel('Correct value').fill(ratio);
  await match.getByLabel('Note for the reviewer').fill('Their 2026 policy doubled it');
  await match.getByRole('button', { name: 'Send suggestion' }).click();
  await expect(page.getByText('Suggestion sent')).toBeVisible();

  const reviewer = await browser.newPage();
  await signIn(reviewer, 'super@twofold.test');
  await reviewer.goto('/portal/companies');
  const queue = reviewer.getByRole('region', { name: /Suggested corrections/ });
  const item = queue.getByRole('listitem').filter({ hasText: 'Their 2026 policy doubled it' });
  await expect(item).toContainText(`→ ${ratio}:1`);
  await expectNoAxeViolations(reviewer);
  await item.getByRole('button', { name: 'Accept' }).click();
  await expect(item).toHaveCount(0);
  await reviewer.getByLabel('Search companies').fill('Driftwood Foods');
  await reviewer.getByRole('button', { name: 'Driftwood Foods' }).click();
  const dialog = reviewer.getByRole('dialog', { name: 'Driftwood Foods' });
  await expect(dialog.getByLabel('Ratio')).toHaveValue(ratio);
  await expect(dialog.locator('.company-history__list > li').first()).toContainText('(accepted suggestion)');
  await reviewer.close();
});
