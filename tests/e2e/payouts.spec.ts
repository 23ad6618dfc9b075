import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { demoPassword, expectNoAxeViolations, signIn } from './support.ts';

// Issue 13 as a new user tries it: verify five matches from the queue at once, then upload a
// vendor's payout report with an exact, an ambiguous and an unknown line, resolve the ambiguous
// one, confirm, and see the matches completed and the dashboard's received figure change.
// Acme Analytics is the demo catalogue's first company: a 'form' company (NPO to Verify/Sign).
test.describe.configure({ mode: 'serial' });

const stamp = Date.now().toString(36);
const year = new Date().getFullYear();
const company = 'Acme Analytics';

async function adminApi(request: APIRequestContext) {
  const login = await request.post('/api/auth/login', {
    data: { email: 'admin@twofold.test', password: demoPassword },
  });
  expect(login.ok()).toBe(true);
  const { access_token: token, me } = await login.json();
  const hopeId = me.orgs.find((o: { name: string }) => o.name === 'Hope Harbor Foundation').id as number;
  return { headers: { authorization: `Bearer ${token}` }, hopeId };
}

async function createMatch(
  request: APIRequestContext,
  api: Awaited<ReturnType<typeof adminApi>>,
  donor: { name: string; email: string },
  amount: number,
  day: string,
) {
  const res = await request.post(`/api/organization/${api.hopeId}/donation`, {
    headers: api.headers,
    data: { id: 0, donated_at: `${day} 12:00:00`, amount, donor, company_name: company },
  });
  expect(res.status()).toBe(201);
  const { donation } = await res.json();
  expect(donation.status_id).toBe(3);
  return donation.id as number;
}

async function statusOf(request: APIRequestContext, api: Awaited<ReturnType<typeof adminApi>>, id: number) {
  const res = await request.get(`/api/donation/${id}`, { headers: api.headers });
  return (await res.json()).donation as {
    status_id: number;
    paid_amount: number | null;
    paid_at: string | null;
  };
}

async function noSidewaysScroll(page: Page, tag: string) {
  await page.setViewportSize({ width: 390, height: 900 });
  await expect
    .poll(() =>
      page.evaluate((tagName) => {
        const inner = document.querySelector(tagName)?.shadowRoot?.firstElementChild;
        return inner ? inner.scrollWidth - inner.clientWidth : Number.NaN;
      }, tag),
    )
    .toBeLessThanOrEqual(0);
  await expect
    .poll(() =>
      page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    )
    .toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('five matches are verified from the queue at once, and the dashboard tile opens the queue', async ({
  page,
  request,
}) => {
  const api = await adminApi(request);
  const names = [1, 2, 3, 4, 5, 6].map((n) => `Verify Donor ${n} ${stamp}`);
  const ids: number[] = [];
  for (const [i, name] of names.entries())
    ids.push(
      await createMatch(
        request,
        api,
        { name, email: `verify-${i}-${stamp}@example.org` },
        40 + i,
        `${year}-01-0${i + 1}`,
      ),
    );

  await signIn(page, 'admin@twofold.test');
  const tile = page.locator('twofold-dashboard [data-group="npo_verify"] a');
  await expect(tile).toHaveAttribute('href', '/portal/verification');
  await tile.click();
  await expect(page.getByRole('heading', { name: 'Verification Queue', level: 1 })).toBeVisible();
  const group = page.getByRole('region', { name: company });
  const box = (name: string) => group.getByRole('checkbox', { name: new RegExp(`^Select ${name},`) });
  await expect(box(names[0] as string)).toBeVisible();
  await expectNoAxeViolations(page);
  await noSidewaysScroll(page, 'twofold-verification');

  for (const name of names.slice(0, 5)) await box(name).check();
  await expect(page.getByText('5 selected')).toBeVisible();
  await page.getByRole('button', { name: 'Mark verified' }).click();
  // It asks first, in the portal's own dialog (issue #30): verifying cannot be undone.
  const confirmation = page.getByRole('dialog', { name: 'Mark 5 matches verified?' });
  await expect(confirmation).toBeVisible();
  await confirmation.getByRole('button', { name: 'Mark 5 verified' }).click();
  await expect(
    page.locator('twofold-verification').getByRole('status').filter({ hasText: '5 matches verified.' }),
  ).toBeVisible();
  await expect(box(names[0] as string)).toHaveCount(0);
  await expect(box(names[5] as string)).toBeVisible();
  for (const id of ids.slice(0, 5)) expect((await statusOf(request, api, id)).status_id).toBe(4);
  expect((await statusOf(request, api, ids[5] as number)).status_id).toBe(3);
});

test('a payout report is matched, the ambiguous line resolved, and the confirmation completes the matches', async ({
  page,
  request,
}) => {
  const api = await adminApi(request);
  const avery = { name: `Avery Stone ${stamp}`, email: `avery-${stamp}@example.org` };
  const jordan = { name: `Jordan Lee ${stamp}`, email: `jordan-${stamp}@example.org` };
  const exact = await createMatch(request, api, avery, 100, `${year}-01-15`);
  const jordanFirst = await createMatch(request, api, jordan, 50, `${year}-01-20`);
  const jordanSecond = await createMatch(request, api, jordan, 50, `${year}-01-25`);
  const received = async () => {
    const res = await request.get(
      `/api/organization/${api.hopeId}/statistics/insights?from=${year}-01-01&to=${year}-01-31`,
      { headers: api.headers },
    );
    const months = (await res.json()).months as Array<{ month: string; received: number }>;
    return months.find((m) => m.month === `${year}-01`)?.received ?? 0;
  };
  const before = await received();

  // Benevity's usual headers; the Jordan line gives no date, so both of his gifts fit.
  const report = [
    'Company,Donation Date,Donor First Name,Donor Last Name,Email,Transaction ID,Total Donation to be Acknowledged,Match Amount',
    `${company},${year}-01-15,Avery,Stone ${stamp},${avery.email},B-${stamp}-1,100.00,100.00`,
    `${company},,Jordan,Lee ${stamp},${jordan.email},B-${stamp}-2,50.00,50.00`,
    `${company},${year}-01-28,Casey,Nobody ${stamp},casey-${stamp}@example.org,B-${stamp}-3,75.00,75.00`,
  ].join('\n');
  const file = { name: `benevity-${stamp}.csv`, mimeType: 'text/csv', buffer: Buffer.from(report) };

  await signIn(page, 'admin@twofold.test');
  await page.locator('twofold-sidebar').getByRole('link', { name: 'Payouts' }).click();
  await expect(page.getByRole('heading', { name: 'Payouts Received', level: 1 })).toBeVisible();
  await page.getByLabel('Payout report (.csv, .xlsx, .xls)').setInputFiles(file);
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(page.getByText('1 matched, 1 to pick, 1 without a match.')).toBeVisible();
  await expect(page.getByText('(Benevity report)')).toBeVisible();
  // Nothing has changed yet.
  expect((await statusOf(request, api, exact)).status_id).toBe(3);
  await expectNoAxeViolations(page);
  await noSidewaysScroll(page, 'twofold-payouts');

  const jordanChoice = page.getByLabel(`Match for ${jordan.name}`);
  await expect(jordanChoice).toHaveValue('skip');
  await jordanChoice.selectOption({ value: String(jordanSecond) });
  await page.getByLabel(`Match for Casey Nobody ${stamp}`).selectOption({ value: 'create' });
  await page.getByRole('button', { name: 'Confirm payouts' }).click();
  await expect(
    page
      .locator('twofold-payouts')
      .getByRole('status')
      .filter({ hasText: '2 matches completed, 1 new completed match.' }),
  ).toBeVisible();
  await expect(page.getByRole('cell', { name: new RegExp(`benevity-${stamp}\\.csv`) })).toBeVisible();

  const paid = await statusOf(request, api, exact);
  expect(paid).toMatchObject({ status_id: 1, paid_amount: 100 });
  expect((await statusOf(request, api, jordanSecond)).status_id).toBe(1);
  expect((await statusOf(request, api, jordanFirst)).status_id).toBe(3);
  expect(await received()).toBe(before + 150 + 75);

  // The same report again changes nothing.
  await page.getByLabel('Payout report (.csv, .xlsx, .xls)').setInputFiles(file);
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(
    page.getByText('This report was confirmed before: confirming it again changes nothing.'),
  ).toBeVisible();

  // The dashboard shows the received figure beside the expected ones.
  await page.locator('twofold-sidebar').getByRole('link', { name: 'Dashboard' }).click();
  // The trend is a chart; its table (read by screen readers) is shown on request.
  await page
    .getByRole('figure', { name: 'Match dollars by month', exact: true })
    .getByRole('button', { name: 'Show as table' })
    .click();
  const trend = page.getByRole('table', { name: /Estimated match by month/ });
  await expect(trend.getByRole('columnheader', { name: 'Received' })).toBeVisible();
  const january = new Date(year, 0, 1).toLocaleDateString('en-US', { month: 'short', year: 'numeric' });
  const amount = (before + 225).toLocaleString('en-US', { style: 'currency', currency: 'USD' });
  await expect(
    trend.getByRole('row', { name: new RegExp(`^${january}`) }).getByRole('link', { name: amount }),
  ).toBeVisible();
});

// Issue 30: a report of no known vendor is mapped by hand. The second changed column used to
// blank the whole screen (an onChange read the event inside a deferred state update) and lose the
// upload; every change, the third going back to the first column, keeps the mapper and the preview.
test('a report of unknown columns is mapped column by column, and the preview survives each change', async ({
  page,
  request,
}) => {
  const api = await adminApi(request);
  const riley = { name: `Riley Moss ${stamp}`, email: `riley-${stamp}@example.org` };
  await createMatch(request, api, riley, 80, `${year}-02-03`);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));

  const report = [
    'Staff Member,Contact,Org,Sum Matched,Notes',
    `${riley.name},${riley.email},${company},80.00,Q1 match`,
    `Sam Unknown ${stamp},sam-${stamp}@example.org,${company},25.00,`,
  ].join('\n');
  await signIn(page, 'admin@twofold.test');
  await page.locator('twofold-sidebar').getByRole('link', { name: 'Payouts' }).click();
  await page.getByLabel('Payout report (.csv, .xlsx, .xls)').setInputFiles({
    name: `own-sheet-${stamp}.csv`,
    mimeType: 'text/csv',
    buffer: Buffer.from(report),
  });
  await page.getByRole('button', { name: 'Preview' }).click();
  const mapper = page.locator('twofold-payouts');
  await expect(mapper.getByText('The columns of this report are not ones we know.')).toBeVisible();

  const column = (name: string) => mapper.getByRole('combobox', { name, exact: true });
  await column('Staff Member').selectOption({ label: 'Donor email' });
  await expect(column('Staff Member')).toHaveValue('donor_email');
  await column('Contact').selectOption({ label: 'Donor email' });
  await expect(column('Contact')).toHaveValue('donor_email');
  // Two columns on one field: the mapper says so, and is still there.
  await expect(mapper.getByRole('alert').filter({ hasText: 'Mapping Error' })).toBeVisible();
  // Third change, back on the first column.
  await column('Staff Member').selectOption({ label: 'Donor name (full)' });
  await column('Sum Matched').selectOption({ label: 'Amount paid (match)' });
  await column('Org').selectOption({ label: 'Company' });
  await expect(column('Staff Member')).toHaveValue('donor_name');
  await expect(column('Contact')).toHaveValue('donor_email');
  await expect(mapper.getByText('Ready to match.')).toBeVisible();
  expect(errors).toEqual([]);

  await mapper.getByRole('button', { name: 'Match these lines' }).click();
  await expect(mapper.getByText('1 matched, 0 to pick, 1 without a match.')).toBeVisible();
  await expect(mapper.getByRole('cell', { name: new RegExp(riley.name) }).first()).toBeVisible();
  expect(errors).toEqual([]);
});
