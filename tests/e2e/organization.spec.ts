import { expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations, linkFromMailbox, signIn } from './support.ts';

// The demo data: admin@ is admin of Hope Harbor (the first organization by name, selected on
// sign-in), writer@ has write and reader@ read on it. Tests run in order on one database.
const hope = 'Hope Harbor Foundation';

/** A 1×1 PNG, and a text file that only claims to be one. */
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const fakePng = Buffer.from('this is plain text, not an image\n');
const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

async function openDetails(page: Page, tab?: string) {
  await page.goto(`/portal/organization-details${tab ? `?tab=${tab}` : ''}`);
  await expect(page.getByRole('heading', { name: 'Organization Details', level: 1 })).toBeVisible();
  await expect(page.getByText(hope, { exact: true }).first()).toBeVisible();
}

function tab(page: Page, name: string) {
  return page.getByRole('tab', { name, exact: true });
}

const saveButton = (page: Page) => page.getByRole('button', { name: 'Save Changes' });

test('each tab loads, keeps its name in the address and passes axe', async ({ page }) => {
  await signIn(page, 'admin@twofold.test');
  await openDetails(page, 'nonsense');
  // spec: an unknown tab value shows the first tab.
  await expect(tab(page, 'Basic')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('Organization Name')).toHaveValue(hope);
  await expect(page.getByLabel('Organization Name')).toHaveAttribute('required', '');
  await expect(page.getByLabel('Organization Type')).toHaveValue('non-profit');
  await expect(saveButton(page)).toBeDisabled();
  await expectNoAxeViolations(page);

  const checks: Array<[string, string, () => Promise<void>]> = [
    ['Contact', 'contact', () => expect(page.getByLabel('Contact Name')).toHaveValue('Dana Whitfield')],
    ['Address', 'address', () => expect(page.getByLabel('City')).toHaveValue('Boston')],
    [
      'Categories',
      'categories',
      () => expect(page.getByRole('checkbox', { name: 'Foodbanks' })).toBeChecked(),
    ],
    [
      'Users',
      'users',
      () => expect(page.getByRole('cell', { name: 'reader@twofold.test', exact: true })).toBeVisible(),
    ],
    ['Files', 'files', () => expect(page.getByRole('heading', { name: 'Documents' })).toBeVisible()],
    [
      'Settings',
      'settings',
      () => expect(page.getByRole('heading', { name: 'Notification emails' })).toBeVisible(),
    ],
  ];
  for (const [label, id, loaded] of checks) {
    await tab(page, label).click();
    await expect(tab(page, label)).toHaveAttribute('aria-selected', 'true');
    await expect(page).toHaveURL(new RegExp(`[?&]tab=${id}$`));
    await loaded();
    await expectNoAxeViolations(page);
  }
  await expect(page.getByText('Loading...')).toBeHidden();
  // The address keeps the tab: a reload comes back to it.
  await page.reload();
  await expect(tab(page, 'Settings')).toHaveAttribute('aria-selected', 'true');
});

test('Save Changes sends only the changed phone, toasts, and Cancel resets', async ({ page }) => {
  await signIn(page, 'writer@twofold.test');
  await openDetails(page, 'basic');
  const phone = page.getByLabel('Phone', { exact: true });
  await expect(phone).toHaveValue('(617) 555-0142');

  await phone.fill('(617) 555-0000');
  await expect(saveButton(page)).toBeEnabled();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(phone).toHaveValue('(617) 555-0142');
  await expect(saveButton(page)).toBeDisabled();

  await phone.fill('(617) 555-0199');
  const sent = page.waitForRequest((r) => r.url().includes('/partial') && r.method() === 'PUT');
  await saveButton(page).click();
  const url = new URL((await sent).url());
  expect([...url.searchParams.keys()]).toEqual(['phone']);
  await expect(page.getByText(`Organization "${hope}" updated successfully`)).toBeVisible();
  await expect(page.getByText('Organization updated successfully!')).toBeVisible();
  await expect(saveButton(page)).toBeDisabled();

  await page.reload();
  await expect(page.getByLabel('Phone', { exact: true })).toHaveValue('(617) 555-0199');
});

test('a rename shows in the sidebar; contact, address and categories save', async ({ page }) => {
  await signIn(page, 'admin@twofold.test');
  await openDetails(page, 'basic');
  const sidebar = page.getByRole('navigation', { name: 'Main' });

  await page.getByLabel('Organization Name').fill(`${hope} of Boston`);
  await saveButton(page).click();
  await expect(sidebar.getByText(`${hope} of Boston`, { exact: true })).toBeVisible();
  await page.getByLabel('Organization Name').fill(hope);
  await saveButton(page).click();
  await expect(sidebar.getByText(hope, { exact: true })).toBeVisible();

  // An emptied required name is refused with the contract's message, and nothing is sent.
  await page.getByLabel('Organization Name').fill('  ');
  await saveButton(page).click();
  await expect(page.getByText('Organization name is required')).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();

  await tab(page, 'Contact').click();
  await page.getByLabel('Contact Phone').fill('(617) 555-0144');
  await tab(page, 'Address').click();
  await expect(page.getByLabel('State')).toHaveAttribute('maxlength', '2');
  await page.getByLabel('Street 2').fill('Suite 500');
  await tab(page, 'Categories').click();
  await page.getByRole('checkbox', { name: 'Youth Organizations' }).check();
  await saveButton(page).click();
  await expect(page.getByText('Organization updated successfully!')).toBeVisible();

  await page.reload();
  await expect(page.getByRole('checkbox', { name: 'Youth Organizations' })).toBeChecked();
  await tab(page, 'Address').click();
  await expect(page.getByLabel('Street 2')).toHaveValue('Suite 500');
  await tab(page, 'Contact').click();
  await expect(page.getByLabel('Contact Phone')).toHaveValue('(617) 555-0144');
});

test('settings: donation fields, who is emailed, the minimum and the write-only private key', async ({
  page,
}) => {
  await signIn(page, 'admin@twofold.test');
  await openDetails(page, 'settings');
  const fields = page.getByRole('list', { name: 'Custom donation fields' });
  await expect(fields.getByText('In honor of')).toBeVisible();
  const entry = page.getByLabel('New donation field');
  await entry.fill('   ');
  await expect(page.getByRole('button', { name: 'Add Field' })).toBeDisabled();
  // spec: trimmed, and Enter adds it.
  await entry.fill('  Employee ID  ');
  await entry.press('Enter');
  await expect(fields.getByText('Employee ID', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Remove Campaign' }).click();
  await page.getByRole('radio', { name: 'Only donors who entered an employer' }).check();
  await page.getByLabel('Minimum donation amount to email').fill('25');
  await page.getByLabel('Private key').fill('sk_test_private_123');
  await saveButton(page).click();
  await expect(page.getByText('Organization updated successfully!')).toBeVisible();
  await expect(page.getByText('A private key is stored')).toBeVisible();
  await expect(page.getByLabel('Private key')).toHaveCount(0);

  await page.reload();
  await expect(fields.getByText('Employee ID', { exact: true })).toBeVisible();
  await expect(fields.getByText('Campaign', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('radio', { name: 'Only donors who entered an employer' })).toBeChecked();
  await expect(page.getByLabel('Minimum donation amount to email')).toHaveValue('25');
  // spec: it must be deleted before a new one is entered.
  await page.getByRole('button', { name: 'Delete private key' }).click();
  await saveButton(page).click();
  await expect(page.getByLabel('Private key')).toBeVisible();
  await expect(page.getByText('A private key is stored')).toHaveCount(0);
});

test('notification emails are added and removed at once', async ({ page }) => {
  await signIn(page, 'admin@twofold.test');
  await openDetails(page, 'settings');
  const input = page.getByRole('textbox', { name: 'Notification email' });
  await expect(page.getByRole('button', { name: 'Add Email' })).toBeDisabled();
  await input.fill('alerts@hopeharbor.example.org');
  await page.getByRole('button', { name: 'Add Email' }).click();
  await expect(page.getByText('Notification email added')).toBeVisible();
  const list = page.getByRole('list', { name: 'Notification emails' });
  await expect(list.getByText('alerts@hopeharbor.example.org')).toBeVisible();
  await page.reload();
  await expect(list.getByText('alerts@hopeharbor.example.org')).toBeVisible();
  await page.getByRole('button', { name: 'Remove alerts@hopeharbor.example.org' }).click();
  await expect(page.getByText('Notification email removed')).toBeVisible();
  await expect(page.getByText('alerts@hopeharbor.example.org')).toHaveCount(0);
});

test('an admin adds a user by email, who is invited; edits and removes them', async ({ page, context }) => {
  // A new address each run, so the journey can be repeated on the same database.
  const volunteer = `volunteer-${Date.now()}@hopeharbor.example.org`;
  await signIn(page, 'admin@twofold.test');
  await openDetails(page, 'users');
  const addButton = page.getByRole('button', { name: 'Add User' });
  await expect(addButton).toBeDisabled();
  const form = page.getByRole('form', { name: 'Add User' });
  await expect(form.getByLabel('Permission Level')).toHaveValue('read');
  await form.getByLabel('Email').fill(volunteer);
  await addButton.click();
  await expect(page.getByText('User added successfully')).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: volunteer });
  await expect(row.getByText('No Name')).toBeVisible();
  await expect(row.getByText('read', { exact: true })).toBeVisible();

  // spec: a new user gets an email to set a password.
  const link = await linkFromMailbox(context, volunteer, '/portal/reset-password');
  expect(new URL(link).searchParams.get('token')).toBeTruthy();
  // It opens the page titled for a first password, not a reset.
  expect(new URL(link).searchParams.get('purpose')).toBe('create');

  await row.getByRole('button', { name: `Edit ${volunteer}` }).click();
  const edit = page.getByRole('form', { name: `Edit ${volunteer}` });
  await edit.getByLabel('Name').fill('Vera Volunteer');
  await edit.getByLabel('Permission Level').selectOption('write');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('User updated successfully')).toBeVisible();
  const edited = page.getByRole('row').filter({ hasText: 'Vera Volunteer' });
  await expect(edited.getByText('write', { exact: true })).toBeVisible();

  await edited.getByRole('button', { name: `Remove ${volunteer}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove user' });
  await expect(dialog).toBeVisible();
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: 'Remove user', exact: true }).click();
  await expect(page.getByText('User removed successfully')).toBeVisible();
  // The focus does not get lost with the removed row.
  await expect(page.getByRole('table', { name: 'Users' })).toBeFocused();
  await expect(page.getByRole('row').filter({ hasText: 'Vera Volunteer' })).toHaveCount(0);

  // The organization's only admin cannot be removed: the server says why.
  await page.getByRole('button', { name: 'Remove admin@twofold.test' }).click();
  await page
    .getByRole('dialog', { name: 'Remove user' })
    .getByRole('button', { name: 'Remove user', exact: true })
    .click();
  await expect(page.getByText('Failed to remove user')).toBeVisible();
  await expect(page.getByText('An organization needs at least one admin.')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'admin@twofold.test' })).toBeVisible();
});

test('an existing account is invited, pending until its owner accepts from the email', async ({
  page,
  context,
  browser,
}) => {
  // An account of Hope Harbor (created by adding a new address there), invited to Maple Street.
  const neighbour = `neighbour-${Date.now()}@example.org`;
  await signIn(page, 'admin@twofold.test');
  await openDetails(page, 'users');
  const add = page.getByRole('form', { name: 'Add User' });
  await add.getByLabel('Email').fill(neighbour);
  await add.getByLabel('Name (optional)').fill('Nia Neighbour');
  await page.getByRole('button', { name: 'Add User' }).click();
  await expect(page.getByText('User added successfully')).toBeVisible();

  await page.getByRole('combobox', { name: /organization/i }).selectOption({ label: 'Maple Street PTA' });
  await expect(page.getByRole('navigation').getByText('Maple Street PTA', { exact: true })).toBeVisible();
  await page.goto('/portal/organization-details?tab=users');
  await add.getByLabel('Email').fill(neighbour);
  await add.getByLabel('Name (optional)').fill('Someone Else');
  await page.getByRole('button', { name: 'Add User' }).click();
  await expect(page.getByText('Invitation sent', { exact: true })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: neighbour });
  // The admin's name is not applied to someone else's account, and it is not a member yet.
  await expect(row.getByText('Nia Neighbour')).toBeVisible();
  await expect(row.getByText('Pending', { exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: `Edit ${neighbour}` })).toHaveCount(0);
  await expectNoAxeViolations(page);

  // The owner, in their own browser, follows the emailed link and accepts.
  const link = await linkFromMailbox(context, neighbour, '/portal/login');
  expect(new URL(link).searchParams.get('invitation')).toBeTruthy();
  const owner = await browser.newContext({ baseURL: new URL(link).origin });
  const ownerPage = await owner.newPage();
  await ownerPage.goto(link);
  await expect(ownerPage.getByRole('heading', { name: 'Join Maple Street PTA' })).toBeVisible();
  await expect(
    ownerPage.getByText(/invited .+ to join Maple Street PTA on Twofold with read access/),
  ).toBeVisible();
  await expect(ownerPage).not.toHaveURL(/invitation=/);
  await ownerPage.getByRole('button', { name: 'Accept invitation' }).click();
  await expect(ownerPage.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(
    ownerPage.getByRole('navigation').getByText('Maple Street PTA', { exact: true }),
  ).toBeVisible();
  await owner.close();

  // Now a member; its name is Hope Harbor's too, so Maple Street's admin sees it read-only.
  await page.reload();
  const member = page.getByRole('row').filter({ hasText: neighbour });
  await expect(member.getByText('Pending', { exact: true })).toHaveCount(0);
  await member.getByRole('button', { name: `Edit ${neighbour}` }).click();
  const edit = page.getByRole('form', { name: `Edit ${neighbour}` });
  await expect(edit.getByLabel('Name')).toHaveAttribute('readonly', '');
  await expect(edit.getByText(/only its owner can change its name and email/)).toBeVisible();
});

test('logo: a text file named .png is refused by the server; a PNG shows in the sidebar', async ({
  page,
}) => {
  await signIn(page, 'writer@twofold.test');
  await openDetails(page, 'files');
  const logoInput = page.getByLabel('Logo file');
  const upload = page.getByRole('button', { name: 'Upload Logo' });

  // The browser's own check (by type).
  await logoInput.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: fakePng });
  await expect(page.getByText('Please select a PNG or JPG file')).toBeVisible();
  await expect(upload).toBeDisabled();

  // The server's check (by content).
  await logoInput.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: fakePng });
  await upload.click();
  await expect(page.getByText('Failed to upload logo')).toBeVisible();
  await expect(page.getByText('Please select a PNG or JPG file')).toBeVisible();
  await expect(page.getByRole('img', { name: `${hope} logo` })).toHaveCount(0);
  await expect(page.getByText('No logo yet.')).toBeVisible();

  await logoInput.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png });
  await upload.click();
  await expect(page.getByText('Logo uploaded successfully')).toBeVisible();
  await expect(page.getByRole('img', { name: `${hope} logo` })).toBeVisible();
  const sidebarLogo = page.getByRole('navigation', { name: 'Main' }).locator('img.sidebar__logo');
  await expect(sidebarLogo).toHaveAttribute('src', /\/files\//);
  await expect.poll(() => sidebarLogo.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(1);
});

test('documents need a name and a file; they upload and delete', async ({ page }) => {
  await signIn(page, 'writer@twofold.test');
  await openDetails(page, 'files');
  const upload = page.getByRole('button', { name: 'Upload Document' });
  await expect(upload).toBeDisabled();
  await page.getByLabel('Document name').fill('IRS determination letter');
  await expect(upload).toBeDisabled();
  await page
    .getByLabel('Document file')
    .setInputFiles({ name: 'irs.pdf', mimeType: 'application/pdf', buffer: pdf });
  await expect(upload).toBeEnabled();
  await upload.click();
  await expect(page.getByText('Document uploaded successfully')).toBeVisible();
  await expect(page.getByText('IRS determination letter', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Document name')).toHaveValue('');
  // Documents are served only with the bearer token: the file opens in a new tab from a local copy.
  const opened = page.context().waitForEvent('page');
  await page.getByText('IRS determination letter', { exact: true }).click();
  const viewer = await opened;
  expect(viewer.url()).toMatch(/^blob:/);
  await viewer.close();

  await page.getByRole('button', { name: 'Delete IRS determination letter' }).click();
  await page
    .getByRole('dialog', { name: 'Delete document' })
    .getByRole('button', { name: 'Delete document', exact: true })
    .click();
  await expect(page.getByText('IRS determination letter', { exact: true })).toHaveCount(0);
  await expect(page.getByText('No documents yet.')).toBeVisible();
});

test('a read user sees everything and can change nothing', async ({ page }) => {
  await signIn(page, 'reader@twofold.test');
  await openDetails(page, 'basic');
  await expect(page.getByLabel('Organization Name')).toBeDisabled();
  await expect(saveButton(page)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Cancel' })).toHaveCount(0);
  await tab(page, 'Users').click();
  await expect(page.getByRole('cell', { name: 'admin@twofold.test', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add User' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Remove / })).toHaveCount(0);
  await tab(page, 'Files').click();
  await expect(page.getByRole('button', { name: 'Upload Logo' })).toHaveCount(0);
  await tab(page, 'Settings').click();
  await expect(page.getByRole('button', { name: 'Add Email' })).toHaveCount(0);
  await expect(page.getByLabel('Public key')).toBeDisabled();
  await expectNoAxeViolations(page);
});
