import { expect, type Page, test } from '@playwright/test';
import { demoPassword, expectNoAxeViolations, linkFromMailbox } from './support.ts';

/** A staff session token and a fresh match of Hope Harbor Foundation with a donor of its own. */
async function staffMatch(page: Page) {
  const login = await page.request.post('/api/auth/login', {
    data: { email: 'admin@twofold.test', password: demoPassword },
  });
  const { access_token: token, me } = await login.json();
  const orgId = me.orgs.find((o: { name: string }) => o.name === 'Hope Harbor Foundation').id as number;
  const email = `donor-${Date.now()}@example.org`;
  const created = await page.request.post(`/api/organization/${orgId}/donation`, {
    headers: { authorization: `Bearer ${token}` },
    data: {
      donated_at: '2025-05-10T12:00:00Z',
      amount: 120,
      donor: { name: 'Morgan Giver', email },
      company_id: null,
      company_name: 'Unknown Employer Co',
    },
  });
  expect(created.ok()).toBe(true);
  const { donation } = await created.json();
  return { token: token as string, email, id: donation.id as number };
}

test('a donor asks for a link, opens it, changes their employer and sees the new status; staff see the change', async ({
  page,
  context,
}) => {
  const match = await staffMatch(page);

  // Without a session the page explains the emailed link and offers a new one (GET /api/auth/otp).
  await page.goto(`/portal/donor-match-update/${match.id}`);
  await expect(page.getByRole('heading', { name: 'Edit Your Match Request', level: 1 })).toBeVisible();
  await expect(page.getByText('open the link in the email we sent you')).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByLabel('Email on your match request').fill(match.email.toUpperCase());
  const otp = page.waitForRequest((r) => r.url().includes('/api/auth/otp') && r.method() === 'GET');
  await page.getByRole('button', { name: 'Email me a new link' }).click();
  expect(new URL((await otp).url()).searchParams.get('redirect')).toBe(`/donor-match-update/${match.id}`);
  await expect(page.getByRole('status').filter({ hasText: 'a link to edit it is on its way' })).toBeVisible();

  const link = await linkFromMailbox(context, match.email, `/portal/donor-match-update/${match.id}`);
  expect(new URL(link).searchParams.get('token')).toBeTruthy();
  await page.goto(link);
  await expect(page.getByLabel('Your name')).toHaveValue('Morgan Giver');
  // The one-time token leaves the address once it is spent.
  expect(new URL(page.url()).searchParams.has('token')).toBe(false);
  await expect(page.getByText('$120.00')).toBeVisible();
  await expect(page.getByText('The amount of your gift cannot be changed here.')).toBeVisible();
  await expect(page.getByRole('spinbutton')).toHaveCount(0);
  await expectNoAxeViolations(page);

  // Empty required fields: the spec's message.
  await page.getByLabel('Your name').fill('');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Please fill in all required fields.')).toBeVisible();
  await page.getByLabel('Your name').fill('Morgan A. Giver');

  // A new email warns that it transfers the request; back to the old one, the warning goes.
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill('someone.else@example.org');
  await expect(page.getByText('Changing the email transfers this match request')).toBeVisible();
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(match.email);
  await expect(page.getByText('Changing the email transfers this match request')).toHaveCount(0);

  // The employer from the catalogue: search after 3 characters, pick it.
  const company = page.getByRole('combobox', { name: 'Employer (company)' });
  await company.fill('Acme Biot');
  await page.getByRole('option', { name: 'Acme Biotech' }).click();
  await expect(company).toHaveValue('Acme Biotech');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Match information updated successfully.')).toBeVisible();
  await expect(page.getByText('Donor to E-Sign Form')).toBeVisible();
  await expect(page.getByText('Watch your inbox for an email asking you to e-sign')).toBeVisible();
  await expect(page.getByText('Dec 31, 2025')).toBeVisible();
  await expectNoAxeViolations(page);

  // The nonprofit's staff see the donor's change.
  const staff = await page.request.get(`/api/donation/${match.id}`, {
    headers: { authorization: `Bearer ${match.token}` },
  });
  const { donation } = await staff.json();
  expect(donation).toMatchObject({
    company_name: 'Acme Biotech',
    status_id: 5,
    donor_name: 'Morgan A. Giver',
  });

  // The link worked once: opening it again offers a new one.
  await page.evaluate(() => sessionStorage.clear());
  await page.goto(link);
  await expect(
    page.getByText('This link is invalid, used or expired. Please request a new one.'),
  ).toBeVisible();
});

test('a donor who moves the request to a new email is told it now belongs to that address', async ({
  page,
  context,
}) => {
  const match = await staffMatch(page);
  const answer = await page.request.get(
    `/api/auth/otp?email=${encodeURIComponent(match.email)}&redirect=/donor-match-update/${match.id}`,
  );
  expect(answer.ok()).toBe(true);
  await page.goto(await linkFromMailbox(context, match.email, `/portal/donor-match-update/${match.id}`));
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(`new-${match.email}`);
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('The request now belongs to the new email address')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save Changes' })).toHaveCount(0);
  // The session no longer reaches the match.
  await page.reload();
  await expect(page.getByText('open the link in the email we sent you')).toBeVisible();
});
