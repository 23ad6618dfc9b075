import { expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations, linkFromMailbox, signIn } from './support.ts';

const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const founder = 'founder@lighthouse-literacy.example.org';
const password = 'lighthouse-2026';
const name = 'Lighthouse Literacy Project';

/** Registers a nonprofit through the public API, as the registration form does, and sets the contact's password. */
async function registerAndSetPassword(page: Page) {
  const unique = String(Date.now());
  const csrf = await page.request.get('/api/csrf-token');
  expect(csrf.ok()).toBe(true);
  const { csrf_token } = (await csrf.json()) as { csrf_token: string };
  const registered = await page.request.post('/organization/register', {
    headers: { Authorization: `Bearer ${csrf_token}`, 'X-CSRF-Token': csrf_token },
    data: {
      return_json: 1,
      name,
      type: 'non-profit',
      phone: '(207) 555-0110',
      mission: 'Free reading tutors for adults along the coast of Maine.',
      // Unique per run, so no other journey's organization counts as the same one.
      ein: `${unique.slice(-9, -7)}-${unique.slice(-7)}`,
      url: 'https://lighthouse-literacy.example.org',
      address: { street: '5 Harbor Road', city: 'Portland', state: 'ME', zip: '04101', country: 'US' },
      categoryId: [11],
      contact_name: 'Fran Founder',
      contact_email: founder,
    },
  });
  expect(registered.ok()).toBe(true);
  expect(await registered.json()).toMatchObject({ registered: true });

  const link = await linkFromMailbox(page.context(), founder, '/portal/reset-password');
  await page.goto(link);
  await page.getByLabel('New Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm New Password').fill(password);
  await expect(page.getByRole('heading', { name: 'Create Your Password' })).toBeVisible();
  await page.getByRole('button', { name: 'Create Password' }).click();
  await expect(page.getByText('Password Created').first()).toBeVisible();
}

const card = (page: Page) => page.getByRole('region', { name: 'Finish these steps to enable matching!' });

test('a new organization follows the setup card to Mark Setup Complete and the welcome card', async ({
  page,
}) => {
  await registerAndSetPassword(page);
  await signIn(page, founder, password);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByText(name)).toBeVisible();

  // Registration filled details, categories and address: a logo and a plan remain.
  await expect(card(page)).toBeVisible();
  await expect(card(page).getByText('Step 1 of 2')).toBeVisible();
  await expect(card(page).getByRole('heading', { name: 'Logo' })).toBeVisible();
  await expect(card(page).getByRole('listitem').and(page.locator('[aria-current="step"]'))).toHaveCount(1);
  await card(page).getByRole('button', { name: 'Next' }).click();
  await expect(card(page).getByText('Step 2 of 2')).toBeVisible();
  await expect(card(page).getByRole('link', { name: /Choose a plan/ })).toHaveAttribute(
    'href',
    '/portal/billing',
  );
  await expect(card(page).getByRole('button', { name: 'Done' })).toBeVisible();
  await card(page).getByRole('button', { name: 'Previous' }).click();
  await expect(card(page).getByText('Step 1 of 2')).toBeVisible();
  await expectNoAxeViolations(page);

  // Emptying the phone brings the details step back; its Configure link leads to the basic tab.
  await page.goto('/portal/organization-details?tab=basic');
  await page.getByLabel('Phone', { exact: true }).fill('');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Organization updated successfully!')).toBeVisible();
  await page.getByRole('link', { name: 'Dashboard' }).click();
  await expect(card(page).getByText('Step 1 of 3')).toBeVisible();
  await expect(card(page).getByRole('heading', { name: 'Organization details' })).toBeVisible();
  await card(page)
    .getByRole('link', { name: /Configure/ })
    .click();
  await expect(page).toHaveURL(/\/portal\/organization-details\?tab=basic$/);
  await expect(page.getByRole('tab', { name: 'Basic' })).toHaveAttribute('aria-selected', 'true');
  await page.getByLabel('Phone', { exact: true }).fill('(207) 555-0110');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Organization updated successfully!')).toBeVisible();

  // The logo step's Configure link leads to the files tab.
  await page.getByRole('link', { name: 'Dashboard' }).click();
  await expect(card(page).getByText('Step 1 of 2')).toBeVisible();
  await card(page)
    .getByRole('link', { name: /Configure/ })
    .click();
  await expect(page).toHaveURL(/\/portal\/organization-details\?tab=files$/);
  await expect(page.getByRole('tab', { name: 'Files' })).toHaveAttribute('aria-selected', 'true');
  await page.getByLabel('Logo file').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png });
  await page.getByRole('button', { name: 'Upload Logo' }).click();
  await expect(page.getByText('Logo uploaded successfully')).toBeVisible();

  await page.getByRole('link', { name: 'Dashboard' }).click();
  await expect(card(page).getByText('Step 1 of 1')).toBeVisible();
  await expect(card(page).getByRole('heading', { name: 'Choose a plan' })).toBeVisible();

  // The plan step's link leads to the billing screen, where the free plan is chosen for real.
  await card(page)
    .getByRole('link', { name: /Choose a plan/ })
    .click();
  await expect(page).toHaveURL(/\/portal\/billing$/);
  await page
    .getByRole('listitem', { name: 'Free', exact: true })
    .getByRole('button', { name: 'Choose Free' })
    .click();
  await expect(page.getByRole('status').filter({ hasText: 'You are now on the Free plan.' })).toBeVisible();
  await page.getByRole('link', { name: 'Dashboard' }).click();
  const markComplete = card(page).getByRole('button', { name: 'Mark Setup Complete' });
  await expect(markComplete).toBeVisible();
  await expectNoAxeViolations(page);

  // spec: debounced 2 s: two clicks send one update.
  const puts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'PUT' && r.url().includes('/partial')) puts.push(r.url());
  });
  await markComplete.click();
  await markComplete.click();
  await expect(card(page)).toBeHidden({ timeout: 10_000 });
  expect(puts).toHaveLength(1);
  expect(new URL(puts[0] as string).searchParams.get('complete')).toBe('true');

  const welcome = page.getByRole('region', { name: `Welcome ${name},` });
  await expect(welcome).toBeVisible();
  await expect(welcome.getByRole('link', { name: 'Add users' })).toHaveAttribute(
    'href',
    '/portal/organization-details?tab=users',
  );
  await expect(welcome.getByRole('link', { name: 'Set up inbound match requests' })).toHaveAttribute(
    'href',
    '/portal/integrations',
  );
  const matching = welcome.getByRole('link', { name: /Visit your matching page/ });
  await expect(matching).toHaveAttribute('href', '/match/lighthouse-literacy project');
  await expect(matching).toHaveAttribute('target', '_blank');
  await expectNoAxeViolations(page);
});

test('the setup card is hidden for a complete organization', async ({ page }) => {
  await signIn(page, 'writer@twofold.test');
  await expect(page.getByText('Hope Harbor Foundation', { exact: true }).first()).toBeVisible();
  await expect(card(page)).toHaveCount(0);
  // Onboarded 120 days ago: no welcome card either.
  await expect(page.getByRole('region', { name: /^Welcome / })).toHaveCount(0);
});
