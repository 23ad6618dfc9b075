import { createRequire } from 'node:module';
import { type APIRequestContext, expect, type Page } from '@playwright/test';

export const demoPassword = 'twofold-demo';

/** Signs in through the Password tab and waits for the dashboard. */
export async function signIn(page: Page, email: string, password = demoPassword) {
  await page.goto('/portal/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
}

/**
 * The newest mail to `to` in the dev mailbox, and the first link in it that starts with `prefix`.
 * The mailbox is the server's own page (/dev/mailbox), read as a user would.
 */
export async function linkFromMailbox(request: APIRequestContext, to: string, prefix: string) {
  await expect
    .poll(async () => (await request.get('/dev/mailbox.json')).ok(), { message: 'mailbox answers' })
    .toBe(true);
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const list = (await (await request.get('/dev/mailbox.json')).json()) as {
          messages: { id: number; to: string; subject: string }[];
        };
        const message = list.messages.find((m) => m.to === to);
        if (!message) return undefined;
        const html = await (await request.get(`/dev/mailbox/${message.id}`)).text();
        link = [...html.matchAll(/href="([^"]+)"/g)]
          .map((m) => (m[1] ?? '').replaceAll('&amp;', '&'))
          .find((href) => new URL(href).pathname.startsWith(prefix));
        return link;
      },
      { message: `a mail to ${to} with a ${prefix} link` },
    )
    .toBeTruthy();
  return link as string;
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
