import '../donations/donations-test-session.ts';
// A file of its own: a user with no organization at all (the session lives for the whole page).
import '../../../dist/elements/twofold-webhooks.js';
import {
  assertEqual,
  byText,
  jsonResponse as json,
  mockApi,
  mount,
  waitFor,
} from '../../../elements/browser-test-support.ts';
import { me } from '../donations/donations-test-support.ts';

describe('<twofold-webhooks> without a current organization', () => {
  it("says 'You must select an organization to use this section.' and loads no webhooks", async () => {
    localStorage.removeItem('currentOrganizationId');
    const calls = mockApi((call) =>
      call.path === '/api/common' ? json(200, { ...me, orgs: [] }) : json(404, { message: 'Not found' }),
    );
    const el = await mount('twofold-webhooks');
    const root = el.shadowRoot as ShadowRoot;
    await waitFor(() => byText(root, 'You must select an organization to use this section.'), 'the notice');
    assertEqual(calls.filter((c) => c.path.includes('webhook')).length, 0, 'no webhook calls');
    el.remove();
  });
});
