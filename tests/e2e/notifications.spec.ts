import { expect, type Page, test } from '@playwright/test';
import { defineMatchDialog, expectNoAxeViolations, linkFromMailbox, signIn } from './support.ts';

// The demo catalogue (server/db/seed-companies.ts): Birch Telecom matches through a CSR portal
// (method csr, minimum $25, no excluded organization types), so a $500 gift to Hope Harbor
// resolves to 7 Donor to Submit in Company Portal, a status the donor is emailed about.
const portalCompany = 'Birch Telecom';
const subject = 'Double your gift to Hope Harbor Foundation';

async function session(page: Page) {
  const read = () =>
    page.evaluate(() => ({
      token: localStorage.getItem('auth_token'),
      orgId: localStorage.getItem('currentOrganizationId'),
    }));
  await expect.poll(async () => (await read()).orgId, { message: 'the current organization' }).toBeTruthy();
  const stored = await read();
  return { token: stored.token as string, orgId: Number(stored.orgId) };
}

/** Opens `<twofold-match-dialog donation-id=… open>` on the current portal page. */
async function openMatch(page: Page, id: number) {
  await defineMatchDialog(page);
  await page.evaluate((donationId) => {
    const el = document.createElement('twofold-match-dialog');
    el.setAttribute('donation-id', String(donationId));
    el.setAttribute('open', '');
    document.querySelector('main')?.append(el);
  }, id);
  const dialog = page.getByRole('dialog', { name: `Match #${id}` });
  await expect(dialog).toBeVisible();
  return dialog;
}

test('a match at a donor-action status emails the donor; the dialog lists the email and its preview opens in a new tab', async ({
  page,
  context,
}) => {
  await signIn(page, 'admin@twofold.test');
  const s = await session(page);
  const donorEmail = `notify-${Date.now()}@example.org`;
  const response = await page.request.post(`/api/organization/${s.orgId}/donation`, {
    headers: { Authorization: `Bearer ${s.token}` },
    data: {
      id: 0,
      donated_at: '2026-03-05T15:30:00.000Z',
      amount: 500,
      donor: { name: 'Nina Notify', email: donorEmail },
      company_name: portalCompany,
    },
  });
  expect(response.status()).toBe(201);
  const { donation } = (await response.json()) as { donation: { id: number; status_id: number } };
  expect(donation.status_id).toBe(7);

  const dialog = await openMatch(page, donation.id);
  await dialog.getByRole('tab', { name: 'Email Communications' }).click();
  const row = dialog.getByRole('row').filter({ hasText: subject });
  await expect(row).toBeVisible();
  await expect(row.getByRole('cell', { name: 'Not opened' })).toBeVisible();
  await expectNoAxeViolations(page);

  const [preview] = await Promise.all([
    context.waitForEvent('page'),
    row.getByRole('link', { name: `Preview "${subject}" (opens in a new tab)` }).click(),
  ]);
  await preview.waitForLoadState();
  expect(new URL(preview.url()).pathname).toMatch(/^\/preview-notification\/\d+$/);
  await expect(preview.getByRole('heading', { level: 1, name: subject })).toBeVisible();
  await expect(preview.getByText(donorEmail)).toBeVisible();
  const frame = preview.frameLocator('iframe[title^="Email:"]');
  await expect(frame.getByText('Hi Nina,')).toBeVisible();
  await expect(
    frame.getByRole('link', { name: "Open Birch Telecom's matching gift site" }).first(),
  ).toBeVisible();
  await expect(preview.locator('iframe')).toHaveAttribute('sandbox', '');
  await expectNoAxeViolations(preview);

  // Previewing is not an open.
  const firstOpen = async () => {
    const reloaded = await page.request.get(`/api/donation/${donation.id}`, {
      headers: { Authorization: `Bearer ${s.token}` },
    });
    const body = (await reloaded.json()) as { donation: { notifications: Array<{ first_open: unknown }> } };
    expect(body.donation.notifications).toHaveLength(1);
    return body.donation.notifications[0]?.first_open ?? null;
  };
  expect(await firstOpen()).toBeNull();

  // The mail is in the dev mailbox (the donor's mail client here), with the company's portal and the FAQ link for this match.
  const faq = new URL(await linkFromMailbox(context, donorEmail, '/portal/faq'));
  expect(faq.searchParams.get('di')).toBe(String(donation.id));
  expect(faq.searchParams.get('de')).toBe(donorEmail);
  expect(await linkFromMailbox(context, donorEmail, '/giving')).toBe(
    'https://birch-telecom.example.com/giving',
  );

  // Reading it there loaded the open-tracking image: the first open is recorded.
  await expect.poll(firstOpen, { message: 'first_open after reading the mail' }).not.toBeNull();
});

test('the preview page asks a signed-out visitor to sign in, then shows the email', async ({ page }) => {
  await signIn(page, 'admin@twofold.test');
  const s = await session(page);
  const donorEmail = `notify-out-${Date.now()}@example.org`;
  const created = await page.request.post(`/api/organization/${s.orgId}/donation`, {
    headers: { Authorization: `Bearer ${s.token}` },
    data: {
      id: 0,
      donated_at: '2026-03-05T15:30:00.000Z',
      amount: 500,
      donor: { name: 'Otto Out', email: donorEmail },
      company_name: portalCompany,
    },
  });
  const { donation } = (await created.json()) as { donation: { id: number } };
  const got = await page.request.get(`/api/donation/${donation.id}`, {
    headers: { Authorization: `Bearer ${s.token}` },
  });
  const id = ((await got.json()) as { donation: { notifications: Array<{ id: number }> } }).donation
    .notifications[0]?.id;
  expect(id).toBeTruthy();
  await page.evaluate(() => localStorage.clear());

  await page.goto(`/preview-notification/${id}`);
  await expect(page).toHaveURL(/\/portal\/login\?redirect=%2Fpreview-notification%2F\d+/);
  await page.getByLabel('Email').fill('reader@twofold.test');
  await page.getByLabel('Password', { exact: true }).fill('twofold-demo');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/preview-notification/${id}$`));
  await expect(page.getByRole('heading', { level: 1, name: subject })).toBeVisible();

  // A notification that does not exist (or is another organization's) says so.
  await page.goto('/preview-notification/2147483647');
  await expect(page.getByRole('alert').filter({ hasText: 'Notification not found' })).toBeVisible();
});
