import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations, signIn } from './support.ts';

// The demo data: admin@ is admin of Hope Harbor, writer@ has write on it. Tests run in order on
// one database; each run uses new addresses so the journey can be repeated.
const hope = 'Hope Harbor Foundation';

async function asHopeAdmin(page: Page) {
  await signIn(page, 'admin@twofold.test');
  await page.getByRole('combobox', { name: /organization/i }).selectOption({ label: hope });
  await expect(page.getByRole('navigation').getByText(hope, { exact: true })).toBeVisible();
}

const auditTable = (page: Page) => page.getByRole('table', { name: 'Audit log' });
const auditRow = (page: Page, text: string | RegExp) =>
  auditTable(page).getByRole('row').filter({ hasText: text });

async function openAuditLog(page: Page) {
  await page.goto('/portal/organization-details?tab=audit');
  await expect(page.getByRole('tab', { name: 'Audit log' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('Loading audit log...')).toBeHidden();
}

test('an admin finds their changes and exports in the audit log, filters it and downloads it', async ({
  page,
}) => {
  // A long journey through four screens: more than the default minute on a busy machine.
  test.setTimeout(180_000);
  const volunteer = `audit-${Date.now()}@hopeharbor.example.org`;
  await asHopeAdmin(page);

  // A member's level changes (added at read, raised to write).
  await page.goto('/portal/organization-details?tab=users');
  const form = page.getByRole('form', { name: 'Add User' });
  await form.getByLabel('Email').fill(volunteer);
  await page.getByRole('button', { name: 'Add User' }).click();
  await expect(page.getByText('User added successfully')).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: volunteer });
  await row.getByRole('button', { name: `Edit ${volunteer}` }).click();
  const edit = page.getByRole('form', { name: `Edit ${volunteer}` });
  await edit.getByLabel('Permission Level').selectOption('write');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('User updated successfully')).toBeVisible();

  // An API key is created, then deleted.
  await page.goto('/portal/integrations');
  await page.getByRole('button', { name: 'Manage API Keys' }).click();
  const keys = page.getByRole('dialog', { name: 'Manage API Keys' });
  await keys.getByRole('button', { name: 'Create new key' }).click();
  await expect(page.getByText('New API key created successfully')).toBeVisible();
  const whole = (await keys.getByTestId('new-api-key').textContent())?.trim() ?? '';
  const prefix = whole.slice(0, 11);
  await keys.getByRole('button', { name: `Delete key ${prefix}` }).click();
  await page
    .getByRole('dialog', { name: 'Delete this API key?' })
    .getByRole('button', { name: 'Delete API key' })
    .click();
  await expect(keys.getByRole('button', { name: `Delete key ${prefix}` })).toHaveCount(0);
  await page.keyboard.press('Escape');

  // The matches are exported.
  await page.goto('/portal/donations');
  await expect(page.getByText(/\d+ Found/)).toBeVisible();
  const exported = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  await exported;

  // Each is in the log, newest first, with who did it.
  await openAuditLog(page);
  const changed = auditRow(page, `Changed ${volunteer} from read to write`);
  await expect(changed).toContainText('Access level changed');
  await expect(changed).toContainText('admin@twofold.test');
  await expect(auditRow(page, `Created API key ${prefix}…`)).toContainText('API key created');
  await expect(auditRow(page, `Removed API key ${prefix}…`)).toContainText('API key removed');
  const exportRow = auditRow(page, /Exported \d+ matches as CSV/).first();
  await expect(exportRow).toContainText('Matches exported');
  // Newest first: the export came last.
  await expect(auditTable(page).getByRole('row').nth(1)).toContainText('Matches exported');
  await exportRow.getByText('Details').click();
  await expect(exportRow.getByText('format')).toBeVisible();
  await expectNoAxeViolations(page);

  // Filter by kind, then by person; each filter twice, back and forth.
  const kind = page.getByLabel('Event', { exact: true });
  await kind.selectOption({ label: 'API key removed' });
  await expect(auditRow(page, `Removed API key ${prefix}…`)).toBeVisible();
  await expect(auditRow(page, 'Access level changed')).toHaveCount(0);
  await kind.selectOption({ label: 'Access level changed' });
  await expect(changed).toBeVisible();
  await expect(auditRow(page, 'API key removed')).toHaveCount(0);
  await kind.selectOption({ label: 'Every event' });
  const person = page.getByLabel('Person');
  await person.selectOption({ label: volunteer });
  await expect(changed).toBeVisible();
  await expect(auditRow(page, `Gave ${volunteer} read access`)).toBeVisible();
  await expect(auditRow(page, 'API key')).toHaveCount(0);
  await person.selectOption({ label: 'Everyone' });
  await expect(auditRow(page, `Created API key ${prefix}…`)).toBeVisible();

  // A date range the entries are not in: nothing; cleared, all back.
  await page.getByLabel('To').fill('2020-01-01');
  await expect(page.getByText('No entries match these filters.')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(changed).toBeVisible();

  // The CSV of the filtered log.
  await kind.selectOption({ label: 'Access level changed' });
  await expect(auditRow(page, 'API key')).toHaveCount(0);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^audit-log-\d+-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = await readFile(await file.path(), 'utf8');
  expect(text.charCodeAt(0)).toBe(0xfeff);
  const lines = text.slice(1).trim().split(/\r?\n/);
  expect(lines[0]).toBe('Time (UTC),Event,Kind,By,About,Summary,Details,IP Address');
  expect(text).toContain(`Changed ${volunteer} from read to write`);
  expect(text).not.toContain('API key');

  // The export itself is in the log.
  await kind.selectOption({ label: 'Audit log exported' });
  await expect(
    auditRow(page, 'Exported 1 audit log entry as CSV')
      .or(auditRow(page, /Exported \d+ audit log entries as CSV/))
      .first(),
  ).toBeVisible();

  // Another tab and back: the log loads again.
  await page.getByRole('tab', { name: 'Users' }).click();
  await page.getByRole('tab', { name: 'Audit log' }).click();
  await expect(page.getByLabel('Event', { exact: true })).toHaveValue('');
  await expect(changed).toBeVisible();
});

test('the audit log works at phone width and pages with Load more', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await asHopeAdmin(page);
  // More entries than a page holds (50): keys created and deleted through the API, as the
  // Integrations screen does, with the signed-in admin's token.
  await page.evaluate(async () => {
    const token = localStorage.getItem('auth_token');
    const org = localStorage.getItem('currentOrganizationId');
    const headers = { authorization: `Bearer ${token}` };
    for (let i = 0; i < 26; i += 1) {
      const created = await fetch(`/api/organization/${org}/api-key`, { method: 'POST', headers });
      const { api_key } = (await created.json()) as { api_key: { id: number } };
      await fetch(`/api/organization/${org}/api-key/${api_key.id}`, { method: 'DELETE', headers });
    }
  });
  await openAuditLog(page);
  await expect(auditTable(page).getByRole('row').nth(1)).toBeVisible();
  const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(sideways).toBeLessThanOrEqual(0);
  await expectNoAxeViolations(page);
  // Rows are cards below 600 px: each cell under its column's name.
  const firstCell = auditTable(page).getByRole('row').nth(1).getByRole('cell').first();
  await expect(firstCell).toHaveCSS('display', 'block');
  // One page (50 rows and the header), then Load more: the next page follows, and the focus moves
  // to its first row.
  await expect(auditTable(page).getByRole('row')).toHaveCount(51);
  await page.getByRole('button', { name: 'Load more' }).click();
  await expect.poll(() => auditTable(page).getByRole('row').count()).toBeGreaterThan(51);
  await expect(auditTable(page).getByRole('row').nth(51)).toBeFocused();
  const sidewaysAfter = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(sidewaysAfter).toBeLessThanOrEqual(0);
});

test('writers are not offered the audit log, even by its address', async ({ page }) => {
  await signIn(page, 'writer@twofold.test');
  await page.goto('/portal/organization-details?tab=audit');
  await expect(page.getByRole('tab', { name: 'Basic' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tab', { name: 'Audit log' })).toHaveCount(0);
});
