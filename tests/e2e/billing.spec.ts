import { expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations, signIn } from './support.ts';

const setupCard = (page: Page) =>
  page.getByRole('region', { name: 'Finish these steps to enable matching!' });
const plan = (page: Page, name: string) => page.getByRole('listitem', { name, exact: true });

async function asMapleAdmin(page: Page) {
  await signIn(page, 'admin@twofold.test');
  await page.getByRole('combobox', { name: /organization/i }).selectOption({ label: 'Maple Street PTA' });
  await expect(page.getByRole('navigation').getByText('Maple Street PTA', { exact: true })).toBeVisible();
}

test('an admin without a plan tries a paid one (no card payments here) and then chooses Free for real', async ({
  page,
}) => {
  await asMapleAdmin(page);
  // Maple Street has not chosen a plan: the setup card's last step asks for one.
  await expect(setupCard(page).getByText('Step 1 of 3')).toBeVisible();
  await setupCard(page).getByRole('button', { name: 'Next' }).click();
  await setupCard(page).getByRole('button', { name: 'Next' }).click();
  await expect(setupCard(page).getByText('Step 3 of 3')).toBeVisible();
  await expect(setupCard(page).getByRole('heading', { name: 'Choose a plan' })).toBeVisible();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Billing' }).click();
  await expect(page).toHaveURL(/\/portal\/billing$/);
  await expect(page.getByRole('heading', { name: 'Choose a plan', level: 1 })).toBeVisible();
  await expect(page.getByText('Your organization has not chosen a plan yet.')).toBeVisible();
  await expect(page.locator('[aria-current="true"]')).toHaveCount(0);
  await expect(plan(page, 'Growing')).toContainText('3% of eligible match requests');
  await expect(plan(page, 'Full Price')).toContainText('5% of eligible match requests');
  await expect(
    plan(page, 'Custom').getByRole('link', { name: 'Talk to us about a custom plan' }),
  ).toHaveAttribute('href', '/portal/contact');
  await expectNoAxeViolations(page);

  // This server has no payment provider: the paid plan comes back with the reason, nothing changes.
  await plan(page, 'Flat $20').getByRole('button', { name: 'Choose Flat $20' }).click();
  await expect(page.locator('twofold-billing').getByRole('alert')).toHaveText(
    'Card payments are not set up on this server yet; choose the free plan or contact us.',
  );
  await expect(page).toHaveURL(/\/portal\/billing$/);
  await expect(page.getByText('Your organization has not chosen a plan yet.')).toBeVisible();

  // Read before the click: the page navigates away while the subscribe link is followed.
  const sessionToken = await page.evaluate(() => localStorage.getItem('auth_token'));
  const subscribe = page.waitForRequest((r) => r.url().includes('/subscribe/flat_0'));
  await plan(page, 'Free').getByRole('button', { name: 'Choose Free' }).click();
  const opened = new URL((await subscribe).url());
  expect(opened.pathname).toMatch(/^\/api\/organization\/\d+\/subscribe\/flat_0$/);
  // A five-minute link for this one navigation, never the session token (issue #29).
  expect(opened.searchParams.get('token')).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  expect(sessionToken).toBeTruthy();
  expect(opened.searchParams.get('token')).not.toBe(sessionToken);

  await expect(page.getByRole('status').filter({ hasText: 'You are now on the Free plan.' })).toBeVisible();
  await expect(page).toHaveURL(/\/portal\/billing$/);
  await expect(plan(page, 'Free')).toHaveAttribute('aria-current', 'true');
  await expect(plan(page, 'Free').getByText('Current plan')).toBeVisible();
  await expect(plan(page, 'Free').getByRole('button')).toHaveCount(0);
  await expect(page.getByText('Your organization is on the Free plan ($0 / month).')).toBeVisible();
  await expectNoAxeViolations(page);

  // The dashboard's setup card no longer has a billing step: the contact and logo steps remain.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
  await expect(setupCard(page).getByText('Step 1 of 2')).toBeVisible();
  await expect(setupCard(page).getByRole('heading', { name: 'Choose a plan' })).toHaveCount(0);
  await setupCard(page).getByRole('button', { name: 'Next' }).click();
  await expect(setupCard(page).getByText('Step 2 of 2')).toBeVisible();
  await expect(setupCard(page).getByRole('heading', { name: 'Choose a plan' })).toHaveCount(0);
});

test('a reader sees the plans and the explanation, with every choice disabled', async ({ page }) => {
  await signIn(page, 'reader@twofold.test');
  await page.goto('/portal/billing');
  await expect(page.getByRole('heading', { name: 'Choose a plan', level: 1 })).toBeVisible();
  const explanation = page.getByText('Only admins of this organization can change its plan.', {
    exact: false,
  });
  await expect(explanation).toBeVisible();
  // Hope Harbor is on Full Price (5% of eligible match requests): every other plan is a choice.
  await expect(page.locator('[aria-current="true"]').getByText('Current plan')).toBeVisible();
  const choose = page.getByRole('button', { name: /^Choose / });
  await expect(choose).toHaveCount(8);
  for (const button of await choose.all()) {
    await expect(button).toBeDisabled();
    await expect(button).toHaveAccessibleDescription(/Only admins of this organization can change its plan/);
  }
  await expect(page.getByRole('link', { name: 'Manage billing' })).toHaveCount(0);
  // The per-match plan's bills: the demo's submitted matches are on this month's open bill.
  const bills = page.getByRole('region', { name: 'Monthly bills' });
  const thisMonth = bills.getByRole('row').filter({ hasText: 'Full Price' }).filter({ hasText: 'Open' });
  await expect(thisMonth).toHaveCount(1);
  await expect(thisMonth.getByRole('cell').nth(2)).toHaveText(/^[1-9]\d* \(\$[\d,]+\.\d\d\)$/);
  await expectNoAxeViolations(page);
});

test('an admin opens Manage billing and the Stripe setup steps', async ({ page }) => {
  await signIn(page, 'admin@twofold.test');
  await page.goto('/portal/billing');
  // Hope Harbor has no card subscription: the billing portal explains instead of failing.
  await page.getByRole('link', { name: 'Manage billing' }).click();
  await expect(page.locator('twofold-billing').getByRole('alert')).toHaveText(
    'Card payments are not set up on this server yet; choose the free plan or contact us.',
  );

  await page.getByRole('link', { name: 'Set up card payments for your own donation pages' }).click();
  await expect(page).toHaveURL(/\/portal\/stripe-setup$/);
  await expect(
    page.getByRole('heading', { name: 'Set up card payments with Stripe', level: 1 }),
  ).toBeVisible();
  for (const step of [1, 2, 3, 4, 5]) {
    await expect(page.getByRole('heading', { name: new RegExp(`^Step ${step}: `), level: 2 })).toBeVisible();
  }
  // Step 4: the key pair lives in the organization's settings.
  await expect(page.getByRole('link', { name: 'Organization → Settings' })).toHaveAttribute(
    'href',
    '/portal/organization-details?tab=settings',
  );
  await expectNoAxeViolations(page);
  await page.getByRole('link', { name: 'Back to plans and billing' }).click();
  await expect(page.getByRole('heading', { name: 'Choose a plan', level: 1 })).toBeVisible();
});
