import { expect, type Page, test } from '@playwright/test';
import { portalRoutes } from './portal-routes.ts';
import { expectNoAxeViolations, signIn } from './support.ts';

/** How far the page is wider than the window: anything above 0 scrolls sideways. */
const sidewaysOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/**
 * Every portal route on a phone (390 × 844, an iPhone 14's CSS pixels): nothing scrolls the page
 * sideways (wide tables scroll inside their own box) and axe finds nothing.
 */
for (const route of portalRoutes) {
  test(`${route.name} fits a 390 px wide phone without scrolling sideways, and passes axe`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    if (route.signedIn) await signIn(page, 'admin@twofold.test');
    await page.goto(route.path);
    // The first visible match: a closed dialog may hold the same words (a title) earlier in the DOM.
    await expect(page.getByText(route.ready).filter({ visible: true }).first()).toBeVisible();
    await expect(page.getByText(/^Loading/)).toHaveCount(0);
    expect(await sidewaysOverflow(page), `${route.path} is wider than the phone`).toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page);
    // Every page, public ones included, has the site's icon (issue #30), and the server serves it.
    const icon = await page.locator('head link[rel="icon"]').getAttribute('href');
    expect(icon).toBe('/favicon.svg');
    const served = await page.request.get(icon as string);
    expect(served.ok()).toBe(true);
    expect(served.headers()['content-type']).toMatch(/^image\/svg\+xml/);
  });
}
