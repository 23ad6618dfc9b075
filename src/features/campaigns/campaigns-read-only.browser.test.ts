import '../donations/donations-test-session.ts';
// A file of its own: the organization (and so the level) is loaded once per page.
// The signed-in session is stored before the bundles load (see donations-test-session.ts).
import '../../../dist/elements/twofold-campaigns.js';
import '../../../dist/elements/twofold-toaster.js';
import {
  assert,
  assertEqual,
  button,
  byText,
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

describe('<twofold-campaigns> for a reader', () => {
  it('lists the campaigns, and a reader can neither add nor open one', async () => {
    const { el, root } = await setup([saved], 'read');
    await waitFor(() => byText(root, 'Match Day'), 'the campaign');
    for (const cell of ['Birch Analytics', 'Nov 15, 2026', '$25 / No max', '2:1', 'Yes'])
      assert(byText(root, cell), `the cell ${cell}`);
    assert(byText(root, campaignTexts.readOnly), 'the read-only note');
    assertEqual(button(root, campaignTexts.add), undefined, 'no Add Campaign');
    assertEqual(button(root, 'Match Day'), undefined, 'the name is not a button');
    el.remove();
  });
});
