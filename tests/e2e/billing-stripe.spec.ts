import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { type FakeStripe, startFakeStripe } from '../../server/modules/billing/stripe-fake.ts';
import { expectNoAxeViolations, signIn } from './support.ts';

/**
 * Issue #27: billing that collects through Stripe, end to end. The spec starts its own Twofold
 * server (E2E_PORT + 2, its own PGlite data folder) configured for Stripe, and a Stripe-compatible
 * server (E2E_PORT + 3, server/modules/billing/stripe-fake.ts) that the official library talks to
 * and that sends signed webhook events back, as Stripe does. The shared server of the other specs
 * stays without Stripe (billing.spec.ts checks that case).
 */
const basePort = Number(process.env.E2E_PORT ?? 8799);
const port = basePort + 2;
const stripePort = basePort + 3;
const origin = `http://localhost:${port}`;
const dataDir = `.tmp/e2e-billing-stripe-${port}`;
const secretKey = 'sk_test_e2eBillingKey1234';
const webhookSecret = 'whsec_e2e_billing_secret';

let fake: FakeStripe;
let server: ChildProcess;

test.describe.configure({ mode: 'serial' });
test.use({ baseURL: origin });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  fake = await startFakeStripe({
    secretKey,
    meters: ['twofold_match_fee'],
    port: stripePort,
    webhook: { url: `${origin}/api/billing/stripe/webhook`, secret: webhookSecret },
  });
  rmSync(dataDir, { recursive: true, force: true });
  server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_URL: origin,
      SEED_DEMO: 'true',
      LOG_REQUESTS: 'false',
      SMTP_URL: '',
      DATABASE_URL: '',
      STRIPE_SECRET_KEY: secretKey,
      STRIPE_API_BASE: fake.url,
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_PRICE_ELIG_3: 'price_e2e_elig3',
      STRIPE_PRICE_ELIG_5: 'price_e2e_elig5',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await expect
    .poll(
      async () => {
        try {
          return (await fetch(`${origin}/portal/login`)).status;
        } catch {
          return 0;
        }
      },
      { timeout: 150_000, intervals: [500] },
    )
    .toBe(200);
});

test.afterAll(async () => {
  if (server?.pid) {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  }
  await fake?.close();
});

const bills = (page: Page) => page.getByRole('region', { name: 'Bills by month' });
const invoices = (page: Page) =>
  page.locator('twofold-billing').getByRole('region', { name: 'Invoices', exact: true });
const sidewaysOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** Signs in as the admin with Hope Harbor (on the 5% plan) as the current organization; its id. */
async function asHopeAdmin(page: Page): Promise<number> {
  await signIn(page, 'admin@twofold.test');
  const picker = page.getByRole('combobox', { name: /organization/i });
  await picker.selectOption({ label: 'Hope Harbor Foundation' });
  await expect(
    page.getByRole('navigation').getByText('Hope Harbor Foundation', { exact: true }),
  ).toBeVisible();
  return Number(await picker.inputValue());
}

type ListedMatch = {
  id: number;
  eligible_bill_id: number | null;
  processed_bill_id: number | null;
  refunded_bill_id: number | null;
  matched: number;
};

/** Marks one of the organization's unbilled matches Submitted through the API, as staff would; its estimated match. */
async function submitAMatch(page: Page, organizationId: number): Promise<number> {
  const token = await page.evaluate(() => localStorage.getItem('auth_token'));
  const headers = { authorization: `Bearer ${token}` };
  const listed = await page.request.get(`/api/organization/${organizationId}/donation?per_page=100`, {
    headers,
  });
  const { donations } = (await listed.json()) as { donations: ListedMatch[] };
  const candidate = donations.find(
    (d) =>
      d.eligible_bill_id === null &&
      d.processed_bill_id === null &&
      d.refunded_bill_id === null &&
      d.matched > 0,
  );
  if (!candidate) throw new Error('no unbilled match with an estimated match in the demo data');
  const confirmed = await page.request.post('/api/donation/confirm', {
    headers,
    data: { donation_ids: [candidate.id], status: 'submitted' },
  });
  expect(confirmed.status()).toBe(200);
  return candidate.matched;
}

test('an admin pays for a per-match plan through Stripe, sees each bill reported, its invoices, and the portal', async ({
  page,
}) => {
  const hope = await asHopeAdmin(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Billing' }).click();
  await expect(page.getByRole('heading', { name: 'Choose a plan', level: 1 })).toBeVisible();
  // No Stripe customer yet: no invoices, and nothing about a failed payment.
  await expect(invoices(page).getByText('No invoices yet', { exact: false })).toBeVisible();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Your last payment did not go through' }),
  ).toHaveCount(0);

  // Checkout on Stripe's page: paying sends the signed event, and the plan comes with the money.
  await page
    .getByRole('listitem', { name: 'Growing', exact: true })
    .getByRole('button', { name: 'Choose Growing' })
    .click();
  await expect(page.getByRole('heading', { name: 'Test checkout' })).toBeVisible();
  expect(page.url()).toContain(`127.0.0.1:${stripePort}/c/pay/`);
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page).toHaveURL(/\/portal\/billing$/);
  await expect(
    page.getByRole('status').filter({ hasText: 'Your payment for the Growing plan went through' }),
  ).toBeVisible();
  await expect(page.getByRole('listitem', { name: 'Growing', exact: true })).toHaveAttribute(
    'aria-current',
    'true',
  );
  const [customer] = fake.customers();
  expect(customer).toBeTruthy();

  // A match marked Submitted is on this month's bill and, moments later, reported to Stripe.
  const matched = await submitAMatch(page, hope);
  await expect
    .poll(
      async () => {
        await page.reload();
        return (await bills(page).getByRole('row').nth(1).textContent()) ?? '';
      },
      { timeout: 30_000, intervals: [1000] },
    )
    .toContain('Reported');
  await expect(bills(page).getByRole('row').nth(1)).toContainText('1 of 1 reported');
  expect(fake.meterEvents).toEqual([
    expect.objectContaining({
      customer,
      value: Math.round(0.03 * matched * 100),
      event_name: 'twofold_match_fee',
    }),
  ]);

  // Stripe's invoice shows with its date, amount, status and the hosted page.
  const invoice = fake.addInvoice(customer ?? '', { total: 1250, amount_due: 1250, status: 'open' });
  await page.reload();
  const row = invoices(page).getByRole('row').nth(1);
  await expect(row).toContainText('$12.50');
  await expect(row).toContainText('Due');
  await expect(row.getByRole('link', { name: /View invoice TEST-1/ })).toHaveAttribute(
    'href',
    invoice.hosted_invoice_url ?? '',
  );
  await expectNoAxeViolations(page);

  // Payment methods live in Stripe's customer portal, reached through a five-minute link.
  const opened = page.waitForRequest((r) => r.url().includes('/billing-portal?token='));
  await invoices(page).getByRole('button', { name: 'Manage payment methods' }).click();
  const sessionToken = await page.evaluate(() => localStorage.getItem('auth_token'));
  expect(new URL((await opened).url()).searchParams.get('token')).not.toBe(sessionToken);
  await expect(page.getByRole('heading', { name: 'Test customer portal' })).toBeVisible();
  await expect(page.getByText(`Payment methods of ${customer}`)).toBeVisible();
  await page.getByRole('link', { name: 'Return to Twofold' }).click();
  await expect(page).toHaveURL(/\/portal\/billing$/);
  // Back and forth: the dashboard, then the billing page again, still whole.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Billing' }).click();
  await expect(invoices(page).getByRole('link', { name: /View invoice TEST-1/ })).toBeVisible();
  await expect(bills(page).getByRole('row').nth(1)).toContainText('Reported');

  // On a phone the page does not scroll sideways (the tables scroll in their own box).
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(invoices(page).getByRole('button', { name: 'Manage payment methods' })).toBeVisible();
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  await expectNoAxeViolations(page);
});

test('a failed renewal shows admins on the billing page and the dashboard how to fix it; readers see nothing', async ({
  page,
}) => {
  const [customer] = fake.customers();
  const [subscription] = fake.subscriptionsOf(customer ?? '');
  expect(subscription).toBeTruthy();
  const delivered = await fake.setSubscriptionStatus(subscription?.id ?? '', 'past_due');
  expect(delivered.status).toBe(200);

  await asHopeAdmin(page);
  const dashboardNotice = page
    .locator('twofold-dashboard')
    .getByRole('alert')
    .filter({ hasText: 'Your last payment did not go through' });
  await expect(dashboardNotice).toBeVisible();
  await expect(dashboardNotice).toContainText('Stripe will try the card again');
  await expectNoAxeViolations(page);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Billing' }).click();
  const billingNotice = page
    .locator('twofold-billing')
    .getByRole('alert')
    .filter({ hasText: 'Your last payment did not go through' });
  await expect(billingNotice).toBeVisible();
  await expectNoAxeViolations(page);
  // Its button opens Stripe's portal to update the card; keyboard first.
  await billingNotice.getByRole('button', { name: 'Update payment method' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Test customer portal' })).toBeVisible();
  await page.getByRole('link', { name: 'Return to Twofold' }).click();

  // From the dashboard too.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
  await dashboardNotice.getByRole('button', { name: 'Update payment method' }).click();
  await expect(page.getByRole('heading', { name: 'Test customer portal' })).toBeVisible();

  // The card is fixed and the invoice paid: the notice goes.
  await fake.setSubscriptionStatus(subscription?.id ?? '', 'active');
  await page.goto('/portal/billing');
  await expect(page.getByRole('heading', { name: 'Choose a plan', level: 1 })).toBeVisible();
  await expect(invoices(page)).toBeVisible();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Your last payment did not go through' }),
  ).toHaveCount(0);

  // Past due again; a reader of the organization sees neither the notice nor the invoices.
  await fake.setSubscriptionStatus(subscription?.id ?? '', 'past_due');
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await signIn(page, 'reader@twofold.test');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await page.goto('/portal/billing');
  await expect(page.getByRole('heading', { name: 'Choose a plan', level: 1 })).toBeVisible();
  await expect(
    page.getByText('Only admins of this organization can change its plan.', { exact: false }),
  ).toBeVisible();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Your last payment did not go through' }),
  ).toHaveCount(0);
  await expect(invoices(page)).toHaveCount(0);
});
