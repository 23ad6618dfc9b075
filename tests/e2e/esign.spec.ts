import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { demoPassword, expectNoAxeViolations, linkFromMailbox, signIn } from './support.ts';

/**
 * Issue #16, tried as a new user would: a donor's match at an e-sign company (Acme Biotech takes
 * forms by email) gets the signing email; the donor signs on a 390 px-wide phone page; staff
 * countersign in the match dialog; the packet, with both signatures and both audit pages, reaches
 * the company's mailbox, and the match is Submitted. The packet's pages are rendered to PNG files
 * under test-results/esign/ to be looked at.
 */

const pdfjsDir = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
const standardFontDataUrl = `${pdfjsDir}/standard_fonts/`;
const outDir = path.join('test-results', 'esign');

async function pdfText(bytes: Uint8Array): Promise<string[]> {
  const doc = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, standardFontDataUrl })
    .promise;
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  return pages;
}

/** Renders every page of a PDF to a PNG with pdfjs in chromium (served from node_modules). */
async function renderPages(page: Page, bytes: Uint8Array, name: string): Promise<string[]> {
  const origin = 'http://pdf.render.test';
  await page.route(`${origin}/**`, async (route) => {
    const url = new URL(route.request().url());
    if (url.pathname === '/')
      return route.fulfill({ contentType: 'text/html', body: '<!doctype html><body></body>' });
    if (url.pathname === '/packet.pdf')
      return route.fulfill({ contentType: 'application/pdf', body: Buffer.from(bytes) });
    const file = path.join(pdfjsDir, url.pathname);
    if (!file.startsWith(pdfjsDir)) return route.abort();
    return route.fulfill({
      contentType: file.endsWith('.mjs') ? 'text/javascript' : 'application/octet-stream',
      body: readFileSync(file),
    });
  });
  await page.setViewportSize({ width: 700, height: 900 });
  await page.goto(`${origin}/`);
  const count = await page.evaluate(async (base) => {
    const pdfjs = await import(`${base}/build/pdf.mjs`);
    pdfjs.GlobalWorkerOptions.workerSrc = `${base}/build/pdf.worker.mjs`;
    const doc = await pdfjs.getDocument({
      url: `${base}/packet.pdf`,
      standardFontDataUrl: `${base}/standard_fonts/`,
    }).promise;
    for (let i = 1; i <= doc.numPages; i++) {
      const p = await doc.getPage(i);
      const viewport = p.getViewport({ scale: 1.1 });
      const canvas = document.createElement('canvas');
      canvas.id = `page-${i}`;
      canvas.width = viewport.width;
      canvas.height = viewport.height;
      canvas.style.display = 'block';
      canvas.style.border = '1px solid #999';
      document.body.append(canvas);
      await p.render({ canvasContext: canvas.getContext('2d'), viewport }).promise;
    }
    return doc.numPages as number;
  }, origin);
  mkdirSync(outDir, { recursive: true });
  const files: string[] = [];
  for (let i = 1; i <= count; i++) {
    const file = path.join(outDir, `${name}-page-${i}.png`);
    await page.locator(`#page-${i}`).screenshot({ path: file });
    files.push(file);
  }
  return files;
}

test('a donor signs on a phone, staff countersign, and the packet reaches the company: Submitted', async ({
  page,
  context,
  browser,
}) => {
  test.setTimeout(180_000);
  const stamp = Date.now();
  const email = `signer-${stamp}@example.org`;
  const name = `Sydney Signer ${stamp}`;

  // 1. The donor's match request at an e-sign company, on the nonprofit's public matching page.
  await page.goto('/match/hope-harbor foundation');
  const company = page.getByRole('combobox', { name: 'Employer (company)' });
  await company.fill('Acme Biot');
  await page.getByRole('option', { name: 'Acme Biotech' }).click();
  await page.getByLabel('Amount (USD)').fill('250');
  const given = new Date(Date.now() - 5 * 86_400_000).toISOString().slice(0, 10);
  await page.getByLabel('Donation date').fill(given);
  await page.getByLabel('Full name').fill(name);
  await page.getByLabel('Email').fill(email);
  const created = page.waitForResponse(
    (r) => r.url().includes('/api/public/match/') && r.request().method() === 'POST',
  );
  await page.getByRole('button', { name: 'Request My Match' }).click();
  const matchId = (await (await created).json()).match_id as number;
  await expect(page.getByText('Donor to E-Sign Form')).toBeVisible();

  // 2. The donor's email in the dev mailbox carries the signing link; on a 390 px phone it opens the form.
  const link = await linkFromMailbox(context, email, '/sign/');
  const phone = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  const donor = await phone.newPage();
  await donor.goto(link);
  await expect(donor.getByRole('heading', { name: 'Sign your matching gift form' })).toBeVisible();
  await expect(donor.getByText(name)).toBeVisible();
  await expect(donor.getByText('$250.00')).toBeVisible();
  await expect(donor.getByText('Acme Biotech', { exact: true })).toBeVisible();
  await expect(donor.getByText('Hope Harbor Foundation', { exact: false }).first()).toBeVisible();
  expect(await donor.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectNoAxeViolations(donor);
  // Signing without consent is refused, with the reason.
  await donor.getByLabel('Full name').fill(name);
  await donor.getByRole('button', { name: 'Sign the form' }).click();
  await expect(donor.getByText('Please agree to sign electronically.')).toBeVisible();
  // A drawn signature, with the finger (the pad), then consent.
  await donor.getByRole('radio', { name: 'Draw my signature' }).check();
  const pad = donor.getByRole('img', { name: /Signature pad/ });
  const box = await pad.boundingBox();
  if (!box) throw new Error('no signature pad');
  await donor.mouse.move(box.x + 20, box.y + box.height * 0.7);
  await donor.mouse.down();
  for (let i = 1; i <= 12; i++)
    await donor.mouse.move(box.x + 20 + i * 22, box.y + box.height * (0.7 - 0.4 * Math.abs(Math.sin(i / 2))));
  await donor.mouse.up();
  await donor.getByRole('checkbox', { name: 'I agree to sign electronically' }).check();
  expect(await donor.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await donor.screenshot({ path: path.join(outDir, 'sign-390.png'), fullPage: true });
  await donor.getByRole('button', { name: 'Sign the form' }).click();
  await expect(donor.getByRole('heading', { name: 'Thank you! Your form is signed.' })).toBeVisible();
  // The link is used up: opened again, it says so.
  await donor.goto(link);
  await expect(donor.getByText('This form has already been signed. Thank you!')).toBeVisible();
  await phone.close();

  // 3. Staff countersign in the match dialog's Signed Form tab.
  await signIn(page, 'admin@twofold.test');
  await page.goto('/portal/donations');
  await page.getByLabel('Donor name or email').fill(email);
  await expect(page.getByText(/^1 Found$/)).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('NPO to Verify/Sign');
  await row.click();
  const dialog = page.getByRole('dialog', { name: `Match #${matchId}` });
  await dialog.getByRole('tab', { name: 'Signed Form' }).click();
  await expect(dialog.getByText('Signed by the donor: ready for your countersignature.')).toBeVisible();
  await dialog.getByLabel('Your full name (your signature)').fill('Alex Admin');
  await dialog.getByRole('button', { name: 'Countersign' }).click();
  await expect(page.getByText('Form countersigned.')).toBeVisible();
  await expectNoAxeViolations(page);

  // 4. The outbox delivers it to the company's forms address; the match becomes Submitted.
  const token = await page.evaluate(() => localStorage.getItem('auth_token'));
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`/api/donation/${matchId}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        return (await res.json()).donation?.status_id;
      },
      { timeout: 30_000 },
    )
    .toBe(4);
  await page.keyboard.press('Escape');
  await row.click();
  await dialog.getByRole('tab', { name: 'Signed Form' }).click();
  await expect(dialog.getByText('Delivered to the company.')).toBeVisible();
  await dialog.getByRole('tab', { name: 'Match Details' }).click();
  await expect(dialog.locator('dd').filter({ hasText: /^Submitted$/ })).toBeVisible();

  // 5. The company's email in the dev mailbox, with the packet attached.
  const attachment = await linkFromMailbox(
    context,
    'matching-gifts@acme-biotech.example.com',
    '/dev/mailbox/',
  );
  expect(attachment).toMatch(/\/attachments\/0$/);
  const res = await page.request.get(attachment);
  expect(res.headers()['content-type']).toBe('application/pdf');
  const bytes = new Uint8Array(await res.body());
  writeFileSync(path.join(outDir, `donation-${matchId}-esign.pdf`), bytes);
  const pages = await pdfText(bytes);
  expect(pages).toHaveLength(3);
  expect(pages[0]).toContain(name);
  expect(pages[0]).toContain('Alex Admin');
  expect(pages[1]).toContain('Audit trail');
  expect(pages[1]).toContain('Donor signature');
  expect(pages[1]).toContain('Drawn on screen');
  expect(pages[2]).toContain('Nonprofit countersignature');
  expect(pages[2]).toContain('Alex Admin');

  // The same packet is what the match's download serves.
  const served = await page.request.get(`/donation/${matchId}/esign/download`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(Buffer.from(await served.body()).equals(Buffer.from(bytes))).toBe(true);

  const renderer = await browser.newPage();
  const images = await renderPages(renderer, bytes, `donation-${matchId}`);
  expect(images).toHaveLength(3);
  await renderer.close();
});

test('two signed forms are countersigned at once from the verification queue', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const login = await request.post('/api/auth/login', {
    data: { email: 'admin@twofold.test', password: demoPassword },
  });
  const { access_token: token, me } = await login.json();
  const hopeId = me.orgs.find((o: { name: string }) => o.name === 'Hope Harbor Foundation').id as number;
  const donors = [1, 2].map((n) => ({
    name: `Queue Signer ${n} ${stamp}`,
    email: `queue-signer-${n}-${stamp}@example.org`,
  }));
  for (const [i, donor] of donors.entries()) {
    // Old gifts, so they head the queue (oldest first) whatever the demo data holds.
    const created = await request.post(`/api/organization/${hopeId}/donation`, {
      headers: { authorization: `Bearer ${token}` },
      data: {
        id: 0,
        donated_at: `2019-01-0${i + 1} 12:00:00`,
        amount: 100 + i,
        donor,
        company_name: 'Acme Biotech',
      },
    });
    expect(created.status()).toBe(201);
    expect((await created.json()).donation.status_id).toBe(5);
    // The donor signs through the emailed link (typed signature).
    const link = await linkFromMailbox(context, donor.email, '/sign/');
    const signed = await request.post(`/api/esign/${new URL(link).pathname.slice('/sign/'.length)}`, {
      data: { name: donor.name, consent: true },
    });
    expect(signed.status()).toBe(200);
  }

  await signIn(page, 'admin@twofold.test');
  await page.goto('/portal/verification');
  const queue = page.locator('twofold-verification');
  for (const donor of donors) {
    const row = queue.getByRole('row').filter({ hasText: donor.name });
    await expect(row).toContainText('countersign it');
    await row.getByRole('checkbox').check();
  }
  await queue.getByRole('button', { name: 'Countersign…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Countersign 2 forms' });
  await expect(dialog.getByLabel('Your full name (your signature)')).not.toHaveValue('');
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: 'Countersign', exact: true }).click();
  await expect(queue.getByRole('status').filter({ hasText: '2 forms countersigned' })).toBeVisible();
  // Countersigned, each packet goes to Acme Biotech's forms email: the matches leave the queue as Submitted.
  for (const donor of donors)
    await expect
      .poll(
        async () => {
          await page.reload();
          return queue.getByRole('row').filter({ hasText: donor.name }).count();
        },
        { timeout: 30_000 },
      )
      .toBe(0);
});
