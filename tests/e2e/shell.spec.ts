import { expect, test } from '@playwright/test';
import { expectNoAxeViolations, signIn } from './support.ts';

test('the guard sends visitors to sign in and then back where they were going', async ({ page }) => {
  await page.goto('/portal/organization-details?tab=users');
  await expect(page).toHaveURL(/\/portal\/login/);
  await page.getByLabel('Email').fill('admin@twofold.test');
  await page.getByLabel('Password', { exact: true }).fill('twofold-demo');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/portal\/organization-details\?tab=users$/);
});

test('logout clears the session and the guard keeps the portal closed', async ({ page }) => {
  await signIn(page, 'writer@twofold.test');
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByText('Logged out', { exact: true })).toBeVisible();
  await expect(page.getByText('You have been successfully logged out.')).toBeVisible();
  await expect(page).toHaveURL(/\/portal\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();
  await page.goto('/portal');
  await expect(page).toHaveURL(/\/portal\/login/);
});

test('a user of two organizations switches between them with the dropdown', async ({ page }) => {
  await signIn(page, 'admin@twofold.test');
  const picker = page.getByRole('combobox', { name: /organization/i });
  await expect(picker).toBeVisible();
  await picker.selectOption({ label: 'Maple Street PTA' });
  const sidebar = page.getByRole('navigation');
  await expect(sidebar.getByText('Maple Street PTA', { exact: true })).toBeVisible();
  await page.reload();
  await expect(sidebar.getByText('Maple Street PTA', { exact: true })).toBeVisible();
});

test('the dropdown lists every organization the user reaches, whichever is current', async ({ page }) => {
  await signIn(page, 'admin@twofold.test');
  const picker = page.getByRole('combobox', { name: /organization/i });
  const options = () => picker.locator('option:not([disabled])').allTextContents();
  // Hope Harbor, its two chapters under it, and Maple Street PTA.
  await expect(picker.locator('option:not([disabled])')).toHaveCount(4);
  const all = await options();
  expect(all.map((o) => o.trim())).toEqual([
    'Hope Harbor Foundation',
    expect.stringMatching(/^└\s.*North Shore/),
    expect.stringMatching(/^└\s.*Riverside/),
    'Maple Street PTA',
  ]);
  const sidebar = page.getByRole('navigation');
  for (const label of ['Maple Street PTA', all[2] ?? '', all[1] ?? '']) {
    await picker.selectOption({ label });
    await expect(sidebar.getByText(label.replace(/^[\s└]+/, ''), { exact: true })).toBeVisible();
    expect(await options()).toEqual(all);
  }
});

test('a super user searches for any organization and switches to it', async ({ page }) => {
  await signIn(page, 'super@twofold.test');
  const search = page.getByRole('combobox', { name: /organization/i });
  await search.fill('M');
  // spec: suggestions open from 2 characters.
  await expect(page.getByRole('listbox')).toBeHidden();
  await search.fill('Ma');
  await page.getByRole('option', { name: 'Maple Street PTA' }).click();
  await expect(page.getByText('Organization Selected')).toBeVisible();
  const sidebar = page.getByRole('navigation');
  await expect(sidebar.getByText('Maple Street PTA', { exact: true })).toBeVisible();
  await expect(sidebar.getByText(/ID: \d+/)).toBeVisible();

  await search.fill('chap');
  await page.getByRole('option', { name: /Riverside/ }).click();
  await expect(sidebar.getByText(/Riverside/)).toBeVisible();
  await expectNoAxeViolations(page);
});

test('the sidebar collapses to icons; no entry leads to a page that does not exist', async ({ page }) => {
  await signIn(page, 'reader@twofold.test');
  // spec: Companies is an external link to the public open-company page, opened in a new tab.
  const companies = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /Companies/ });
  await expect(companies).toHaveAttribute('href', '/companies');
  await expect(companies).toHaveAttribute('target', '_blank');
  const hrefs = await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link')
    .evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href));
  expect(hrefs.length).toBeGreaterThanOrEqual(7);
  for (const href of hrefs) {
    await page.goto(href);
    await expect(page.getByRole('heading', { level: 1 }).first(), href).toBeVisible();
    await expect(page.getByText('Page not found'), href).toHaveCount(0);
  }
  await page.goto('/portal');
  const toggle = page.getByRole('button', { name: /collapse|expand/i });
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
});

test("the super user's organization search works from the keyboard", async ({ page }) => {
  await signIn(page, 'super@twofold.test');
  const search = page.getByRole('combobox', { name: /organization/i });
  await search.fill('chapter');
  await expect(page.getByRole('option')).toHaveCount(2);
  // The first result is under the keyboard at once; arrows move, wrapping round.
  await expect(search).toHaveAttribute('aria-activedescendant', /.+/);
  await search.press('ArrowDown');
  await expect(page.getByRole('option', { selected: true })).toHaveText(/Riverside/);
  await search.press('ArrowDown');
  await expect(page.getByRole('option', { selected: true })).toHaveText(/North Shore/);
  await search.press('Escape');
  await expect(page.getByRole('listbox')).toBeHidden();
  await search.press('Escape');
  await expect(search).toHaveValue('');
  await search.fill('maple');
  await expect(page.getByRole('option', { selected: true })).toHaveText('Maple Street PTA');
  await search.press('Enter');
  await expect(page.getByText('Organization Selected')).toBeVisible();
  await expect(page.getByRole('navigation').getByText('Maple Street PTA', { exact: true })).toBeVisible();
});

test('on a phone the sidebar is a drawer: closed at first, opened by the menu button, closed by Escape or a link', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, 'admin@twofold.test');
  const menuButton = page.getByRole('button', { name: 'Open menu' });
  await expect(menuButton).toBeVisible();
  await expect(menuButton).toHaveAttribute('aria-expanded', 'false');
  // Closed by default: the menu's links are not on the page (the dashboard's own figures link to
  // filtered donations too, under other names).
  await expect(page.getByRole('link', { name: 'Donations', exact: true })).toHaveCount(0);
  await menuButton.click();
  const drawer = page.getByRole('dialog', { name: 'Menu' });
  await expect(drawer).toBeVisible();
  await expect(drawer.getByRole('link', { name: 'Donations' })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(menuButton).toBeFocused();
  await menuButton.click();
  await drawer.getByRole('link', { name: 'Donations' }).click();
  await expect(page).toHaveURL(/\/portal\/donations$/);
  await expect(page.getByRole('heading', { name: 'Donations', level: 1 })).toBeVisible();
  await expect(drawer).toBeHidden();
});

test('on a wide screen the sidebar remembers being collapsed', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, 'reader@twofold.test');
  await page.getByRole('button', { name: 'Collapse sidebar' }).click();
  await expect(page.getByRole('button', { name: 'Expand sidebar' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Expand sidebar' })).toBeVisible();
  await page.getByRole('button', { name: 'Expand sidebar' }).click();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Collapse sidebar' })).toBeVisible();
});
