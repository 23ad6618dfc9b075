import { expect, test } from '@playwright/test';
import { expectNoAxeViolations, linkFromMailbox, signIn } from './support.ts';

/**
 * The donor's whole path, as issue 5 tells it, across two origins: on a nonprofit's own page
 * (demo/embed on 127.0.0.1:E2E_PORT+1000, hostile CSS) a donor requests a match and reads the
 * next steps; later the FAQ with that match's di and de emails a one-time link; the donor follows
 * it, changes the employer, and the nonprofit's staff see the change and its new status in the
 * portal's table and match dialog.
 */
test('a donor requests a match on a foreign page, corrects the employer through the FAQ link, and staff see it', async ({
  page,
  context,
  baseURL,
}) => {
  const api = new URL(baseURL ?? 'http://localhost:8799');
  const embed = `http://127.0.0.1:${Number(api.port) + 1000}`;
  const stamp = Date.now();
  const email = `journey-${stamp}@example.org`;
  const name = `Jordan Journey ${stamp}`;

  // 1. The match request on the foreign page.
  await page.goto(`${embed}/`);
  const request = page.locator('#match-request');
  const company = request.getByRole('combobox', { name: 'Employer (company)' });
  await company.fill('Birch Tel');
  await request.getByRole('option', { name: 'Birch Telecom' }).click();
  await request.getByLabel('Amount (USD)').fill('180');
  // A recent gift: the staff list opens on the last 90 days.
  const given = new Date(Date.now() - 10 * 86_400_000);
  const givenDay = `${given.getFullYear()}-${String(given.getMonth() + 1).padStart(2, '0')}-${String(given.getDate()).padStart(2, '0')}`;
  await request.getByLabel('Donation date').fill(givenDay);
  await request.getByLabel('Full name').fill(name);
  await request.getByLabel('Email').fill(email);
  const created = page.waitForResponse(
    (r) => r.url().startsWith(`${api.origin}/api/public/match/`) && r.request().method() === 'POST',
  );
  await request.getByRole('button', { name: 'Request My Match' }).click();
  const answer = await created;
  expect(answer.status()).toBe(201);
  const matchId = (await answer.json()).match_id as number;
  await expect(request.getByText('Donor to Submit in Company Portal')).toBeVisible();
  await expect(
    request.getByText('Submit your match request in Birch Telecom’s employee giving portal'),
  ).toBeVisible();
  await expectNoAxeViolations(page);

  // 2. The FAQ with di and de asks for the link and sends the donor to the hosted donor page.
  await page.goto(`${embed}/?di=${matchId}&de=${encodeURIComponent(email)}`);
  const faq = page.locator('#faq');
  await faq
    .getByRole('button', { name: 'My name, email or company is wrong on my match request. How do I fix it?' })
    .click();
  await faq.getByRole('button', { name: 'Email me a secure link to correct my match request' }).click();
  await page.waitForURL(`${api.origin}/portal/donor-match-update/${matchId}`);

  // 3. The one-time link from the mailbox opens the donor form; a new employer re-resolves the status.
  await page.goto(await linkFromMailbox(context, email, `/portal/donor-match-update/${matchId}`));
  await expect(page.getByLabel('Your name')).toHaveValue(name);
  const employer = page.getByRole('combobox', { name: 'Employer (company)' });
  await employer.fill('Acme Biot');
  await page.getByRole('option', { name: 'Acme Biotech' }).click();
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Match information updated successfully.')).toBeVisible();
  await expect(page.getByText('Donor to E-Sign Form')).toBeVisible();
  await expectNoAxeViolations(page);

  // 4. Staff find it in the donations table with the new employer and status, and in the dialog.
  await page.evaluate(() => sessionStorage.clear());
  await signIn(page, 'admin@twofold.test');
  await page.goto('/portal/donations');
  await page.getByLabel('Donor name or email').fill(email);
  await expect(page.getByText(/^1 Found$/)).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('Acme Biotech');
  await expect(row).toContainText('Donor to E-Sign Form');
  await expect(row).toContainText('$180.00');
  await row.click();
  const dialog = page.getByRole('dialog', { name: `Match #${matchId}` });
  await expect(dialog.getByText('Donor to E-Sign Form')).toBeVisible();
  await expect(dialog.getByRole('combobox', { name: /Company/ })).toHaveValue('Acme Biotech');
});
