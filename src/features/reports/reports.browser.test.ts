import '../donations/donations-test-session.ts';
import { sendKeys, sendMouse } from '@web/test-runner-commands';
// The session (a signed-in writer of organization 7) is in place before the bundles load.
import '../../../dist/elements/twofold-report-builder.js';
import '../../../dist/elements/twofold-toaster.js';
import {
  assert,
  assertEqual,
  axeViolations,
  button,
  byText,
  control,
  deepActiveElement,
  errorTexts,
  fill,
  mount,
  openDialog,
  waitFor,
} from '../../../elements/browser-test-support.ts';
import { type Report, reportColumnIds } from '../../contract/reports.ts';
import { type Call, json, mockApi, orgId } from '../donations/donations-test-support.ts';

const report = (id: number, fields: Partial<Report> = {}): Report => ({
  id,
  name: `Report ${id}`,
  scope: 'personal',
  columns: { 'users.name': 'Donor', 'donations.amount': 'Amount' },
  filters: { 'donations.amount': '>200', date_from: '2000-01-01', date_to: '2200-01-01' },
  sort_field: 'donations.id',
  ascending: true,
  organization_id: orgId,
  user_id: 1,
  author: 'Wren Writer',
  downloads: 4,
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-01T00:00:00Z',
  ...fields,
});

async function setup(handler: (call: Call) => Response | Promise<Response>) {
  for (const el of document.querySelectorAll('twofold-report-builder, twofold-toaster')) el.remove();
  const calls = mockApi(handler);
  const toaster = await mount('twofold-toaster');
  const el = await mount('twofold-report-builder');
  return { root: el.shadowRoot as ShadowRoot, toasts: toaster.shadowRoot as ShadowRoot, calls, el };
}

const listPath = `/api/organization/${orgId}/reports`;
const standardApi = (call: Call) => {
  if (call.path === listPath && call.method === 'GET')
    return json(200, {
      reports: [report(1)],
      sharedReports: [report(2, { scope: 'organization', user_id: 9, author: 'Alex' })],
    });
  if (call.path === listPath && call.method === 'POST')
    return json(200, { report: report(3, call.body as Partial<Report>) });
  if (call.path.startsWith('/api/reports/') && call.method === 'DELETE')
    return json(200, { message: 'Report deleted successfully' });
  if (call.path === `/api/donation/${orgId}/csv-token`)
    return json(200, { url: '/api/reports/1/download?token=abc' });
  return json(404, { message: 'Not found' });
};

describe('<twofold-report-builder>', () => {
  it("shows My Reports and the shared ones, 'Any' for the default dates; axe passes", async () => {
    const { root } = await setup(standardApi);
    await waitFor(() => byText(root, 'Report 1'), 'my report');
    assert(byText(root, 'My Reports') && byText(root, 'Shared Reports'), 'both groups');
    assert(byText(root, 'Report 2'), 'the shared report');
    assert(byText(root, 'Dates: Any to Any'), "the 'Any' dates");
    byText(root, 'Report 1')?.click();
    await waitFor(() => byText(root, 'Amount: >200'), 'the details panel');
    assert(byText(root, 'Donor (Donor Name), Amount'), 'the columns with their display names');
    assertEqual(JSON.stringify(await axeViolations(root.host)), '[]', 'axe');
  });

  it('refuses an unnamed report without columns with the spec texts, then saves a valid one', async () => {
    const { root, toasts, calls } = await setup(standardApi);
    (await waitFor(() => button(root, 'New Report'), 'New Report')).click();
    (await waitFor(() => button(root, 'Save Report'), 'the form')).click();
    await waitFor(() => errorTexts(root).length === 2, 'two errors');
    assertEqual(
      JSON.stringify(errorTexts(root)),
      JSON.stringify(['Report name is required', 'You must select at least one column']),
      'errors',
    );
    assert(!calls.some((c) => c.method === 'POST'), 'nothing sent');
    const nameLabel = [...root.querySelectorAll('label')].find((l) =>
      l.textContent?.startsWith('Report name'),
    );
    fill(nameLabel?.control as HTMLInputElement, 'Big gifts');
    control(root, 'Donor Name').click();
    control(root, 'Company').click();
    const amount = control(root, 'Amount filter');
    assertEqual(amount.placeholder, '>200', 'the amount placeholder');
    fill(amount, '>200');
    button(root, 'Save Report')?.click();
    await waitFor(() => byText(toasts, 'Report saved successfully'), 'the saved toast');
    const post = calls.find((c) => c.method === 'POST');
    const body = post?.body as Record<string, unknown>;
    assertEqual(
      JSON.stringify(body.columns),
      JSON.stringify({ 'users.name': 'Donor Name', 'companies.name': 'Company' }),
      'columns in order',
    );
    assertEqual((body.filters as Record<string, unknown>)['donations.amount'], '>200', 'amount filter');
    assertEqual([body.sort_field, body.ascending].join(), 'donations.id,true', 'default sort');
  });

  it('offers how the employer was found (issue #31) as a column and a filter', async () => {
    const { root, toasts, calls } = await setup(standardApi);
    (await waitFor(() => button(root, 'New Report'), 'New Report')).click();
    await waitFor(() => button(root, 'Save Report'), 'the form');
    const nameLabel = [...root.querySelectorAll('label')].find((l) =>
      l.textContent?.startsWith('Report name'),
    );
    fill(nameLabel?.control as HTMLInputElement, 'Found by domain');
    control(root, 'Company').click();
    control(root, 'Employer Found By').click();
    const filter = control(root, 'Employer found by filter');
    assertEqual(filter.placeholder, 'domain, name, alias, history or person', 'the values it takes');
    fill(filter, 'domain');
    button(root, 'Save Report')?.click();
    const post = await waitFor(() => calls.find((c) => c.method === 'POST'), 'the report sent');
    await waitFor(() => byText(toasts, 'Report saved successfully'), 'the saved toast');
    const body = post.body as Record<string, unknown>;
    assertEqual(
      JSON.stringify(body.columns),
      JSON.stringify({ 'companies.name': 'Company', 'donations.employer_method': 'Employer Found By' }),
      'the column, under its display name',
    );
    assertEqual(
      (body.filters as Record<string, unknown>)['donations.employer_method'],
      'domain',
      'the filter',
    );
    assertEqual(JSON.stringify(await axeViolations(root.host)), '[]', 'axe');
  });

  it('clears each error once fixed, ticks columns where they stand and moves them only by the arrows, twice', async () => {
    const { root, calls } = await setup(standardApi);
    (await waitFor(() => button(root, 'New Report'), 'New Report')).click();
    (await waitFor(() => button(root, 'Save Report'), 'the form')).click();
    await waitFor(() => errorTexts(root).length === 2, 'two errors');
    const name = control(root, 'Report name *');
    const labels = () => [...root.querySelectorAll('.reports__check')].map((l) => l.textContent?.trim());
    const before = labels();
    const center = (label: string) => {
      const box = control(root, label).getBoundingClientRect();
      return [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)] as [number, number];
    };
    const checked = () =>
      [...root.querySelectorAll<HTMLInputElement>('.reports__check input')]
        .filter((i) => i.checked)
        .map((i) => i.parentElement?.textContent?.trim());

    for (const round of [1, 2]) {
      // Each error goes as soon as its field is fixed, and comes back when it is undone.
      fill(name, `Round ${round}`);
      await waitFor(() => errorTexts(root).length === 1, 'the name error gone');
      assertEqual(errorTexts(root)[0], 'You must select at least one column', 'the columns error stays');
      fill(name, '');
      await waitFor(() => errorTexts(root)[0] === 'Report name is required', 'the name error back');
      fill(name, `Round ${round}`);

      // Two clicks where the two boxes were before either click: each lands on the box aimed at.
      control(root, 'Company').scrollIntoView({ block: 'center' });
      const company = center('Company');
      const email = center('Donor Email');
      await sendMouse({ type: 'click', position: company });
      await waitFor(() => errorTexts(root).length === 0, 'the columns error gone');
      await sendMouse({ type: 'click', position: email });
      await waitFor(() => checked().length === 2, 'two columns ticked');
      assertEqual(checked().join(), 'Donor Email,Company', 'the two aimed at, in the list order');
      assertEqual(labels().join(), before.join(), 'ticking moved nothing');
      if (round === 1) {
        // Unticking all brings the columns error back.
        for (const label of ['Company', 'Donor Email']) control(root, label).click();
        await waitFor(() => errorTexts(root)[0] === 'You must select at least one column', 'columns error');
      }
    }

    // Company two places up by keyboard: the arrow keeps the focus while its row moves.
    const up = () => button(root, 'Move Company up') as HTMLButtonElement;
    up().focus();
    await sendKeys({ press: 'Enter' });
    await waitFor(() => labels().indexOf('Company') === before.indexOf('Company') - 1, 'moved up once');
    await waitFor(() => root.activeElement === up(), 'focus on the moved arrow');
    await sendKeys({ press: 'Space' });
    await waitFor(() => labels().indexOf('Company') === before.indexOf('Company') - 2, 'moved up twice');
    assertEqual(root.activeElement, up(), 'focus still on the arrow');
    assert(
      byText(
        root,
        `Company moved to position ${before.indexOf('Company') - 1} of ${reportColumnIds.length}.`,
      ),
      'announced',
    );
    // Donor Email to the very end by keyboard: the focus goes to its other arrow at the end.
    button(root, 'Move Donor Email down')?.focus();
    for (let i = labels().indexOf('Donor Email'); i < reportColumnIds.length - 1; i++) {
      await sendKeys({ press: 'Enter' });
      await waitFor(() => labels().indexOf('Donor Email') === i + 1, `Donor Email at ${i + 1}`);
    }
    await waitFor(() => root.activeElement === button(root, 'Move Donor Email up'), 'focus on up');

    button(root, 'Save Report')?.click();
    const post = await waitFor(() => calls.find((c) => c.method === 'POST'), 'the report sent');
    const body = post.body as { name: string; columns: object };
    assertEqual(body.name, 'Round 2', 'the name');
    assertEqual(Object.keys(body.columns).join(), 'companies.name,users.email', 'the moved order');
    assertEqual(JSON.stringify(await axeViolations(root.host)), '[]', 'axe');
  });

  it("copies with '(Copy)' and deletes after 'Are you sure you want to delete this report?'", async () => {
    const { root, toasts, calls } = await setup(standardApi);
    (await waitFor(() => button(root, 'Copy Report 1'), 'copy')).click();
    await waitFor(() => calls.some((c) => c.method === 'POST'), 'the copy saved');
    const copied = calls.find((c) => c.method === 'POST')?.body as { name: string; id: number } | undefined;
    assertEqual(copied?.name, 'Report 1 (Copy)', 'copy name');
    assertEqual(copied?.id, 0, 'a new report');
    // The portal's own confirmation (issue #30), twice: Escape keeps the report, then it goes.
    const opener = button(root, 'Delete Report 1');
    assert(opener, 'Delete Report 1');
    opener.focus();
    await sendKeys({ press: 'Enter' });
    const dialog = await waitFor(() => openDialog(root, 'Delete report'), 'the confirmation');
    assert(byText(dialog, 'Are you sure you want to delete this report?'), "the spec's question");
    assertEqual(deepActiveElement()?.textContent, 'Cancel', 'focus starts on Cancel');
    await sendKeys({ press: 'Escape' });
    await waitFor(() => !openDialog(root, 'Delete report'), 'Escape to cancel');
    assertEqual(deepActiveElement(), opener, 'focus back on Delete');
    assert(!calls.some((c) => c.method === 'DELETE'), 'nothing deleted on Escape');
    await sendKeys({ press: 'Enter' });
    await waitFor(() => openDialog(root, 'Delete report'), 'the confirmation again');
    await sendKeys({ press: 'Tab' });
    assertEqual(deepActiveElement()?.textContent, 'Delete report', 'the button is named for the action');
    await sendKeys({ press: 'Enter' });
    await waitFor(() => byText(toasts, 'Report deleted successfully'), 'the deleted toast');
    assert(
      calls.some((c) => c.method === 'DELETE' && c.path === '/api/reports/1'),
      'DELETE /api/reports/1',
    );
  });

  it('downloads through csv-token?report_id= with the chosen file type', async () => {
    const { root, toasts, calls, el } = await setup(standardApi);
    let opened = '';
    el.addEventListener('twofold-request-download', (event) => {
      event.preventDefault();
      opened = event.detail.url;
    });
    const type = await waitFor(() => control<HTMLSelectElement>(root, 'File type for Report 1'), 'the type');
    type.value = 'xlsx';
    type.dispatchEvent(new Event('change', { bubbles: true }));
    button(root, 'Download Report 1')?.click();
    await waitFor(() => byText(toasts, 'Report download started'), 'the download toast');
    const token = calls.find((c) => c.path === `/api/donation/${orgId}/csv-token`);
    assertEqual(token?.search.get('report_id'), '1', 'report_id');
    assertEqual(token?.search.get('format'), 'xlsx', 'format');
    assertEqual(opened, `${location.origin}/api/reports/1/download?token=abc`, 'the absolute link');
  });

  it("shows 'Failed to load reports' and empty lists when the list fails", async () => {
    const { root, toasts } = await setup(() => json(500, { message: 'boom' }));
    await waitFor(() => byText(toasts, 'Failed to load reports'), 'the error toast');
    assert(byText(root, 'You have no reports yet.'), 'an empty list');
  });
});
