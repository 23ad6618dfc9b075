import '../donations/donations-test-session.ts';
// The signed-in session is stored before the bundles load (see donations-test-session.ts).
import '../../../dist/elements/twofold-campaigns.js';
import '../../../dist/elements/twofold-toaster.js';
import {
  assert,
  assertEqual,
  axeViolations,
  button,
  byText,
  errorTexts,
  fill,
  input,
  mount,
  waitFor,
} from '../../../elements/browser-test-support.ts';
import { type Campaign, campaignTexts } from '../../contract/campaigns.ts';
import { json, mockApi, orgId } from '../donations/donations-test-support.ts';

const saved: Campaign = {
  id: 3,
  organization_id: orgId,
  name: 'Match Day',
  company_id: 12,
  company_name: 'Birch Analytics',
  start_date: '2026-11-15',
  end_date: '2026-11-15',
  min_amount: 25,
  max_amount: 0,
  match_ratio: '2:1',
  group_submit: true,
  bill_eligible: false,
  bill_processed: false,
  message: '',
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
};

async function setup(initial: Campaign[], level: 'read' | 'write' | 'admin' = 'write') {
  for (const el of document.querySelectorAll('twofold-campaigns, twofold-toaster')) el.remove();
  const calls = mockApi((call) => {
    if (call.path === `/api/organization/${orgId}/campaigns` && call.method === 'GET')
      return json(200, { campaigns: initial });
    return json(404, { message: 'Not found' });
  }, level);
  const toaster = await mount('twofold-toaster');
  const el = await mount('twofold-campaigns');
  return { el, root: el.shadowRoot as ShadowRoot, toasts: toaster.shadowRoot as ShadowRoot, calls };
}

describe('<twofold-campaigns>', () => {
  it('lists a campaign with its cells, opened by its name', async () => {
    const { el, root } = await setup([saved]);
    await waitFor(() => byText(root, 'Match Day'), 'the campaign');
    for (const cell of ['Birch Analytics', 'Nov 15, 2026', '$25 / No max', '2:1', 'Yes'])
      assert(byText(root, cell), `the cell ${cell}`);
    button(root, 'Match Day')?.click();
    await waitFor(() => input(root, 'Campaign name *')?.value === 'Match Day', 'the campaign in the dialog');
    assert(button(root, campaignTexts.delete), 'Delete');
    assert(button(root, campaignTexts.save), 'Save');
    el.remove();
  });

  it("shows the spec's empty text, and the dialog checks the form before sending anything", async () => {
    const { el, root, calls } = await setup([]);
    await waitFor(() => byText(root, campaignTexts.empty), 'the empty text');
    assert(byText(root, campaignTexts.note), 'the note');
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe violations on the table');
    button(root, campaignTexts.add)?.click();
    await waitFor(() => byText(root, campaignTexts.dialogTitle), 'the Match Campaign dialog');
    const ratio = await waitFor(() => input(root, 'Match ratio'), 'the ratio field');
    fill(ratio, 'twice');
    button(root, campaignTexts.create)?.click();
    await waitFor(() => errorTexts(root).includes(campaignTexts.ratio), 'the ratio message');
    assert(errorTexts(root).includes(campaignTexts.nameRequired), 'the name message');
    assert(errorTexts(root).includes(campaignTexts.companyRequired), 'the company message');
    assertEqual(
      calls.filter((c) => c.method === 'POST').length,
      0,
      'nothing is sent while the form has problems',
    );
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe violations in the dialog');
    el.remove();
  });
});
