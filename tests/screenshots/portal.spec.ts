import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { portalRoutes } from '../e2e/portal-routes.ts';
import { signIn } from '../e2e/support.ts';

/**
 * `npm run screenshots`: every portal route at 1280 × 800 and 390 × 844, full page, into
 * screenshots/ (name-width.png), for a reviewer to look at. Not part of `npm test`.
 */
const out = 'screenshots';
mkdirSync(out, { recursive: true });

for (const width of [1280, 390]) {
  for (const route of portalRoutes) {
    test(`${route.name} at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: width > 600 ? 800 : 844 });
      if (route.signedIn) await signIn(page, 'admin@twofold.test');
      await page.goto(route.path);
      await expect(page.getByText(route.ready).filter({ visible: true }).first()).toBeVisible();
      await expect(page.getByText(/^Loading/)).toHaveCount(0);
      await page.screenshot({
        path: `${out}/${route.name}-${width}.png`,
        fullPage: true,
        animations: 'disabled',
      });
    });
  }
}
