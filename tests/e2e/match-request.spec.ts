import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { matchPagePath } from '../../src/contract/setup.ts';
import { demoPassword, expectNoAxeViolations } from './support.ts';

// spec (part 1, section 1): "/match/{organization name in lowercase, with the first space replaced by a hyphen}".
const hopeHarborPage = encodeURI(matchPagePath('Hope Harbor Foundation'));

test('a donor requests a match on the public matching page and reads their employer’s next steps', async ({
  page,
}) => {
  expect(hopeHarborPage).toBe('/match/hope-harbor%20foundation');
  await page.goto(hopeHarborPage);
  await expect(page.getByText('Hope Harbor Foundation', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Double your gift', level: 1 })).toBeVisible();
  await expectNoAxeViolations(page);

  // Nothing filled in: each field says what it needs, and the first takes focus.
  await page.getByRole('button', { name: 'Request My Match' }).click();
  await expect(page.getByText('Company is required')).toBeVisible();
  await expect(page.getByText('Amount is required')).toBeVisible();
  await expect(page.getByText('Donation date is required')).toBeVisible();
  await expect(page.getByText('Donor name is required')).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Employer (company)' })).toBeFocused();

  const company = page.getByRole('combobox', { name: 'Employer (company)' });
  await company.fill('Bi');
  // spec: the search starts after 3 characters.
  await expect(page.getByRole('listbox', { name: 'Companies' }).getByRole('option')).toHaveCount(0);
  await company.fill('Birch Tel');
  // By keyboard: the first suggestion, then Enter.
  await expect(page.getByRole('option', { name: 'Birch Telecom' })).toBeVisible();
  await company.press('ArrowDown');
  await expect(company).toHaveAttribute('aria-activedescendant', /.+/);
  await company.press('Enter');
  await expect(company).toHaveValue('Birch Telecom');
  await expect(page.getByRole('option', { name: 'Birch Telecom' })).toBeHidden();
  await page.getByLabel('Amount (USD)').fill('250');
  await page.getByLabel('Donation date').fill('2025-06-15');
  await page.getByLabel('Transaction ID (optional)').fill(`E2E-${Date.now()}`);
  await page.getByLabel('Full name').fill('Casey Doe');
  await page.getByLabel('Email').fill(`casey-${Date.now()}@example.org`);
  await page.getByRole('button', { name: 'Request My Match' }).click();

  await expect(page.getByRole('heading', { name: 'Thank you! Your match request is in.' })).toBeFocused();
  await expect(page.getByText('Donor to Submit in Company Portal')).toBeVisible();
  await expect(
    page.getByText('Submit your match request in Birch Telecom’s employee giving portal'),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: /Open Birch Telecom’s giving portal/ })).toHaveAttribute(
    'href',
    'https://birch-telecom.example.com/giving',
  );
  // 365 days after the gift, shown as the spec's 'MMM dd, yyyy'.
  await expect(page.getByText('Jun 15, 2026')).toBeVisible();
  await expect(page.getByText('3:1, up to $25,000.00')).toBeVisible();
  await expectNoAxeViolations(page);

  // The nonprofit finds the request in its list.
  const login = await page.request.post('/api/auth/login', {
    data: { email: 'admin@twofold.test', password: demoPassword },
  });
  const { access_token: token, me } = await login.json();
  const orgId = me.orgs.find((o: { name: string }) => o.name === 'Hope Harbor Foundation').id;
  const list = await page.request.get(`/api/organization/${orgId}/donation?filters[donor]=Casey%20Doe`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const { donations } = await list.json();
  expect(donations[0]).toMatchObject({ company_name: 'Birch Telecom', status_id: 7, amount: 250 });
});

test('an employer typed as Other is kept as typed and put on hold until it is known', async ({ page }) => {
  await page.goto(hopeHarborPage);
  const company = page.getByRole('combobox', { name: 'Employer (company)' });
  await company.fill('Tiny Family Bakery');
  await page.getByRole('option', { name: /Other: “Tiny Family Bakery”/ }).click();
  await page.getByLabel('Amount (USD)').fill('40');
  await page.getByLabel('Donation date').fill('2025-09-01');
  await page.getByLabel('Full name').fill('Robin Baker');
  await page.getByLabel('Email').fill(`robin-${Date.now()}@example.org`);
  await page.getByRole('button', { name: 'Request My Match' }).click();
  await expect(page.getByText('Missing Company Hold')).toBeVisible();
  await expect(page.getByText('We do not know Tiny Family Bakery’s matching program yet')).toBeVisible();
});

test('an unknown matching page says so', async ({ page }) => {
  await page.goto('/match/no-such-nonprofit');
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(
    'We could not find this organization’s matching page. Please check the address.',
  );
});

test('a donation confirmation page on another site embeds the element with the gift filled in', async ({
  page,
  baseURL,
}) => {
  const api = new URL(baseURL ?? 'http://localhost:8799');
  const stamp = Date.now();
  // The donation platform's own web server: another origin, loading the standalone element from ours.
  const thanksPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Thank you</title>
<style>body { color: red; font-family: serif; } input { background: black; }</style>
<script type="module" src="${api.origin}/elements/twofold-match-request.js"></script></head>
<body><main><h1>Thank you for your gift</h1>
<twofold-match-request api-base="${api.origin}" organization="hope-harbor foundation" amount="75"
  donated-at="2025-10-02" transaction-id="DP-${stamp}" donor-name="Avery Fields"
  donor-email="avery-${stamp}@example.org"></twofold-match-request></main></body></html>`;
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(thanksPage);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    await page.goto(`http://127.0.0.1:${port}/thanks`);
    await expect(page.getByLabel('Amount (USD)')).toHaveValue('75');
    await expect(page.getByLabel('Donation date')).toHaveValue('2025-10-02');
    await expect(page.getByLabel('Full name')).toHaveValue('Avery Fields');
    await expectNoAxeViolations(page);
    await page.getByRole('combobox', { name: 'Employer (company)' }).fill('Acme Analyt');
    await page.getByRole('option', { name: 'Acme Analytics' }).click();
    const requested = page.evaluate(
      () =>
        new Promise<number>((resolve) =>
          document.addEventListener('twofold-match-requested', (e) => resolve(e.detail.matchId), {
            once: true,
          }),
        ),
    );
    await page.getByRole('button', { name: 'Request My Match' }).click();
    await expect(page.getByText('NPO to Verify/Sign')).toBeVisible();
    expect(await requested).toBeGreaterThan(0);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
