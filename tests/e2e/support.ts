import { createRequire } from 'node:module';
import { type BrowserContext, expect, type Page } from '@playwright/test';

export const demoPassword = 'twofold-demo';

/** Signs in through the Password tab and waits for the dashboard. */
export async function signIn(page: Page, email: string, password = demoPassword) {
  await page.goto('/portal/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
}

/**
 * Opens the dev mailbox (the server's own page, /dev/mailbox) as a person would, opens the newest
 * mail to `to`, and returns the first link in it whose path starts with `prefix`.
 */
export async function linkFromMailbox(context: BrowserContext, to: string, prefix: string, notLink?: string) {
  const page = await context.newPage();
  try {
    let link: string | undefined;
    await expect
      .poll(
        async () => {
          await page.goto('/dev/mailbox');
          const row = page
            .getByRole('row')
            .filter({ has: page.getByRole('cell', { name: to, exact: true }) });
          if ((await row.count()) === 0) return undefined;
          await row.first().getByRole('link').click();
          const hrefs = await page
            .locator('a[href]')
            .evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
          link = hrefs.find((href) => new URL(href).pathname.startsWith(prefix) && href !== notLink);
          return link;
        },
        { message: `a mail to ${to} with a ${prefix} link` },
      )
      .toBeTruthy();
    return link as string;
  } finally {
    await page.close();
  }
}

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** axe-core on the whole page (it walks open shadow roots); fails on any violation. */
export async function expectNoAxeViolations(page: Page) {
  await page.addScriptTag({ path: axePath });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: () => Promise<{ violations: AxeViolation[] }> } }).axe;
    const results = await axe.run();
    return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' > ')).join(', ')}`);
  });
  expect(violations).toEqual([]);
}

type AxeViolation = { id: string; nodes: { target: string[] }[] };

/**
 * Defines `<twofold-match-dialog>` on the current page. The portal loads each screen's code per
 * route and no screen uses the element itself (the donations screen has the dialog inside), so
 * tests that put the element on a page load its shipped module, as a host page does.
 */
export async function defineMatchDialog(page: Page): Promise<void> {
  if (await page.evaluate(() => customElements.get('twofold-match-dialog') !== undefined)) return;
  await page.addScriptTag({ type: 'module', url: '/elements/twofold-match-dialog.js' });
  await page.waitForFunction(() => customElements.get('twofold-match-dialog') !== undefined);
}

/**
 * Issue #24: opens the current organization's audit log (admins and super users) and expects a
 * row with each of `events` (the kind's words) and, when given, the person it names.
 */
export async function expectInAuditLog(page: Page, events: { event: string; who?: string }[]) {
  await page.goto('/portal/organization-details?tab=audit');
  await expect(page.getByRole('tab', { name: 'Audit log' })).toHaveAttribute('aria-selected', 'true');
  const table = page.getByRole('table', { name: 'Audit log' });
  await expect(table).toBeVisible();
  for (const { event, who } of events) {
    let rows = table.getByRole('row').filter({ hasText: event });
    if (who) rows = rows.filter({ hasText: who });
    await expect(rows.first(), `audit log row "${event}"${who ? ` for ${who}` : ''}`).toBeVisible();
  }
}
