import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { expectNoAxeViolations, linkFromMailbox, signIn } from './support.ts';

interface Nonprofit {
  name: string;
  ein: string;
  contactName: string;
  contactEmail: string;
}

/** A nonprofit no other test (or earlier run on a reused database) has registered. */
function newNonprofit(label: string): Nonprofit {
  const unique = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  return {
    name: `${label} ${unique.slice(-6)}`,
    ein: `${unique.slice(-9, -7)}-${unique.slice(-7)}`,
    contactName: `${label} Admin`,
    contactEmail: `admin-${unique}@${label.toLowerCase().replace(/\W+/g, '-')}.example`,
  };
}

/** Fill the registration form as a visitor would, inside `scope` (the page or an embedding page). */
async function fillRegistration(scope: Page | Locator, org: Nonprofit) {
  await scope.getByLabel('Organization Name', { exact: true }).fill(org.name);
  await scope.getByLabel('Organization Type').selectOption({ label: 'Nonprofit' });
  await scope.getByLabel('EIN', { exact: true }).fill(org.ein);
  await scope.getByLabel('Phone', { exact: true }).fill('(555) 010-0100');
  await scope.getByLabel('Website', { exact: true }).fill('https://nonprofit.example.org');
  await scope.getByLabel('Mission Statement').fill('Meals and groceries for families in need.');
  await scope.getByLabel('Street Address', { exact: true }).fill('12 Harbor Way');
  await scope.getByLabel('City', { exact: true }).fill('Salem');
  await scope.getByLabel('State (optional)').fill('MA');
  await scope.getByLabel('ZIP Code (optional)').fill('01970');
  await scope.getByLabel('Country', { exact: true }).selectOption('US');
  await scope.getByLabel('Foodbanks', { exact: true }).check();
  await scope.getByLabel('Human Social Services', { exact: true }).check();
  await scope.getByLabel('Contact Name', { exact: true }).fill(org.contactName);
  await scope.getByLabel('Contact Email', { exact: true }).fill(org.contactEmail);
}

test('a new nonprofit registers, sets a password from the mailbox and signs in to its organization', async ({
  page,
  context,
}) => {
  const org = newNonprofit('Harbor Pantry');
  await page.goto('/portal/register');
  await expect(page.getByRole('heading', { name: 'Register Your Nonprofit', level: 1 })).toBeVisible();
  await expectNoAxeViolations(page);

  // Nothing filled: the spec's messages, and nothing registered.
  await page.getByRole('button', { name: 'Complete Registration' }).click();
  await expect(page.getByText('Organization name is required')).toBeVisible();
  await expect(page.getByText('At least one category must be selected')).toBeVisible();
  await expect(page.getByLabel('Organization Name', { exact: true })).toBeFocused();

  await fillRegistration(page, org);
  await page.getByRole('button', { name: 'Complete Registration' }).click();
  await expect(page.getByRole('heading', { name: 'Registration Complete!' })).toBeVisible();
  await expect(page.getByText(org.contactEmail)).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('csrf_token'))).toBeTruthy();
  await expectNoAxeViolations(page);

  const link = await linkFromMailbox(context, org.contactEmail, '/portal/reset-password');
  await page.goto(link);
  const password = 'harbor-pantry-secret';
  await page.getByLabel('New Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm New Password').fill(password);
  // The 'Create your password' link opens a page titled for that.
  await expect(page.getByRole('heading', { name: 'Create Your Password' })).toBeVisible();
  await page.getByRole('button', { name: 'Create Password' }).click();
  await expect(page.getByRole('heading', { name: 'Password Created' })).toBeVisible();

  await signIn(page, org.contactEmail, password);
  // Its only organization: selected automatically and named in the sidebar.
  await expect(page.getByRole('navigation').getByText(org.name, { exact: true })).toBeVisible();
});

test("registering with an existing account's email makes it the administrator only once its owner confirms", async ({
  page,
  context,
}) => {
  const first = newNonprofit('Tide Pool');
  const second = { ...newNonprofit('Second Tide'), contactEmail: first.contactEmail };
  for (const org of [first, second]) {
    await page.goto('/portal/register');
    await fillRegistration(page, org);
    await page.getByRole('button', { name: 'Complete Registration' }).click();
    await expect(page.getByRole('heading', { name: 'Registration Complete!' })).toBeVisible();
  }
  // The second registration's email asks the account's owner to confirm (the newest mail).
  const confirmation = async () =>
    new URL(await linkFromMailbox(context, first.contactEmail, '/portal/login'));
  await expect.poll(async () => (await confirmation()).searchParams.has('invitation')).toBe(true);
  await page.goto((await confirmation()).href);
  await expect(page.getByRole('heading', { name: `Join ${second.name}` })).toBeVisible();
  await expect(
    page.getByText(
      `${second.name} was registered on Twofold with ${first.contactEmail} as its administrative contact.`,
    ),
  ).toBeVisible();
  await expect(
    page.getByText('You become its administrator only if you accept.', { exact: false }),
  ).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Accept invitation' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(page.getByRole('navigation').getByText(second.name, { exact: true })).toBeVisible();
});

test("registering the same EIN again is 'Already Registered!', naming the administrator", async ({
  page,
}) => {
  const first = newNonprofit('Tidewater Shelter');
  await page.goto('/portal/register');
  await fillRegistration(page, first);
  await page.getByRole('button', { name: 'Complete Registration' }).click();
  await expect(page.getByRole('heading', { name: 'Registration Complete!' })).toBeVisible();

  // Same EIN written without the dash, another name and another contact.
  const again = {
    ...newNonprofit('Tidewater Again'),
    ein: first.ein.replace('-', ''),
  };
  await page.goto('/portal/register');
  await fillRegistration(page, again);
  await page.getByRole('button', { name: 'Complete Registration' }).click();
  await expect(page.getByRole('heading', { name: 'Already Registered!' })).toBeVisible();
  await expect(page.getByText(first.contactEmail)).toBeVisible();
  await expect(page.getByRole('link', { name: 'support@twofold.test' })).toBeVisible();
  await expectNoAxeViolations(page);
});

test('the name field suggests organizations that are already registered', async ({ page }) => {
  await page.goto('/portal/register');
  const name = page.getByRole('combobox', { name: 'Organization Name' });
  await name.fill('Maple');
  const option = page.getByRole('option', { name: 'Maple Street PTA' });
  await expect(option).toBeVisible();
  await expect(name).toHaveAttribute('aria-expanded', 'true');
  await name.press('ArrowDown');
  await name.press('Enter');
  await expect(name).toHaveValue('Maple Street PTA');
  await expect(option).toBeHidden();
});

test('a partner page on another origin embeds the registration element', async ({ page, baseURL }) => {
  const api = new URL(baseURL ?? 'http://localhost:8799');
  // The partner's own web server: another origin, loading the element from ours.
  const partnerPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Partner onboarding</title>
<script type="module" src="${api.origin}/elements/twofold-registration.js"></script>
<script type="module" src="${api.origin}/elements/twofold-toaster.js"></script></head>
<body><main><h1>Partner onboarding</h1>
<twofold-registration api-base="${api.origin}"></twofold-registration><twofold-toaster></twofold-toaster>
</main></body></html>`;
  const partnerServer = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(partnerPage);
  });
  await new Promise<void>((resolve) => partnerServer.listen(0, '127.0.0.1', resolve));
  const { port } = partnerServer.address() as AddressInfo;
  try {
    await page.goto(`http://127.0.0.1:${port}/onboarding`);
    await page.evaluate(() =>
      document.addEventListener('twofold-registered', (e) => {
        (window as unknown as { registered: unknown }).registered = (e as CustomEvent).detail;
      }),
    );
    const org = newNonprofit('Partner Food Bank');
    const element = page.locator('twofold-registration');
    await fillRegistration(element, org);
    await element.getByRole('button', { name: 'Complete Registration' }).click();
    await expect(element.getByRole('heading', { name: 'Registration Complete!' })).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { registered: unknown }).registered)).toEqual({
      registered: true,
      already_registered: false,
      email: org.contactEmail,
    });
    await expect(element.getByRole('link', { name: 'Go to Sign In' })).toHaveAttribute(
      'href',
      `${api.origin}/portal/login`,
    );
  } finally {
    partnerServer.close();
  }
});
