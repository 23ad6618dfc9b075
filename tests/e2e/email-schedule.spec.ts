import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations, signIn } from './support.ts';

/**
 * Issue #30: a new user watches the email engine work. A match whose donor is emailed shows its
 * 1st reminder as scheduled (in Scheduled Emails and in the match's Email Communications tab);
 * `npm run clock -- +7d` moves the running server's clock a week, and the reminder arrives in the
 * dev mailbox.
 */

const run = promisify(execFile);
// playwright.config.ts: the server's data folder for this port.
const dataDir = `.tmp/e2e-data-${Number(process.env.E2E_PORT ?? 8799)}`;
/** `npm run clock -- …` as a user types it, against the test server's data folder. */
const clock = (arg: string) =>
  run(process.execPath, ['--import', 'tsx', 'server/dev-clock-cli.ts', arg], {
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, NODE_ENV: 'development' },
  });

// The demo catalogue's Birch Telecom matches through a CSR portal: a gift resolves to 7 Donor to
// Submit in Company Portal, whose emails have reminders.
const portalCompany = 'Birch Telecom';

async function session(page: Page) {
  await expect.poll(() => page.evaluate(() => localStorage.getItem('currentOrganizationId'))).toBeTruthy();
  return page.evaluate(() => ({
    token: localStorage.getItem('auth_token') as string,
    orgId: Number(localStorage.getItem('currentOrganizationId')),
  }));
}

test.afterEach(async () => {
  // Later journeys run on the real time.
  await clock('reset');
});

test('a scheduled 1st reminder is shown, and moving the clock a week delivers it to the dev mailbox', async ({
  page,
  context,
}) => {
  await signIn(page, 'writer@twofold.test');
  const s = await session(page);
  const donorEmail = `clock-${Date.now()}@example.org`;
  const created = await page.request.post(`/api/organization/${s.orgId}/donation`, {
    headers: { Authorization: `Bearer ${s.token}` },
    data: {
      id: 0,
      donated_at: new Date().toISOString(),
      amount: 400,
      donor: { name: 'Casey Clock', email: donorEmail },
      company_name: portalCompany,
    },
  });
  expect(created.status()).toBe(201);
  const { donation } = (await created.json()) as { donation: { id: number; status_id: number } };
  expect(donation.status_id).toBe(7);

  // Scheduled Emails, from the sidebar: the 1st reminder a week from now, the match listed.
  await page.getByRole('link', { name: 'Scheduled Emails' }).first().click();
  await expect(page.getByRole('heading', { name: 'Scheduled Emails', level: 1 })).toBeVisible();
  const matchButton = page.getByRole('button', { name: `#${donation.id} Casey Clock` });
  await expect(matchButton).toBeVisible();
  await expectNoAxeViolations(page);
  await page.screenshot({ path: '.tmp/shots/scheduled-emails-1280.png', fullPage: true });

  // The match dialog's Email Communications tab: sent, and scheduled with its date and version.
  await matchButton.click();
  const dialog = page.getByRole('dialog', { name: `Match #${donation.id}` });
  await dialog.getByRole('tab', { name: 'Email Communications' }).click();
  await expect(dialog.getByRole('button', { name: 'Send now (1st reminder)' })).toBeVisible();
  await expect(dialog.getByText('CSR vendor portal · Default').first()).toBeVisible();
  await expectNoAxeViolations(page);
  await page.screenshot({ path: '.tmp/shots/email-tab-1280.png', fullPage: true });

  // A week later (the command a user runs): the server follows and the scheduler sends it.
  const moved = await clock('+7d');
  expect(moved.stdout).toContain('Server clock: +7d');
  const mailbox = await context.newPage();
  await expect
    .poll(
      async () => {
        await mailbox.goto('/dev/mailbox');
        return mailbox
          .getByRole('row')
          .filter({ has: mailbox.getByRole('cell', { name: donorEmail, exact: true }) })
          .filter({ hasText: `Reminder: ${portalCompany} can match your gift` })
          .count();
      },
      { message: 'the 1st reminder in the dev mailbox', timeout: 30_000 },
    )
    .toBe(1);
  await mailbox.close();

  // The tab now lists it as sent, and the 2nd reminder as next.
  await dialog.getByRole('tab', { name: 'Match Details' }).click();
  await dialog.getByRole('tab', { name: 'Email Communications' }).click();
  await expect(dialog.getByRole('cell', { name: '1st reminder' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Send now (2nd reminder)' })).toBeVisible();

  // At phone width the view and the tab fit (no sideways scroll).
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: '.tmp/shots/email-tab-390.png', fullPage: true });
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: '.tmp/shots/scheduled-emails-390.png', fullPage: true });
});
