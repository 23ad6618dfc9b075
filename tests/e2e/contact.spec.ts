import { expect, test } from '@playwright/test';
import { expectNoAxeViolations } from './support.ts';

test('a visitor sends a message: the captcha solves itself, the form resets and support gets the mail', async ({
  page,
  context,
}) => {
  const subject = `Question ${Date.now()}`;
  await page.goto('/portal/contact');
  await expect(page.getByRole('heading', { name: 'Contact Us', level: 1 })).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByText('Name is required')).toBeVisible();
  await expect(page.getByText('Message is required')).toBeVisible();

  await page.getByLabel('Name').fill('  Dana Donor  ');
  await page.getByLabel('Email').fill('dana.donor@example.org');
  await page.getByLabel('Organization').fill('Maple Street PTA');
  await page.getByLabel('Subject').fill(subject);
  await page.getByLabel('Message').fill('Does my employer match gifts to the PTA?');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByText('Message sent!')).toBeVisible();
  await expect(page.getByText("We'll get back to you as soon as possible.")).toBeVisible();
  await expect(page.getByLabel('Subject')).toHaveValue('');
  await expect(page.getByLabel('Name')).toHaveValue('');

  // The support mailbox (the dev mailbox, as support@twofold.test would read it) has the message.
  const mailbox = await context.newPage();
  await expect
    .poll(
      async () => {
        await mailbox.goto('/dev/mailbox');
        const row = mailbox
          .getByRole('row')
          .filter({ has: mailbox.getByRole('cell', { name: 'support@twofold.test', exact: true }) })
          .filter({ hasText: subject });
        return row.count();
      },
      { message: 'a mail to support@twofold.test about the message' },
    )
    .toBeGreaterThan(0);
  await mailbox.getByRole('row').filter({ hasText: subject }).first().getByRole('link').click();
  await expect(mailbox.getByText('Does my employer match gifts to the PTA?')).toBeVisible();
  await expect(mailbox.getByText('dana.donor@example.org').first()).toBeVisible();
  await mailbox.close();

  // The solution was spent: a second message solves a fresh challenge and goes through too.
  await page.getByLabel('Name').fill('Dana Donor');
  await page.getByLabel('Email').fill('dana.donor@example.org');
  await page.getByLabel('Organization').fill('Maple Street PTA');
  await page.getByLabel('Subject').fill(`${subject} (follow-up)`);
  await page.getByLabel('Message').fill('One more question.');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByLabel('Subject')).toHaveValue('');
});

test('a forged captcha token is refused with the Error toast', async ({ page }) => {
  await page.goto('/portal/contact');
  // A page script that swaps in a made-up solution, as a spam bot would.
  await page.route('**/api/contact-form', async (route) => {
    const body = route.request().postDataJSON() as Record<string, unknown>;
    const forged = btoa(
      JSON.stringify({ algorithm: 'SHA-256', challenge: 'ab', number: 1, salt: 'x', signature: 'forged' }),
    );
    await route.continue({ postData: JSON.stringify({ ...body, recaptchaToken: forged }) });
  });
  await page.getByLabel('Name').fill('Spam Bot');
  await page.getByLabel('Email').fill('bot@example.org');
  await page.getByLabel('Organization').fill('Bots Inc');
  await page.getByLabel('Subject').fill('Buy now');
  await page.getByLabel('Message').fill('Spam.');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByText('Error', { exact: true })).toBeVisible();
  await expect(page.getByText('Verification failed. Please try again.')).toBeVisible();
  await expect(page.getByLabel('Subject')).toHaveValue('Buy now');
});
