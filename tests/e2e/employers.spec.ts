import { expect, test } from '@playwright/test';
import { expectNoAxeViolations, signIn } from './support.ts';

// Issue 31: a messy donation-platform export goes in; the Test shows each row's employer with its
// reason; the uncertain one is reviewed on the Employers screen; the matches move on. Names carry
// a per-run stamp so other journeys' matches never collide with these.
test.describe.configure({ mode: 'serial' });

const hope = 'Hope Harbor Foundation';
const stamp = Date.now().toString(36);
const who = (name: string) => `${name} ${stamp}`;
const mail = (name: string, domain: string) => `${name.toLowerCase()}-${stamp}@${domain}`;

const csv = [
  'Donor Name,Donor Email,Gift Amount,Donation Date,Employer,Organization',
  `${who('Ann Typed')},${mail('ann', 'gmail.com')},100.00,2026-03-01,"Acme Analytics, Inc.",${hope}`,
  `${who('Bo Typo')},${mail('bo', 'yahoo.com')},100.00,2026-03-01,Acme Analytcs,${hope}`,
  `${who('Cy Work')},${mail('cy', 'eu.birch-bank.example.com')},100.00,2026-03-01,,${hope}`,
  `${who('Di Unsure')},${mail('di', 'acme-analytics.example.com')},100.00,2026-03-01,Birch Bank,${hope}`,
  `${who('Ed Retired')},${mail('ed', 'gmial.com')},100.00,2026-03-01,Retired,${hope}`,
].join('\n');

test('import a messy file, see the employers found with their reasons, review the uncertain one, and the match moves on', async ({
  page,
}) => {
  await signIn(page, 'admin@twofold.test');
  await page.goto('/portal/donations');
  await expect(page.getByRole('heading', { name: 'Donations', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  const upload = page.getByRole('dialog', { name: 'Upload Donations' });
  await upload.getByLabel('Donations file').setInputFiles({
    name: `employers-${stamp}.csv`,
    mimeType: 'text/csv',
    buffer: Buffer.from(csv),
  });
  await upload.getByRole('button', { name: 'Continue' }).click();

  const mapper = page.getByRole('dialog', { name: 'Field Mapper' });
  await expect(mapper).toBeVisible();
  const employers = mapper.getByRole('region', { name: 'Employers found' });
  await expect(employers).toContainText('3 employers found (email domain 1, name 2)');
  await expect(employers).toContainText('2 rows need a person');
  await expect(employers).toContainText('1 misspelt donor email corrected');
  const typo = employers.getByRole('row').filter({ hasText: 'Acme Analytcs' });
  await expect(typo).toContainText("typed 'Acme Analytcs', close to Acme Analytics");
  await expect(employers.getByRole('row').filter({ hasText: 'eu.birch-bank' })).toContainText('Birch Bank');
  const unsure = employers.getByRole('row').filter({ hasText: mail('di', 'acme-analytics.example.com') });
  await expect(unsure).toContainText('needs a person');
  await expect(unsure).toContainText('60%');
  await expectNoAxeViolations(page);
  await employers.getByLabel('Show only the rows that need a person').check();
  await expect(employers.getByRole('row')).toHaveCount(3);

  await mapper.getByRole('button', { name: 'Upload' }).click();
  await expect(page.getByText('Created 5 donations')).toBeVisible();

  await page.goto('/portal/employers');
  await expect(page.getByRole('heading', { name: 'Employers', level: 1 })).toBeVisible();
  const review = page.getByRole('row').filter({ hasText: who('Di Unsure') });
  await expect(review).toContainText(
    "email domain acme-analytics.example.com, but typed 'Birch Bank', the name of Birch Bank",
  );
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: `Accept Acme Analytics for ${who('Di Unsure')}` }).click();
  await expect(page.locator('twofold-employers').getByRole('status')).toHaveText('1 accepted.');
  await expect(review).toHaveCount(0);

  // The accepted match left Missing Company Hold with its company, as the status table says.
  await page.goto('/portal/donations');
  await expect(page.getByText('Loading donations...')).toHaveCount(0);
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await page.getByLabel('Donor name or email').fill(who('Di Unsure'));
  const moved = page.getByRole('row').filter({ hasText: who('Di Unsure') });
  await expect(moved).toContainText('Acme Analytics');
  await expect(moved).not.toContainText('Missing Company Hold');
});
