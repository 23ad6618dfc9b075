import '../donations/donations-test-session.ts';
// A file of its own: the organization is loaded once per page, and this test holds that load.
import '../../../dist/elements/twofold-dashboard.js';
import {
  assert,
  assertEqual,
  jsonResponse as json,
  mockApi,
  mount,
  notVisibleBecause,
  waitFor,
} from '../../../elements/browser-test-support.ts';
import { me, organizationResponse, orgId } from '../donations/donations-test-support.ts';

describe('<twofold-dashboard> setup card while the organization loads', () => {
  it("shows the spec's 'Loading...' where everyone sees it, not only to screen readers", async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    mockApi(async (call) => {
      if (call.path === '/api/common') return json(200, me);
      if (call.path === `/api/organization/${orgId}`) {
        await held;
        return json(200, organizationResponse('write', { complete: false }));
      }
      return json(404, { message: 'Not found' });
    });
    const el = await mount('twofold-dashboard');
    const root = el.shadowRoot as ShadowRoot;
    const card = await waitFor(
      () => root.querySelector<HTMLElement>('[part="setup-card"]'),
      'the setup card',
    );
    const loading = [...card.querySelectorAll<HTMLElement>('*')].find(
      (node) => node.textContent?.trim() === 'Loading...' && node.children.length === 0,
    );
    assert(loading, "the card says 'Loading...'");
    assertEqual(notVisibleBecause(loading), '', "'Loading...' is visible");
    assert(loading.closest('[role="status"]'), 'and announced');
    release();
    await waitFor(() => !root.querySelector('[part="setup-card"] .skeleton'), 'the loaded card');
    el.remove();
  });
});
