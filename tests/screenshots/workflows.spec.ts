import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { demoPassword, signIn } from '../e2e/support.ts';

/**
 * `npm run screenshots`: the screens issue 30 changed, in the state the change is about (a
 * remapped payout report, the report builder with its errors and arrows, a webhook delivery that
 * failed before it went through, an e-sign company's dialog), at 1280 and 390 px.
 */
const out = 'screenshots';
mkdirSync(out, { recursive: true });
test.describe.configure({ mode: 'serial' });

const widths = [1280, 390] as const;
const stamp = Date.now().toString(36);

async function shoot(page: Page, name: string) {
  for (const width of widths) {
    await page.setViewportSize({ width, height: width > 600 ? 800 : 844 });
    await page.screenshot({ path: `${out}/${name}-${width}.png`, fullPage: true, animations: 'disabled' });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function adminApi(request: APIRequestContext) {
  const login = await request.post('/api/auth/login', {
    data: { email: 'admin@twofold.test', password: demoPassword },
  });
  const { access_token: token, me } = await login.json();
  const hopeId = me.orgs.find((o: { name: string }) => o.name === 'Hope Harbor Foundation').id as number;
  return { headers: { authorization: `Bearer ${token}` }, hopeId };
}

test('payouts: a report of unknown columns, mapped by hand', async ({ page }) => {
  await signIn(page, 'admin@twofold.test');
  await page.goto('/portal/payouts');
  await page.getByLabel('Payout report (.csv, .xlsx, .xls)').setInputFiles({
    name: `own-sheet-${stamp}.csv`,
    mimeType: 'text/csv',
    buffer: Buffer.from(
      'Staff Member,Contact,Org,Sum Matched\nRiley Moss,riley@example.org,Acme Analytics,80.00\n',
    ),
  });
  await page.getByRole('button', { name: 'Preview' }).click();
  const select = (name: string) =>
    page.locator('twofold-payouts').getByRole('combobox', { name, exact: true });
  await select('Staff Member').selectOption({ label: 'Donor name (full)' });
  await select('Contact').selectOption({ label: 'Donor email' });
  await select('Sum Matched').selectOption({ label: 'Amount paid (match)' });
  await expect(page.getByText('Ready to match.')).toBeVisible();
  await shoot(page, 'payouts-mapper');
});

test('report builder: errors shown, then fixed, columns ticked in place', async ({ page }) => {
  await signIn(page, 'admin@twofold.test');
  await page.goto('/portal/reports');
  const builder = page.locator('twofold-report-builder');
  await builder.getByRole('button', { name: 'New Report' }).click();
  await builder.getByRole('button', { name: 'Save Report' }).click();
  await expect(builder.getByText('Report name is required')).toBeVisible();
  await shoot(page, 'reports-form-errors');
  await builder.getByLabel('Report name').fill('Big gifts');
  await builder.getByRole('checkbox', { name: 'Company' }).check();
  await builder.getByRole('checkbox', { name: 'Donor Email' }).check();
  await builder.getByRole('button', { name: 'Move Company up' }).click();
  await expect(builder.getByText('You must select at least one column')).toHaveCount(0);
  await shoot(page, 'reports-form-fixed');
});

test('webhooks: a delivery that failed before it went through lists both attempts', async ({
  page,
  request,
}) => {
  const codes = [503];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const code = codes.shift() ?? 200;
      res.writeHead(code).end(code === 200 ? 'thanks' : 'down for maintenance');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const api = await adminApi(request);
    const created = await request.post(`/api/organization/${api.hopeId}/webhook`, { headers: api.headers });
    expect(created.status(), await created.text()).toBe(201);
    const hooks = (await created.json()).webhooks as Array<{ id: number }>;
    const id = Math.max(...hooks.map((h) => h.id));
    const port = (server.address() as AddressInfo).port;
    const changed = await request.put(`/api/webhook/${id}`, {
      headers: api.headers,
      data: { url: `127.0.0.1:${port}/shot`, event: 'status' },
    });
    expect(changed.status(), await changed.text()).toBe(200);
    const sent = await request.post(`/api/webhook/${id}/test`, { headers: api.headers });
    expect(sent.ok(), await sent.text()).toBe(true);
    // The first attempt meets the 503; the retry 5 s later lands.
    await expect
      .poll(
        async () => {
          const res = await request.get(`/api/webhook/${id}/deliveries`, { headers: api.headers });
          return (await res.json()).deliveries[0]?.status;
        },
        { timeout: 40_000 },
      )
      .toBe('delivered');
    await signIn(page, 'admin@twofold.test');
    await page.goto('/portal/webhooks');
    await page.getByRole('button', { name: 'Deliveries' }).last().click();
    await expect(page.getByText(/^Attempt 2:/).first()).toBeVisible();
    await shoot(page, 'webhooks-attempts');
  } finally {
    await new Promise((done) => server.close(done));
  }
});

test("companies: an e-sign company's dialog in words", async ({ page, request }) => {
  const api = await adminApi(request);
  let name = '';
  for (let p = 1; p <= 20 && !name; p++) {
    const res = await request.get(`/api/companies?page=${p}`, { headers: api.headers });
    const { companies } = (await res.json()) as { companies: Array<{ name: string; match_method: string }> };
    if (companies.length === 0) break;
    name = companies.find((c) => c.match_method === 'esign')?.name ?? '';
  }
  expect(name).not.toBe('');
  await signIn(page, 'admin@twofold.test');
  await page.goto(`/portal/companies`);
  await page.getByLabel('Search companies').fill(name);
  await page.getByRole('button', { name, exact: true }).click();
  await expect(page.getByRole('dialog', { name })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Method' })).toHaveValue('esign');
  await shoot(page, 'company-dialog-esign');
});
