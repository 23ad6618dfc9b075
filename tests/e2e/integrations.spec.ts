import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Page, test } from '@playwright/test';
import { Webhook as Verifier } from 'standardwebhooks';
import { expectNoAxeViolations, signIn } from './support.ts';

test.describe.configure({ mode: 'serial' });

const hope = 'Hope Harbor Foundation';
const stamp = Date.now().toString(36);
const donor = `Avery Partner ${stamp}`;
/** The receiver's port: E2E_PORT + 200 keeps each engineer's runs apart (ports 9000-9049 here). */
const receiverPort = 9007;

async function asHopeAdmin(page: Page) {
  await signIn(page, 'admin@twofold.test');
  await page.getByRole('combobox', { name: /organization/i }).selectOption({ label: hope });
  await expect(page.getByRole('navigation').getByText(hope, { exact: true })).toBeVisible();
}

/** A local endpoint: it records what arrives and answers with the queued codes (then 200). */
function startReceiver() {
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  const codes: number[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(codes.shift() ?? 200).end('thanks');
    });
  });
  return new Promise<{
    received: typeof received;
    codes: number[];
    close: () => Promise<void>;
    port: number;
  }>((resolve) =>
    server.listen(receiverPort, '127.0.0.1', () =>
      resolve({
        received,
        codes,
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      }),
    ),
  );
}

test('the Widget guide offers the embeddable elements from custom-elements.json, previews one and writes its snippet', async ({
  page,
  context,
  request,
}) => {
  // The copied snippet is read back from the clipboard.
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const manifest = await (await request.get('/elements/custom-elements.json')).json();
  const tags = manifest.modules.flatMap((m: { declarations?: Array<{ tagName?: string }> }) =>
    (m.declarations ?? []).map((d) => d.tagName),
  );
  expect(tags).toEqual(
    expect.arrayContaining(['twofold-faq', 'twofold-match-request', 'twofold-registration']),
  );

  await asHopeAdmin(page);
  await page.goto('/portal/integrations');
  await page.getByRole('link', { name: 'Widget guide' }).click();
  await expect(page).toHaveURL(/\/portal\/integrations\/widget$/);
  await expect(page.getByRole('heading', { name: 'Widget guide', level: 1 })).toBeVisible();
  const snippet = page.getByTestId('widget-snippet');
  await expect(snippet).toContainText('<twofold-match-request api-base=');
  await expect(page.getByRole('region', { name: 'Preview of twofold-match-request' })).toBeVisible();

  await page.getByLabel('Element').selectOption('twofold-faq');
  await page.getByLabel('company', { exact: true }).fill(`Acme ${stamp}`);
  await expect(snippet).toContainText(`company="Acme ${stamp}"`);
  await expect(snippet).toContainText('/elements/twofold-faq.js');
  // The live preview is the element itself, set up as the snippet says.
  await expect(
    page.getByRole('region', { name: 'Preview of twofold-faq' }).getByText(`Acme ${stamp}`).first(),
  ).toBeVisible();
  await page.getByLabel('--twofold-color-primary').fill('#7c3aed');
  await expect(snippet).toContainText('style="--twofold-color-primary: #7c3aed');
  await page.getByRole('button', { name: 'Copy snippet' }).click();
  // spec: the copy buttons' toast 'Copied!' (issue #30), and the snippet is what was copied.
  await expect(page.getByText('Copied!', { exact: true })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('<twofold-faq');
  await expectNoAxeViolations(page);
  await page.screenshot({ path: '.tmp/widget-guide-1280.png', fullPage: true });
  // On a phone the sidebar is a drawer behind the menu button.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('button', { name: 'Open menu' })).toBeVisible();
  await page.screenshot({ path: '.tmp/widget-guide-390.png', fullPage: true });
  const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(sideways).toBeLessThanOrEqual(0);
});

test('a partner posts a gift with an API key (once, though sent twice) and a webhook hears its status change, signed', async ({
  page,
  request,
}) => {
  await asHopeAdmin(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Integrations' }).click();
  await expect(page).toHaveURL(/\/portal\/integrations$/);
  await expect(page.getByRole('heading', { name: 'Integrations', level: 1 })).toBeVisible();
  for (const card of ['Widget', 'API', 'Webhooks', 'Fundraising platform'])
    await expect(page.getByRole('heading', { name: card, exact: true, level: 2 })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.screenshot({ path: `.tmp/integrations-1280.png`, fullPage: true });

  // Manage API Keys: a new key, shown whole once.
  await page.getByRole('button', { name: 'Manage API Keys' }).click();
  const dialog = page.getByRole('dialog', { name: 'Manage API Keys' });
  await dialog.getByRole('button', { name: 'Create new key' }).click();
  await expect(page.getByText('New API key created successfully')).toBeVisible();
  const apiKey = (await dialog.getByTestId('new-api-key').textContent())?.trim() ?? '';
  expect(apiKey).toMatch(/^tf_/);
  await expectNoAxeViolations(page);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // The documentation the API card links to is served here.
  const docs = await request.get('/api/v1/docs');
  expect(docs.ok()).toBe(true);
  const openapi = await (await request.get('/api/v1/openapi.json')).json();
  expect(Object.keys(openapi.paths)).toContain('/api/v1/matches');

  // The partner posts the gift twice with one Idempotency-Key: one match.
  const gift = {
    donated_at: new Date().toISOString(),
    amount: 120,
    donor: { name: donor, email: `avery-${stamp}@example.org` },
    company_name: 'Partner Employer Co',
    transaction_id: `partner-${stamp}`,
  };
  const headers = { authorization: `Bearer ${apiKey}`, 'idempotency-key': `gift-${stamp}` };
  const first = await request.post('/api/v1/matches', { data: gift, headers });
  const second = await request.post('/api/v1/matches', { data: gift, headers });
  expect(first.status()).toBe(201);
  expect(second.status()).toBe(201);
  const match = (await first.json()).donation;
  expect((await second.json()).donation.id).toBe(match.id);
  const listed = await (await request.get(`/api/v1/matches?company=partner%20employer`, { headers })).json();
  expect(listed.data.filter((d: { donor_name: string }) => d.donor_name === donor)).toHaveLength(1);

  await page.goto('/portal/donations');
  await expect(page.getByRole('heading', { name: 'Donations', level: 1 })).toBeVisible();
  await page.getByLabel('Donor name or email').fill(stamp);
  await expect(page.getByText('1 Found')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: donor })).toContainText('$120.00');

  // A webhook for status changes, pointing at a local receiver that fails once.
  const receiver = await startReceiver();
  receiver.codes.push(503);
  try {
    await page.goto('/portal/webhooks');
    await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
    await page.getByRole('button', { name: 'Add Webhook' }).click();
    await expect(page.getByText('Webhook created')).toBeVisible();
    const item = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: /^Webhook \d+$/ }) })
      .last();
    await item.getByLabel('URL').fill(`http://127.0.0.1:${receiver.port}/twofold`);
    await expect(item.getByLabel('URL')).toHaveValue(`127.0.0.1:${receiver.port}/twofold`);
    await item.getByLabel('Bearer token').fill(`token-${stamp}`);
    await expect(page.getByText('Webhook updated')).toBeVisible();
    await item.getByRole('button', { name: 'Signing secret' }).click();
    const secret =
      (
        await item
          .locator('code')
          .filter({ hasText: /^whsec_/ })
          .textContent()
      )?.trim() ?? '';
    await expectNoAxeViolations(page);

    // Staff mark the match Submitted (a main status): the signed delivery is queued with it.
    const token = await page.evaluate(() => localStorage.getItem('auth_token'));
    const confirm = await request.post('/api/donation/confirm', {
      data: { donation_ids: [match.id], status: 'submitted' },
      headers: { authorization: `Bearer ${token}` },
    });
    expect(confirm.ok()).toBe(true);

    // The first attempt meets a 503 (the badge says so), the retry 5 s later lands.
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
    await page.reload();
    await expect(
      page.getByText('Any code other than 200 is cause for concern.', { exact: false }),
    ).toBeVisible();
    await page.screenshot({ path: `.tmp/webhooks-1280.png`, fullPage: true });
    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(2);
    const delivered = receiver.received[1];
    if (!delivered) throw new Error('no delivery');
    const payload = new Verifier(secret).verify(delivered.body, {
      'webhook-id': String(delivered.headers['webhook-id']),
      'webhook-timestamp': String(delivered.headers['webhook-timestamp']),
      'webhook-signature': String(delivered.headers['webhook-signature']),
    }) as { event: string; bearer_token: string; data: { donation: { id: number; status_string: string } } };
    expect(payload).toMatchObject({
      event: 'status',
      bearer_token: `token-${stamp}`,
      data: { donation: { id: match.id, status_string: 'Submitted' } },
    });
    await page.reload();
    await expect(page.getByText('This (200) is the expected/correct response.')).toBeVisible();
    await page.getByRole('button', { name: 'Deliveries' }).last().click();
    await expect(page.getByRole('table', { name: 'Recent deliveries' })).toContainText('delivered');

    await page.setViewportSize({ width: 390, height: 844 });
    for (const [path, name] of [
      ['/portal/webhooks', 'webhooks'],
      ['/portal/integrations', 'integrations'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      // On a phone the shell's sidebar is a drawer behind the menu button.
      await expect(page.getByRole('button', { name: 'Open menu' })).toBeVisible();
      await page.screenshot({ path: `.tmp/${name}-390.png`, fullPage: true });
      const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(sideways, `${path} scrolls sideways at 390 px`).toBeLessThanOrEqual(0);
    }
  } finally {
    await receiver.close();
  }
});
