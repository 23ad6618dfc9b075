import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import * as XLSX from '@e965/xlsx';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { demoPassword, expectNoAxeViolations, signIn } from './support.ts';

// The demo seed has no donations: the journey creates its own through the API as the admin of
// Hope Harbor (which has two chapters). Names carry a per-run stamp so other journeys' donations
// on the same database never match the filters used here.
test.describe.configure({ mode: 'serial' });

const hope = 'Hope Harbor Foundation';
const northShore = 'Hope Harbor Foundation – North Shore Chapter';
const riverside = 'Hope Harbor Foundation – Riverside Chapter';
const stamp = Date.now().toString(36);
const quinn = `Quinn Ashford ${stamp}`;
const rowan = `Rowan Ellis ${stamp}`;
const messyCsv = fileURLToPath(new URL('./fixtures/donations-messy.csv', import.meta.url));

async function adminApi(request: APIRequestContext) {
  const login = await request.post('/api/auth/login', {
    data: { email: 'admin@twofold.test', password: demoPassword },
  });
  expect(login.ok()).toBe(true);
  const { access_token: token, me } = await login.json();
  const hopeId = me.orgs.find((o: { name: string }) => o.name === hope).id as number;
  const headers = { authorization: `Bearer ${token}` };
  const organization = await (await request.get(`/api/organization/${hopeId}`, { headers })).json();
  const chapterId = organization.accessibleOrganizations.find((o: { name: string }) => o.name === northShore)
    .id as number;
  return { headers, hopeId, chapterId };
}

test.beforeAll(async ({ request }) => {
  const { headers, hopeId, chapterId } = await adminApi(request);
  const gifts = [
    { org: hopeId, name: quinn, amount: 1500, date: '2025-02-10T12:00:00Z', company: 'Unknown Employer Co' },
    { org: chapterId, name: rowan, amount: 80, date: '2025-03-05T12:00:00Z', company: 'Another Employer Co' },
    { org: hopeId, name: `Sasha Ito ${stamp}`, amount: 240, date: '2025-04-01T12:00:00Z', company: null },
  ];
  for (const gift of gifts) {
    const created = await request.post(`/api/organization/${gift.org}/donation`, {
      headers,
      data: {
        donated_at: gift.date,
        amount: gift.amount,
        donor: { name: gift.name, email: `${gift.name.split(' ')[0]?.toLowerCase()}-${stamp}@example.org` },
        company_id: null,
        company_name: gift.company,
      },
    });
    expect(created.ok()).toBe(true);
  }
});

const found = (page: Page) => page.getByText(/^\d+ Found$/);
const donorFilter = (page: Page) => page.getByLabel('Donor name or email');
const mapperSelect = (page: Page, column: string) => page.getByLabel(`Upload column ${column} as`);

/** The list opens on the last 90 days; this run's gifts are older, so the journeys clear the filters. */
async function clearFilters(page: Page) {
  await expect(page.getByText('Loading donations...')).toHaveCount(0);
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page.getByLabel('From')).toHaveValue('');
  await expect(page.getByText('Loading donations...')).toHaveCount(0);
}

async function openDonations(page: Page) {
  await page.goto('/portal/donations');
  await expect(page.getByRole('heading', { name: 'Donations', level: 1 })).toBeVisible();
  await clearFilters(page);
}

test('the list shows the organization and chapter donations; the donor filter and the tiles narrow it; axe passes', async ({
  page,
}) => {
  await signIn(page, 'admin@twofold.test');
  await page.getByRole('link', { name: 'Donations', exact: true }).click();
  await expect(page).toHaveURL(/\/portal\/donations$/);
  await expect(page.getByRole('heading', { name: 'Donations', level: 1 })).toBeVisible();
  // spec (Listing options): the list opens on the last 90 days, up to today.
  await expect(found(page)).toBeVisible();
  const today = new Date();
  const day = (d: Date) =>
    `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  await expect(page.getByLabel('To')).toHaveValue(day(today));
  await expect(page.getByLabel('From')).toHaveValue(
    day(new Date(today.getFullYear(), today.getMonth(), today.getDate() - 90)),
  );
  const recent = await found(page).textContent();
  // Clear filters: every donation, the seed's included, is in the count once the first answer is in.
  await clearFilters(page);
  const everything = await found(page).textContent();
  expect(everything).not.toBe(recent);
  expect(everything).not.toBe('0 Found');
  // The seed and other journeys add donations too: this run's are found by their stamp.
  await donorFilter(page).fill(stamp);
  await expect(found(page)).toHaveText('3 Found');
  const quinnRow = page.getByRole('row').filter({ hasText: quinn });
  await expect(quinnRow).toBeVisible();
  await expect(quinnRow.getByRole('cell')).toHaveText([
    'Feb 10, 2025',
    quinn,
    '$1,500.00',
    'Unknown Employer Co',
    hope,
    /.+/,
  ]);
  // A parent's list includes its chapters'.
  await expect(page.getByRole('row').filter({ hasText: rowan })).toContainText(northShore);
  await expectNoAxeViolations(page);

  await donorFilter(page).fill(rowan);
  await expect(found(page)).toHaveText('1 Found');
  await expect(page.getByRole('row').filter({ hasText: quinn })).toHaveCount(0);
  await donorFilter(page).fill('');
  await expect(found(page)).toHaveText(everything ?? '');

  // A tile with gifts in it filters to exactly its count; clicking it again clears it.
  const tiles = page.locator('.donations__tile');
  let chosen = -1;
  let count = '0';
  for (let i = 0; i < 4; i++) {
    count = (await tiles.nth(i).locator('.donations__tile-count').textContent()) ?? '0';
    if (count !== '0') {
      chosen = i;
      break;
    }
  }
  expect(chosen).toBeGreaterThanOrEqual(0);
  const tile = tiles.nth(chosen);
  await tile.click();
  await expect(tile).toHaveAttribute('aria-pressed', 'true');
  await expect(found(page)).toHaveText(`${count} Found`);
  await tile.click();
  await expect(tile).toHaveAttribute('aria-pressed', 'false');
  await expect(found(page)).toHaveText(everything ?? '');

  // A row opens the match detail dialog from the keyboard.
  await donorFilter(page).fill(quinn);
  await expect(found(page)).toHaveText('1 Found');
  await quinnRow.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('a messy CSV goes through the field mapper: proposed map, duplicate targets blocked, rows checked, then uploaded', async ({
  page,
}) => {
  await signIn(page, 'admin@twofold.test');
  await openDonations(page);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  const upload = page.getByRole('dialog', { name: 'Upload Donations' });
  await expect(upload).toBeVisible();
  await expectNoAxeViolations(page);
  await upload.getByLabel('Donations file').setInputFiles(messyCsv);
  await upload.getByRole('button', { name: 'Continue' }).click();

  const mapper = page.getByRole('dialog', { name: 'Field Mapper' });
  await expect(mapper).toBeVisible();
  await expect(mapperSelect(page, 'Gift Amount')).toHaveValue('amount');
  await expect(mapperSelect(page, 'Gift Date')).toHaveValue('donated_at');
  await expect(mapperSelect(page, 'Employer')).toHaveValue('company.name');
  await expect(mapperSelect(page, 'Chapter')).toHaveValue('organization_name');
  await expect(mapper.getByText('$1,200.00')).toBeVisible();
  // The bad amount is listed by row, with the reason; the row lacking only an employer is told
  // apart, with the option that takes it.
  const unreadable = mapper.getByRole('list', { name: 'Rows that cannot be read' });
  await expect(unreadable).not.toContainText('Missing company');
  await expect(unreadable.getByRole('listitem').filter({ hasText: /about fifty|[Aa]mount/ })).toHaveCount(1);
  await expect(mapper.locator('.mapper__missing-company')).toContainText('1 row has no employer');
  await expect(mapper).toContainText('2 rows ready');
  await expectNoAxeViolations(page);

  // Two columns on one target: both dropdowns turn red and Upload is blocked.
  await mapperSelect(page, 'Notes').selectOption('amount');
  await expect(mapper.getByRole('alert')).toHaveText(
    "Mapping Error: One or more fields are mapped to the same column. Look for red dropdown buttons and reassign to 'custom' or 'do not upload'",
  );
  await expect(mapperSelect(page, 'Notes')).toHaveAttribute('aria-invalid', 'true');
  await expect(mapperSelect(page, 'Gift Amount')).toHaveAttribute('aria-invalid', 'true');
  await expect(mapper.getByRole('button', { name: 'Upload' })).toBeDisabled();
  await mapperSelect(page, 'Notes').selectOption('custom.notes');
  await expect(mapper.getByRole('alert')).toHaveCount(0);

  // A parent with chapters must map the organization name.
  await mapperSelect(page, 'Chapter').selectOption('skip');
  await expect(mapper.getByRole('alert')).toHaveText(
    'Missing Required Field: Organization Name is required for this upload.',
  );
  await mapperSelect(page, 'Chapter').selectOption('organization_name');

  // Rows without a company become readable when the user accepts them.
  await mapper.getByLabel(/Import rows without a company/).check();
  await expect(mapper).toContainText('3 rows ready');
  await mapper.getByRole('button', { name: 'Upload' }).click();
  await expect(page.getByText('Upload successful')).toBeVisible();
  await expect(page.getByText('Created 3 donations')).toBeVisible();
  await expect(mapper).toBeHidden();
  // Focus goes back to where the flow started.
  await expect(page.getByRole('button', { name: 'Upload', exact: true })).toBeFocused();

  await donorFilter(page).fill('adaeze.okafor@example.org');
  const okafor = page.getByRole('row').filter({ hasText: 'Okafor, Adaeze' });
  await expect(okafor).toContainText('$1,200.00');
  await expect(okafor).toContainText('Mar 01, 2025');
  await expect(okafor).toContainText(hope);
  await donorFilter(page).fill('Celestine Moreau');
  await expect(page.getByRole('row').filter({ hasText: 'Celestine Moreau' })).toContainText(riverside);
  await donorFilter(page).fill('Benedikt Varga');
  await expect(page.getByRole('row').filter({ hasText: 'Benedikt Varga' })).toContainText('$75.50');
});

test('an XLSX file with real date cells uploads the same way', async ({ page }) => {
  const sheet = XLSX.utils.aoa_to_sheet(
    [
      ['Full Name', 'Email', 'Donation Amount', 'Donation Date', 'Company Name', 'Organization'],
      [
        `Xavier Lund ${stamp}`,
        `xavier-${stamp}@example.org`,
        310,
        new Date(Date.UTC(2025, 5, 14)),
        'Initech',
        hope,
      ],
      [
        `Yara Quist ${stamp}`,
        `yara-${stamp}@example.org`,
        45.5,
        new Date(Date.UTC(2025, 5, 15)),
        'Globex',
        northShore,
      ],
    ],
    { cellDates: true },
  );
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, 'Gifts');
  const buffer = XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;

  await signIn(page, 'admin@twofold.test');
  await openDonations(page);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  const upload = page.getByRole('dialog', { name: 'Upload Donations' });
  await upload.getByLabel('Donations file').setInputFiles({
    name: 'gifts.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer,
  });
  await upload.getByRole('button', { name: 'Continue' }).click();
  const mapper = page.getByRole('dialog', { name: 'Field Mapper' });
  await expect(mapper).toBeVisible();
  await expect(mapperSelect(page, 'Organization')).toHaveValue('organization_name');
  await expect(mapper).toContainText('2 rows ready');
  await mapper.getByRole('button', { name: 'Upload' }).click();
  await expect(page.getByText('Created 2 donations')).toBeVisible();

  await donorFilter(page).fill(stamp);
  await expect(page.getByRole('row').filter({ hasText: `Xavier Lund ${stamp}` })).toContainText(
    'Jun 14, 2025',
  );
  await expect(page.getByRole('row').filter({ hasText: `Yara Quist ${stamp}` })).toContainText('$45.50');
});

test('Download CSV exports what the filters show', async ({ page }) => {
  await signIn(page, 'admin@twofold.test');
  await openDonations(page);
  await donorFilter(page).fill(quinn);
  await expect(found(page)).toHaveText('1 Found');
  // The link opens in a new tab (noopener); Chromium reports the file's download on the opener.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^donations-.*\.csv$/);
  const text = await readFile(await file.path(), 'utf8');
  expect(text.charCodeAt(0)).toBe(0xfeff);
  const lines = text.slice(1).trim().split(/\r?\n/);
  expect(lines[0]).toContain('Donor Name');
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(quinn);
  expect(text).not.toContain(rowan);
});

test('a read-only user can export but not upload', async ({ page }) => {
  await signIn(page, 'reader@twofold.test');
  await openDonations(page);
  await donorFilter(page).fill(quinn);
  await expect(page.getByRole('row').filter({ hasText: quinn })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Download CSV' })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Upload', exact: true })).toHaveCount(0);
});
