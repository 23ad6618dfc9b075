import { mount } from '../../../elements/browser-test-support.ts';
import type { Campaign } from '../../contract/campaigns.ts';
import { json, mockApi, orgId } from '../donations/donations-test-support.ts';

/** What the campaigns' browser tests share: one stored campaign, and the element mounted over a mocked API. */

export const saved: Campaign = {
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

export async function setup(initial: Campaign[], level: 'read' | 'write' | 'admin' = 'write') {
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
