import '../donations/donations-test-session.ts';
// A file of its own: the session and the organization's level live for the whole page.
import '../../../dist/elements/twofold-integrations.js';
import { assertEqual, button, byText, mount, waitFor } from '../../../elements/browser-test-support.ts';
import { json, mockApi } from '../donations/donations-test-support.ts';

describe('<twofold-integrations> for a user who is not an admin', () => {
  it('says only admins manage keys, and asks the server for none', async () => {
    const calls = mockApi(() => json(404, { message: 'Not found' }), 'write');
    const el = await mount('twofold-integrations');
    const root = el.shadowRoot as ShadowRoot;
    await waitFor(() => button(root, 'Manage API Keys'), 'the API card');
    button(root, 'Manage API Keys')?.click();
    await waitFor(() => byText(root, 'Only admins of this organization can manage API keys.'), 'the notice');
    assertEqual(
      calls.filter((c) => c.path.includes('api_keys') || c.path.includes('api-key')).length,
      0,
      'no key calls',
    );
    el.remove();
  });
});
