import { expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations, signIn } from './support.ts';

// The demo catalogue: Birch Telecom matches through a CSR portal, so a $500 gift to Hope Harbor
// resolves to 7 Donor to Submit in Company Portal, whose email is template 7.
const portalCompany = 'Birch Telecom';

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

test('customise template 7 in version A, make it live, and a new match emails the new text; confirm moves it to Donor Engaged', async ({
  page,
  context,
}) => {
  await signIn(page, 'admin@twofold.test');
  const s = await session(page);

  // The template cards, then template 7's editor.
  await page.getByRole('link', { name: 'Email Templates' }).click();
  await expect(page).toHaveURL(/\/portal\/email-templates$/);
  await page.getByRole('link', { name: /CSR vendor portal/ }).click();
  await expect(page).toHaveURL(/\/portal\/email-customization\?template=7$/);
  await expect(page.getByRole('heading', { name: 'CSR vendor portal', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Subject')).toHaveJSProperty('readOnly', true);

  // + makes version A, a copy of Default; change its subject and first paragraph, save, go live.
  await page.getByRole('button', { name: 'New version' }).click();
  await expect(page.getByText('New template version created')).toBeVisible();
  // The new version is selected (A on a fresh database).
  await expect(page.getByRole('radio', { checked: true })).not.toHaveText(/^Default/);
  const subject = `Your ${portalCompany} match, {{donor_first_name}} (${Date.now()})`;
  await page.getByLabel('Subject').fill(subject);
  await page
    .getByLabel('Paragraph one')
    .fill('Thank you! One short step in {{matching_employer_name}}’s portal doubles your gift.');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Template saved successfully')).toBeVisible();
  await page.getByRole('switch', { name: 'Live' }).click();
  await expect(page.getByText('Template enabled')).toBeVisible();
  await expectNoAxeViolations(page);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    // On a phone the portal's sidebar is a drawer behind the menu button.
    if (width === 390) await expect(page.getByRole('button', { name: 'Open menu' })).toBeVisible();
    await page.screenshot({ path: `.tmp/templates-editor-${width}.png`, fullPage: true });
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(sideways, `no sideways scroll at ${width} px`).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // A new match at a CSR-portal company.
  const donorEmail = `templates-${Date.now()}@example.org`;
  const created = await page.request.post(`/api/organization/${s.orgId}/donation`, {
    headers: { Authorization: `Bearer ${s.token}` },
    data: {
      id: 0,
      donated_at: '2026-03-05T15:30:00.000Z',
      amount: 500,
      donor: { name: 'Tess Template', email: donorEmail },
      company_name: portalCompany,
    },
  });
  expect(created.status()).toBe(201);
  const { donation } = (await created.json()) as { donation: { id: number; status_id: number } };
  expect(donation.status_id).toBe(7);

  // The dev mailbox has the email with the new text.
  const mailbox = await context.newPage();
  const expected = subject.replace('{{donor_first_name}}', 'Tess');
  await mailbox.goto('/dev/mailbox');
  const row = mailbox.getByRole('row').filter({ hasText: donorEmail });
  await expect(row.getByRole('link', { name: expected })).toBeVisible();
  await row.getByRole('link', { name: expected }).click();
  await expect(
    mailbox.getByText('Thank you! One short step in Birch Telecom’s portal doubles your gift.'),
  ).toBeVisible();

  // "I've done it": the page asks, the button confirms, the match is at Donor Engaged.
  // (Email buttons open a new tab in a mail client; here the donor follows the link in place.)
  const confirmHref = await mailbox.getByRole('link', { name: "I've done it" }).getAttribute('href');
  expect(confirmHref).toMatch(/\/api\/email\/confirm\?t=/);
  await mailbox.goto(confirmHref as string);
  await expect(mailbox.getByRole('heading', { name: 'Did you submit your gift for a match?' })).toBeVisible();
  await mailbox.getByRole('button', { name: "Yes, I've done it" }).click();
  await expect(mailbox.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
  const got = await page.request.get(`/api/donation/${donation.id}`, {
    headers: { Authorization: `Bearer ${s.token}` },
  });
  const after = (await got.json()) as { donation: { status_id: number; status: { name: string } } };
  expect(after.donation.status_id).toBe(28);
  expect(after.donation.status.name).toBe('Donor Engaged');

  // Clicking again is safe: nothing changes, and the page says so.
  await mailbox.goBack();
  await mailbox.getByRole('button', { name: "Yes, I've done it" }).click();
  await expect(mailbox.getByRole('heading', { name: 'Already recorded' })).toBeVisible();

  // Leave Hope Harbor's template 7 as the other journeys expect it: version A off again.
  await page.getByRole('switch', { name: 'Live' }).click();
  await expect(page.getByText('Template disabled')).toBeVisible();
});

test('email customization without a template goes back to the cards', async ({ page }) => {
  await signIn(page, 'admin@twofold.test');
  await page.goto('/portal/email-customization?template=0');
  await expect(page).toHaveURL(/\/portal\/email-templates$/);
  await expect(page.getByRole('link', { name: /Match deadline approaching/ })).toBeVisible();
});
