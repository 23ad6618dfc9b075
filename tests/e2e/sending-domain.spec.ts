import { generateKeyPairSync } from 'node:crypto';
import { expect, type Page, test } from '@playwright/test';
import { startTestDns, type TestDns } from '../../server/modules/sending-domain/test-dns.ts';
import { expectNoAxeViolations, signIn } from './support.ts';

/**
 * The sender for donor emails (issue #28) on the Email Templates screen: an admin sets an address
 * at the organization's domain, copies the DNS records, and Verify reports each one, against a
 * real DNS server (dns2) that the E2E server asks (playwright.config.ts: DNS_RESOLVER is
 * 127.0.0.1:E2E_PORT+3).
 */
const dnsPort = Number(process.env.E2E_PORT ?? 8799) + 3;
let dns: TestDns;

test.beforeAll(async () => {
  dns = await startTestDns(dnsPort);
});
test.afterAll(async () => {
  await dns?.close();
});

async function clearSender(page: Page) {
  const { token, orgId } = await page.evaluate(() => ({
    token: localStorage.getItem('auth_token'),
    orgId: localStorage.getItem('currentOrganizationId'),
  }));
  // A retried run starts from no sender (the same server keeps the first try's).
  const res = await page.request.delete(`/api/organization/${orgId}/sending-domain`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect([200, 404]).toContain(res.status());
  dns.zone.clear();
}

const record = (page: Page, title: string) =>
  page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: title, exact: true, level: 4 }) });

test('an admin sets the sender, copies the records, and Verify says missing, different, then right', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page, 'admin@twofold.test');
  await expect.poll(() => page.evaluate(() => localStorage.getItem('currentOrganizationId'))).toBeTruthy();
  await clearSender(page);
  await page.getByRole('link', { name: 'Email Templates' }).click();
  const section = page.getByRole('region', { name: 'Sender for donor emails' });
  await expect(section.getByTestId('sending-from')).toHaveText('Twofold <no-reply@twofold.test>');

  // A free-mail address is refused with the reason.
  await section.getByLabel('Sender name').fill('Hope Harbor Foundation');
  await section.getByLabel('Sender address').fill('hope@gmail.com');
  await section.getByRole('button', { name: 'Save sender' }).click();
  await expect(section.getByRole('alert')).toHaveText(
    'Use an address at your organization’s own domain, not a free email provider.',
  );

  await section.getByLabel('Sender address').fill('giving@hopeharbor.org');
  await section.getByRole('button', { name: 'Save sender' }).click();
  await expect(section.getByText('Not verified yet')).toBeVisible();
  await expect(section.getByTestId('sending-from')).toHaveText(
    'Hope Harbor Foundation <no-reply@twofold.test>',
  );
  await expect(section.getByText('Replies go to', { exact: true })).toBeVisible();

  // The records: DKIM (name and value, each copyable), SPF not needed, the DMARC hint.
  const dkim = record(page, 'DKIM record');
  const dkimName = (await dkim.locator('code').first().textContent()) ?? '';
  const dkimValue = (await dkim.locator('code').nth(1).textContent()) ?? '';
  expect(dkimName).toMatch(/^twofold-\d{8}-1\._domainkey\.hopeharbor\.org$/);
  expect(dkimValue).toMatch(/^v=DKIM1; k=rsa; p=MIIBIjAN/);
  await expect(record(page, 'SPF')).toContainText('SPF: none needed');
  await expect(record(page, 'DMARC record (recommended)').locator('code').nth(1)).toHaveText(
    'v=DMARC1; p=none; rua=mailto:giving@hopeharbor.org',
  );

  // Copy with the keyboard: the value lands on the clipboard and "Copied" is announced.
  await dkim.getByRole('button', { name: 'Copy DKIM record value' }).focus();
  await page.keyboard.press('Enter');
  await expect(section.getByRole('status')).toHaveText('Copied DKIM record value');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(dkimValue);
  await dkim.getByRole('button', { name: 'Copy DKIM record name' }).click();
  await expect(section.getByRole('status')).toHaveText('Copied DKIM record name');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(dkimName);

  // Verify with nothing published: missing.
  await section.getByRole('button', { name: 'Verify' }).click();
  await expect(dkim.getByText('Missing', { exact: true })).toBeVisible();
  await expect(dkim.getByText(`No TXT record was found at ${dkimName}.`)).toBeVisible();
  await expect(
    record(page, 'DMARC record (recommended)').getByText('Missing', { exact: true }),
  ).toBeVisible();

  // Another key published: found but different, showing what was found.
  const other = generateKeyPairSync('rsa', { modulusLength: 1024 })
    .publicKey.export({ type: 'spki', format: 'der' })
    .toString('base64');
  dns.publish(dkimName, `v=DKIM1; k=rsa; p=${other}`);
  await section.getByRole('button', { name: 'Verify' }).click();
  await expect(dkim.getByText('Found but different')).toBeVisible();
  await expect(dkim.getByText('Its public key (p=) is not the one Twofold generated')).toBeVisible();
  await expect(dkim.locator('.sender__found code')).toHaveText(`v=DKIM1; k=rsa; p=${other}`);
  await expectNoAxeViolations(page);

  // The value shown published (as DNS carries it, in 255-byte strings): right, verified.
  dns.zone.delete(dkimName);
  dns.publish(dkimName, dkimValue);
  dns.publish('_dmarc.hopeharbor.org', 'v=DMARC1; p=none');
  await section.getByRole('button', { name: 'Verify' }).click();
  await expect(dkim.getByText('Found and right')).toBeVisible();
  await expect(section.getByText('Verified', { exact: true })).toBeVisible();
  await expect(section.getByTestId('sending-from')).toHaveText(
    'Hope Harbor Foundation <giving@hopeharbor.org>',
  );
  await expect(record(page, 'DMARC record').getByText('Found and right')).toBeVisible();
  await expectNoAxeViolations(page);

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `.tmp/sending-domain-${width}.png`, fullPage: true });
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(sideways, `no sideways scroll at ${width} px`).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // Away to a template and back: the section loads again as it was left, and works a second time.
  await page.getByRole('link', { name: /CSR vendor portal/ }).click();
  await expect(page.getByRole('heading', { name: 'CSR vendor portal', level: 1 })).toBeVisible();
  await page.goBack();
  await expect(section.getByText('Verified', { exact: true })).toBeVisible();

  // Rotation: a new record to publish beside the current one, then the switch.
  await section.getByRole('button', { name: 'Rotate key' }).click();
  const next = record(page, 'New DKIM record');
  await expect(next).toBeVisible();
  const nextName = (await next.locator('code').first().textContent()) ?? '';
  const nextValue = (await next.locator('code').nth(1).textContent()) ?? '';
  expect(nextName).not.toBe(dkimName);
  await section.getByRole('button', { name: 'Verify' }).click();
  await expect(next.getByText('Missing', { exact: true })).toBeVisible();
  await expect(section.getByText('Verified', { exact: true })).toBeVisible();
  dns.publish(nextName, nextValue);
  await section.getByRole('button', { name: 'Verify' }).click();
  await expect(section.getByTestId('retired-selector')).toContainText(`${dkimName} is no longer used`);
  await expect(record(page, 'DKIM record').locator('code').first()).toHaveText(nextName);

  // Remove, through the confirmation dialog (keyboard: Escape cancels first).
  await section.getByRole('button', { name: 'Remove sender' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove the sender?' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await section.getByRole('button', { name: 'Remove sender' }).click();
  await dialog.getByRole('button', { name: 'Remove sender' }).click();
  await expect(section.getByTestId('sending-from')).toHaveText('Twofold <no-reply@twofold.test>');
  await expect(section.getByRole('button', { name: 'Verify' })).toHaveCount(0);
});

test('a member who is not an admin sees how donor emails go out, read-only', async ({ page }) => {
  await signIn(page, 'writer@twofold.test');
  await page.getByRole('link', { name: 'Email Templates' }).click();
  const section = page.getByRole('region', { name: 'Sender for donor emails' });
  await expect(section.getByTestId('sending-from')).toBeVisible();
  await expect(section.getByText('Only the organization’s admins can change the sender.')).toBeVisible();
  await expect(section.getByLabel('Sender address')).toHaveCount(0);
  await expect(section.getByRole('button', { name: 'Verify' })).toHaveCount(0);
});
