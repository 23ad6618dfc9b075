import { expect, type Page, test } from '@playwright/test';
import { demoPassword, expectNoAxeViolations, linkFromMailbox } from './support.ts';

/** A fresh match of Hope Harbor Foundation, made through the staff API, with a donor of its own. */
async function freshMatch(page: Page) {
  const login = await page.request.post('/api/auth/login', {
    data: { email: 'admin@twofold.test', password: demoPassword },
  });
  const { access_token: token, me } = await login.json();
  const orgId = me.orgs.find((o: { name: string }) => o.name === 'Hope Harbor Foundation').id as number;
  const email = `faq-donor-${Date.now()}@example.org`;
  const created = await page.request.post(`/api/organization/${orgId}/donation`, {
    headers: { authorization: `Bearer ${token}` },
    data: {
      donated_at: '2025-06-01T12:00:00Z',
      amount: 80,
      donor: { name: 'Quinn Asker', email },
      company_id: null,
      company_name: 'Unknown Employer Co',
    },
  });
  expect(created.ok()).toBe(true);
  const { donation } = await created.json();
  return { id: donation.id as number, email };
}

const generalQuestions = [
  'What is Twofold, and what does it do?',
  'My company says it does not match gifts to Vertical Raise. What should I do?',
  'My name, email or company is wrong on my match request. How do I fix it?',
  'My company is not listed. What should I do?',
  'The link in my matching email does not work. What should I do?',
  'Can you confirm that the matching dollars have been received?',
  'My donation is below my company’s minimum. Can it still be matched?',
  'Will my child (or my child’s class) get credit for the matching gift?',
  'Is there a deadline to request a match?',
  'When will the matching gift be paid?',
];

test('/portal/faq?vr&esign&cn=Acme: the title, badge, subtitle and the right entries, without sign-in or sidebar', async ({
  page,
}) => {
  await page.goto('/portal/faq?vr&esign&cn=Acme');
  await expect(page.getByRole('heading', { name: 'Frequently Asked Questions', level: 1 })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/portal/faq');
  await expect(page.locator('twofold-sidebar')).toHaveCount(0);
  await expect(page.locator('[part="badge"]')).toHaveText('Acme');
  await expect(page.getByText('Guidance for donors and nonprofits working with Acme')).toBeVisible();
  await expect(page.locator('[part="logo-strip"]')).toContainText('Vertical Raise');

  const questions = page.locator('.faq__toggle');
  await expect(questions).toHaveText([
    ...generalQuestions.slice(0, 2),
    'What is the role of Vertical Raise?',
    ...generalQuestions.slice(2, 6),
    'How does matching work with Acme?',
    ...generalQuestions.slice(6),
  ]);
  await expect(page.getByRole('button', { name: 'What is the role of Apex Leadership?' })).toHaveCount(0);

  // One open at a time.
  const esign = page.getByRole('button', { name: 'How does matching work with Acme?' });
  await esign.click();
  await expect(esign).toHaveAttribute('aria-expanded', 'true');
  await expect(
    page.getByText('Acme asks for a signed matching gift form, and Twofold prepares it for you.'),
  ).toBeVisible();
  const vr = page.getByRole('button', {
    name: 'My company says it does not match gifts to Vertical Raise. What should I do?',
  });
  await vr.click();
  await expect(esign).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByText('Acme asks for a signed matching gift form')).toBeHidden();
  await expect(page.getByText(/resubmit your match request with the school’s/)).toBeVisible();
  await expectNoAxeViolations(page);

  // Keyboard: the arrows move between questions, Enter opens.
  await vr.focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('button', { name: 'What is the role of Vertical Raise?' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'What is the role of Vertical Raise?' })).toHaveAttribute(
    'aria-expanded',
    'true',
  );
});

test("without parameters: the 'General' badge and only the general entries; the wrong-details answer points to the emails", async ({
  page,
}) => {
  await page.goto('/portal/faq');
  await expect(page.locator('[part="badge"]')).toHaveText('General');
  await expect(page.locator('.faq__toggle')).toHaveText(generalQuestions);
  await page.getByRole('button', { name: generalQuestions[2] }).click();
  await expect(page.getByText(/Use the link in any of the emails Twofold sent you/)).toBeVisible();
  await expect(
    page.getByRole('button', { name: 'Email me a secure link to correct my match request' }),
  ).toHaveCount(0);
});

test('with di and de the donor asks for the link: GET /api/auth/otp goes out, the mail arrives, and the page moves to the donor page', async ({
  page,
  context,
}) => {
  const match = await freshMatch(page);
  await page.goto(`/portal/faq?portal&cn=Acme&di=${match.id}&de=${encodeURIComponent(match.email)}`);
  await page
    .getByRole('button', { name: 'My name, email or company is wrong on my match request. How do I fix it?' })
    .click();
  await expect(page.getByText(/We will email a secure, one-time link/)).toBeVisible();
  await expectNoAxeViolations(page);

  const otp = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/auth/otp');
  await page.getByRole('button', { name: 'Email me a secure link to correct my match request' }).click();
  const response = await otp;
  expect(response.request().method()).toBe('GET');
  expect(response.status()).toBe(200);
  const query = new URL(response.url()).searchParams;
  expect(query.get('email')).toBe(match.email);
  expect(query.get('redirect')).toBe(`/donor-match-update/${match.id}`);

  await page.waitForURL(`**/portal/donor-match-update/${match.id}`);
  await expect(page.getByRole('heading', { name: 'Edit Your Match Request', level: 1 })).toBeVisible();
  const link = await linkFromMailbox(context, match.email, `/portal/donor-match-update/${match.id}`);
  expect(new URL(link).searchParams.get('token')).toBeTruthy();
});
