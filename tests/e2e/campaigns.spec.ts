import { expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations, signIn } from './support.ts';

// The demo catalogue (server/db/seed-companies.ts) gives each company its policy from its
// position: Birch Analytics matches 1:1 (e-sign), with no minimum and no maximum, so a 2:1
// campaign doubles its estimate exactly. Stamped names keep reruns on one database apart.
const company = 'Birch Analytics';
const stamp = Date.now().toString(36);
const campaignName = `Giving Week ${stamp}`;

async function session(page: Page) {
  const read = () =>
    page.evaluate(() => ({
      token: localStorage.getItem('auth_token'),
      orgId: localStorage.getItem('currentOrganizationId'),
    }));
  await expect.poll(async () => (await read()).orgId, { message: 'the current organization' }).toBeTruthy();
  const stored = await read();
  return { token: stored.token as string, orgId: Number(stored.orgId) };
}

const screen = (page: Page) => page.locator('twofold-campaigns');

test('a 2:1 campaign for this month doubles the estimated match of a gift at its company', async ({
  page,
}) => {
  await signIn(page, 'admin@twofold.test');
  await page.getByRole('link', { name: 'Campaigns', exact: true }).click();
  await expect(page).toHaveURL(/\/portal\/campaigns$/);
  await expect(page.getByRole('heading', { name: 'Campaigns', level: 1 })).toBeVisible();
  await expect(screen(page).getByText('Hope Harbor Foundation', { exact: true })).toBeVisible();
  const table = screen(page).getByRole('table', { name: 'Campaigns' });
  for (const column of [
    'Campaign',
    'Company',
    'Group Submit',
    'Bill Eligible',
    'Bill Processed',
    'Start Date',
    'End Date',
    'Min/Max',
    'Match Ratio',
  ])
    await expect(table.getByRole('columnheader', { name: column, exact: true })).toBeVisible();
  await expectNoAxeViolations(page);

  // Add Campaign: the dialog checks the ratio before anything is sent.
  await screen(page).getByRole('button', { name: 'Add Campaign' }).click();
  const dialog = page.getByRole('dialog', { name: 'Match Campaign' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Campaign name').fill(campaignName);
  await dialog.getByRole('combobox', { name: 'Company' }).fill('Birch Ana');
  await dialog.getByRole('option', { name: company, exact: true }).click();
  await dialog.getByLabel('Match ratio').fill('twice');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog.getByText(/Match ratio must look like 1:1, 2:1 or 1.5:1/)).toBeVisible();
  await expectNoAxeViolations(page);
  await dialog.getByLabel('Match ratio').fill('2:1');
  await dialog.getByLabel('Message').fill('Birch doubles every gift this month.');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();
  const row = table.getByRole('row').filter({ hasText: campaignName });
  await expect(row).toContainText(company);
  await expect(row).toContainText('2:1');
  await expect(row).toContainText('$0 / No max');

  // A gift at that company today, recorded as an integration would: its estimate is doubled.
  const s = await session(page);
  const created = await page.request.post(`/api/organization/${s.orgId}/donation`, {
    headers: { Authorization: `Bearer ${s.token}` },
    data: {
      donated_at: new Date().toISOString(),
      amount: 100,
      donor: { name: `Casey Campaign ${stamp}`, email: `casey-${stamp}@example.org` },
      company_name: company,
    },
  });
  expect(created.status()).toBe(201);
  const { donation } = (await created.json()) as {
    donation: { id: number; matched: number; campaign: { name: string } | null };
  };
  expect(donation.matched).toBe(200);
  expect(donation.campaign?.name).toBe(campaignName);

  // The donations list filters by the campaign.
  await page.goto('/portal/donations');
  const donations = page.locator('twofold-donations');
  await donations.getByLabel('Campaign', { exact: true }).selectOption({ label: campaignName });
  await expect(donations.getByText('1 Found')).toBeVisible();
  await expect(donations.getByText(`Casey Campaign ${stamp}`)).toBeVisible();

  // The match dialog (opened from its row) shows the doubled estimate and the campaign.
  await donations
    .getByRole('row')
    .filter({ hasText: `Casey Campaign ${stamp}` })
    .click();
  const match = page.getByRole('dialog', { name: `Match #${donation.id}` });
  await expect(match).toBeVisible();
  await expect(match.getByText('$200.00')).toBeVisible();
  await expect(match.getByText(campaignName)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(match).toBeHidden();
  await page.goto('/portal/campaigns');

  // A row opens the campaign to edit; Delete asks first, then removes it.
  await row.getByRole('button', { name: campaignName }).click();
  await expect(dialog.getByLabel('Campaign name')).toHaveValue(campaignName);
  await dialog.getByLabel('Match ratio').fill('3:1');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('3:1');
  await row.getByRole('button', { name: campaignName }).click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete campaign' });
  await expect(confirm.getByText(/Are you sure you want to delete this campaign/)).toBeVisible();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(row).toHaveCount(0);
});

test('works 390 px wide without sideways scroll', async ({ page }) => {
  await signIn(page, 'admin@twofold.test');
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto('/portal/campaigns');
  await expect(screen(page).getByRole('button', { name: 'Add Campaign' })).toBeVisible();
  const overflow = () =>
    page.evaluate(() => {
      const inner = document.querySelector('twofold-campaigns')?.shadowRoot?.firstElementChild;
      return inner ? inner.scrollWidth - inner.clientWidth : Number.NaN;
    });
  await expect.poll(overflow).toBeLessThanOrEqual(0);
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth))
    .toBeLessThanOrEqual(0);
  await screen(page).getByRole('button', { name: 'Add Campaign' }).click();
  await expect(page.getByRole('dialog', { name: 'Match Campaign' })).toBeVisible();
  await expectNoAxeViolations(page);
});
