import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { defineMatchDialog, expectNoAxeViolations, signIn } from './support.ts';

// The demo catalogue (server/db/seed-companies.ts) gives each company its method and policy from
// its position: Acme Analytics (form, matching, no minimum) resolves a gift to 3 NPO to
// Verify/Sign; Acme Biotech (esign, matching) to 5 Donor to E-Sign Form.
const formCompany = 'Acme Analytics';
const esignCompany = 'Acme Biotech';

interface Session {
  token: string;
  orgId: number;
}

/** The signed-in admin's token and current organization (Hope Harbor), as the portal stored them. */
async function session(page: Page): Promise<Session> {
  const read = () =>
    page.evaluate(() => ({
      token: localStorage.getItem('auth_token'),
      orgId: localStorage.getItem('currentOrganizationId'),
    }));
  // The portal stores the organization it selects once it has loaded it.
  await expect.poll(async () => (await read()).orgId, { message: 'the current organization' }).toBeTruthy();
  const stored = await read();
  expect(stored.token).toBeTruthy();
  return { token: stored.token as string, orgId: Number(stored.orgId) };
}

let serial = 0;

/** Creates a match through the API, as an integration would. */
async function createMatch(
  page: Page,
  s: Session,
  fields: { company: string; donor?: string; recurring_id?: string; custom?: Record<string, unknown> },
) {
  serial += 1;
  const response = await page.request.post(`/api/organization/${s.orgId}/donation`, {
    headers: { Authorization: `Bearer ${s.token}` },
    data: {
      id: 0,
      transaction_id: `e2e-match-${Date.now()}-${serial}`,
      donated_at: '2026-03-05T15:30:00.000Z',
      amount: 500,
      donor: { name: fields.donor ?? `Dana Donor ${serial}`, email: `dana${serial}@example.org` },
      company_name: fields.company,
      custom: fields.custom ?? {},
      ...(fields.recurring_id ? { recurring_id: fields.recurring_id } : {}),
    },
  });
  expect(response.status()).toBe(201);
  const { donation } = (await response.json()) as { donation: { id: number; status_id: number } };
  return donation;
}

async function confirm(page: Page, s: Session, id: number, status: string) {
  const response = await page.request.post('/api/donation/confirm', {
    headers: { Authorization: `Bearer ${s.token}` },
    data: { donation_ids: [id], status },
  });
  expect(response.status()).toBe(200);
}

async function getMatch(page: Page, s: Session, id: number) {
  const response = await page.request.get(`/api/donation/${id}`, {
    headers: { Authorization: `Bearer ${s.token}` },
  });
  return {
    status: response.status(),
    body: response.ok() ? ((await response.json()) as { donation: Record<string, unknown> }).donation : null,
  };
}

/**
 * Opens the match in `<twofold-match-dialog donation-id=… open>` on a portal page (the portal's
 * bundle defines the element), recording its events, behind a button that gets focus back.
 */
async function openMatch(page: Page, id: number) {
  await defineMatchDialog(page);
  await page.evaluate((donationId) => {
    const events: Array<{ type: string; id: unknown }> = [];
    (window as unknown as { matchEvents: typeof events }).matchEvents = events;
    const opener = document.createElement('button');
    opener.textContent = 'Open match';
    opener.id = 'opener';
    const el = document.createElement('twofold-match-dialog');
    el.setAttribute('donation-id', String(donationId));
    for (const type of ['twofold-match-closed', 'twofold-match-changed'])
      el.addEventListener(type, (e) =>
        events.push({ type, id: (e as CustomEvent<{ id: unknown }>).detail.id }),
      );
    opener.addEventListener('click', () => el.setAttribute('open', ''));
    document.querySelector('main')?.append(opener, el);
  }, id);
  await page.locator('#opener').focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: `Match #${id}` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Save', exact: true })).toBeVisible();
  return dialog;
}

const events = (page: Page) =>
  page.evaluate(
    () => (window as unknown as { matchEvents: Array<{ type: string; id: unknown }> }).matchEvents,
  );

test.beforeEach(async ({ page }) => {
  await signIn(page, 'admin@twofold.test');
});

test('edit and Save: the fields reach the server and the toast says so', async ({ page }) => {
  const s = await session(page);
  const created = await createMatch(page, s, {
    company: formCompany,
    custom: { team: 'Blue' },
  });
  const dialog = await openMatch(page, created.id);
  await expect(dialog.getByRole('tab', { name: 'Match Details' })).toHaveAttribute('aria-selected', 'true');
  await expect(dialog.getByRole('tab', { name: 'Email Communications' })).toBeVisible();
  await expect(dialog.getByRole('tab', { name: 'Recurring History' })).toHaveCount(0);
  await expect(dialog.getByText('NPO to Verify/Sign')).toBeVisible();
  await expect(dialog.getByText('Ineligible')).toBeVisible();
  await expect(dialog.getByLabel('Company', { exact: true })).toHaveValue(formCompany);
  await expectNoAxeViolations(page);

  await dialog.getByLabel('Donor Name').fill('Dana Q. Donor');
  await dialog.getByLabel('Amount').fill('750.25');
  await dialog.getByLabel('Field 1 value').fill('Green');
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Match saved successfully.')).toBeVisible();

  const saved = await getMatch(page, s, created.id);
  expect(saved.body).toMatchObject({
    amount: 750.25,
    donor_name: 'Dana Q. Donor',
    company_name: formCompany,
    custom: { team: 'Green' },
    status_id: 3,
  });
  expect(await events(page)).toContainEqual({ type: 'twofold-match-changed', id: created.id });
});

test('the company search suggests catalogue companies from 3 characters; choosing one re-resolves the status', async ({
  page,
}) => {
  const s = await session(page);
  const created = await createMatch(page, s, { company: formCompany });
  const dialog = await openMatch(page, created.id);
  const company = dialog.getByRole('combobox', { name: 'Company' });
  await company.fill('Acme Bio');
  const option = dialog.getByRole('option', { name: esignCompany, exact: true });
  await expect(option).toBeVisible();
  await expect(dialog.getByRole('option', { name: 'Other: “Acme Bio”' })).toBeVisible();
  await company.press('ArrowDown');
  await company.press('Enter');
  await expect(company).toHaveValue(esignCompany);
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Match saved successfully.')).toBeVisible();
  await expect(dialog.getByText('Donor to E-Sign Form')).toBeVisible();
});

test('Save & Re-Email reprocesses the match', async ({ page }) => {
  const s = await session(page);
  const created = await createMatch(page, s, { company: formCompany });
  await confirm(page, s, created.id, 'submitted');
  const dialog = await openMatch(page, created.id);
  await expect(dialog.getByText('Submitted', { exact: true })).toBeVisible();
  await dialog.getByRole('button', { name: 'Save & Re-Email' }).click();
  await expect(page.getByText('Match saved and reprocessed successfully.')).toBeVisible();
  // Reprocessing resolves the status again from the company: back to NPO to Verify/Sign.
  await expect(dialog.getByText('NPO to Verify/Sign')).toBeVisible();
  expect((await getMatch(page, s, created.id)).body?.status_id).toBe(3);
});

test('Silence toggles to Un-Silence and back', async ({ page }) => {
  const s = await session(page);
  const created = await createMatch(page, s, { company: formCompany });
  const dialog = await openMatch(page, created.id);
  await dialog.getByRole('button', { name: 'Silence', exact: true }).click();
  await expect(page.getByText('Match silenced successfully.')).toBeVisible();
  expect((await getMatch(page, s, created.id)).body?.silenced).toBe(true);
  await dialog.getByRole('button', { name: 'Un-Silence' }).click();
  await expect(page.getByText('Match un-silenced successfully.')).toBeVisible();
  expect((await getMatch(page, s, created.id)).body?.silenced).toBe(false);
});

test('No Charge is offered on an unbilled match and moves it out of the chargeable statuses', async ({
  page,
}) => {
  const s = await session(page);
  const created = await createMatch(page, s, { company: formCompany });
  const dialog = await openMatch(page, created.id);
  // Status 3 with no bill: No Charge is offered, Refund and Submit for Match are not.
  await expect(dialog.getByRole('button', { name: 'No Charge' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Refund', exact: true })).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: 'Submit for Match' })).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: 'Download Packet' })).toHaveCount(0);

  // No Charge moves it to 13, which is not one of the statuses that offer No Charge.
  await dialog.getByRole('button', { name: 'No Charge' }).click();
  await expect(dialog.getByText('Mark this match No Charge? It will not count on any bill.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Yes, No Charge' }).click();
  await expect(page.getByText('Donation status updated successfully.')).toBeVisible();
  await expect(dialog.getByText('No Charge (internal)')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'No Charge' })).toHaveCount(0);
  expect((await getMatch(page, s, created.id)).body?.status_id).toBe(13);
});

test('Submitted puts the match on the month’s bill (Hope Harbor pays per match); then Refund, once, and the Refunded badge', async ({
  page,
}) => {
  const s = await session(page);
  const created = await createMatch(page, s, { company: formCompany });
  const dialog = await openMatch(page, created.id);
  await expect(dialog.getByText('Ineligible', { exact: true })).toBeVisible();

  // Before anything changes, the dialog says what Submitted will bill (Hope Harbor: 5% per request).
  await dialog.getByRole('button', { name: 'Submitted', exact: true }).click();
  await expect(
    dialog.getByText(
      /^Mark this match Submitted\? It will count on this month’s bill: \$[\d,.]+ \(5% of its estimated match of \$[\d,.]+\)\.$/,
    ),
  ).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).first().click();
  await expect(dialog.locator('.match__confirm')).toHaveCount(0);
  expect((await getMatch(page, s, created.id)).body?.status_id).toBe(3);
  await dialog.getByRole('button', { name: 'Submitted', exact: true }).click();
  await dialog.getByRole('button', { name: 'Yes, Mark Submitted' }).click();
  await expect(page.getByText('Donation status updated successfully.')).toBeVisible();
  await expect(dialog.getByText('Submitted', { exact: true })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Submitted', exact: true })).toHaveCount(0);
  // The reload shows it billed: No Charge is gone, Refund is offered.
  await expect(dialog.getByText('Eligible', { exact: true })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'No Charge' })).toHaveCount(0);
  const submitted = (await getMatch(page, s, created.id)).body;
  expect(submitted?.status_id).toBe(4);
  expect(submitted?.eligible_bill_id).toEqual(expect.any(Number));

  await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
  await expect(
    dialog.getByText(/is credited on this month’s bill\. A refund cannot be undone\.$/),
  ).toBeVisible();
  await dialog.getByRole('button', { name: 'Yes, Refund' }).click();
  await expect(page.getByText('Donation status updated successfully.').last()).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Refunded' })).toBeDisabled();
  await expect(dialog.getByRole('button', { name: 'Refund', exact: true })).toHaveCount(0);
  await expect(dialog.getByText('Refunded (internal)')).toBeVisible();
  const refunded = (await getMatch(page, s, created.id)).body;
  expect(refunded?.status_id).toBe(16);
  expect(refunded?.refunded_bill_id).toEqual(expect.any(Number));
});

test('Submit for Match is offered on a recurring hold and submits it', async ({ page }) => {
  const s = await session(page);
  const created = await createMatch(page, s, { company: formCompany, recurring_id: 'sub_e2e_monthly' });
  expect(created.status_id).toBe(22);
  const dialog = await openMatch(page, created.id);
  await expect(dialog.getByText('Recurring Hold')).toBeVisible();
  await dialog.getByRole('button', { name: 'Submit for Match' }).click();
  await dialog.getByRole('button', { name: 'Yes, Mark Submitted' }).click();
  await expect(page.getByText('Donation status updated successfully.')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Submit for Match' })).toHaveCount(0);
  const after = (await getMatch(page, s, created.id)).body;
  expect(after).toMatchObject({ status_id: 4, recurring_id: 'sub_e2e_monthly' });
});

test('Download Packet saves the e-sign packet as a PDF', async ({ page }) => {
  const s = await session(page);
  const created = await createMatch(page, s, { company: esignCompany });
  expect(created.status_id).toBe(5);
  await confirm(page, s, created.id, 'submitted');
  const dialog = await openMatch(page, created.id);
  const downloading = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Download Packet' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`donation-${created.id}-esign.pdf`);
  const file = await readFile((await download.path()) as string);
  expect(file.subarray(0, 4).toString('latin1')).toBe('%PDF');
});

test('Delete Match asks first, then deletes, closes and returns focus', async ({ page }) => {
  const s = await session(page);
  const created = await createMatch(page, s, { company: formCompany });
  const dialog = await openMatch(page, created.id);
  await dialog.getByRole('button', { name: 'Delete Match' }).click();
  const keep = dialog.getByRole('button', { name: 'Keep Match' });
  await expect(keep).toBeFocused();
  await expectNoAxeViolations(page);
  await keep.press('Enter');
  await expect(dialog.getByRole('button', { name: 'Delete Match' })).toBeFocused();
  expect((await getMatch(page, s, created.id)).status).toBe(200);

  await dialog.getByRole('button', { name: 'Delete Match' }).click();
  await dialog.getByRole('button', { name: 'Yes, Delete Match' }).click();
  await expect(page.getByText('Match deleted successfully.')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.locator('#opener')).toBeFocused();
  expect((await getMatch(page, s, created.id)).status).toBe(404);
  expect(await events(page)).toEqual(
    expect.arrayContaining([
      { type: 'twofold-match-changed', id: created.id },
      { type: 'twofold-match-closed', id: created.id },
    ]),
  );
});

test('Escape closes the dialog, returns focus and removes open; the keyboard reaches every action', async ({
  page,
}) => {
  const s = await session(page);
  const created = await createMatch(page, s, { company: formCompany });
  const dialog = await openMatch(page, created.id);
  // Tab from the close button through the form reaches the actions.
  const reached = new Set<string>();
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    const label = await page.evaluate(() => {
      let el: Element | null = document.activeElement;
      while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
      return el?.textContent?.trim() ?? '';
    });
    reached.add(label);
  }
  for (const name of [
    'Submitted',
    'No Charge',
    'Silence',
    'Delete Match',
    'Cancel',
    'Save & Re-Email',
    'Save',
  ])
    expect(reached).toContain(name);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.locator('#opener')).toBeFocused();
  await expect(page.locator('twofold-match-dialog')).not.toHaveAttribute('open');
  expect(await events(page)).toContainEqual({ type: 'twofold-match-closed', id: created.id });
});

test('a reader sees the match but no actions', async ({ page }) => {
  const s = await session(page);
  const created = await createMatch(page, s, { company: formCompany });
  await page.evaluate(() => localStorage.clear());
  await signIn(page, 'reader@twofold.test');
  await defineMatchDialog(page);
  await page.evaluate((id) => {
    const el = document.createElement('twofold-match-dialog');
    el.setAttribute('donation-id', String(id));
    el.setAttribute('open', '');
    document.querySelector('main')?.append(el);
  }, created.id);
  const dialog = page.getByRole('dialog', { name: `Match #${created.id}` });
  await expect(dialog.getByLabel('Donor Name')).toHaveAttribute('readonly', '');
  await expect(dialog.getByRole('button', { name: 'Close', exact: true }).last()).toBeVisible();
  for (const name of ['Save', 'Save & Re-Email', 'Delete Match', 'Submitted', 'No Charge', 'Silence'])
    await expect(dialog.getByRole('button', { name, exact: true })).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test('a match that cannot be loaded says so and offers Try again', async ({ page }) => {
  const s = await session(page);
  const created = await createMatch(page, s, { company: formCompany });
  const missing = created.id + 100_000;
  await defineMatchDialog(page);
  await page.evaluate((id) => {
    const el = document.createElement('twofold-match-dialog');
    el.setAttribute('donation-id', String(id));
    el.setAttribute('open', '');
    document.querySelector('main')?.append(el);
  }, missing);
  await expect(page.getByText('Failed to fetch match data. Please try again later.').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
});
