import './donations-test-session.ts';
// A file of its own: the session and the current organization live for the whole page.
import '../../../dist/elements/twofold-donations.js';
import { assert, assertEqual, byText, mount, waitFor } from '../../../elements/browser-test-support.ts';
import { json, listResponse, mockApi } from './donations-test-support.ts';

describe('<twofold-donations> for an organization whose setup is not complete', () => {
  it('says why its matches wait (no tile counts them) and links to the dashboard to finish', async () => {
    mockApi(() => json(200, listResponse(2)), 'write', { complete: false });
    const el = await mount('twofold-donations');
    const root = el.shadowRoot as ShadowRoot;
    await waitFor(() => byText(root, '2 Found'), 'the list');
    const notice = root.querySelector('.donations__notice');
    assert(notice?.textContent?.includes('NPO Registration Incomplete'), 'the notice names the status');
    assert(notice?.textContent?.includes('mark setup complete'), 'it says what to do');
    assertEqual(notice?.querySelector('a')?.getAttribute('href'), '/portal', 'it links to the dashboard');
    el.remove();
  });
});
