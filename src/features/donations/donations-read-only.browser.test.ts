import './donations-test-session.ts';
// A file of its own: the session and the organization's level live for the whole page.
import '../../../dist/elements/twofold-donations.js';
import '../../../dist/elements/twofold-toaster.js';
import { assert, button, byText, mount, waitFor } from '../../../elements/browser-test-support.ts';
import { json, listResponse, mockApi } from './donations-test-support.ts';

describe('<twofold-donations> for a read-only user', () => {
  it('offers Download CSV but no Upload', async () => {
    mockApi(() => json(200, listResponse(2)), 'read');
    const el = await mount('twofold-donations');
    const root = el.shadowRoot as ShadowRoot;
    await waitFor(() => byText(root, 'Donor 1'), 'the rows');
    assert(button(root, 'Download CSV') && !button(root, 'Download CSV')?.disabled, 'export for every level');
    assert(!button(root, 'Upload'), 'no Upload without write');
    el.remove();
  });
});
