import '../donations/donations-test-session.ts';
// One file per role: the session (who is signed in) is loaded once per page.
import '../../../dist/elements/twofold-sidebar.js';
import { setViewport } from '@web/test-runner-commands';
import {
  assert,
  assertEqual,
  axeViolations,
  jsonResponse as json,
  mockApi,
  mount,
  waitFor,
} from '../../../elements/browser-test-support.ts';
import { me } from '../donations/donations-test-support.ts';

describe('<twofold-sidebar> for a member of an organization', () => {
  it('links Companies to the public lookup in a new tab, never to the catalogue screen', async () => {
    const calls = mockApi((call) =>
      call.path === '/api/common' ? json(200, me) : json(404, { message: 'Not found' }),
    );
    // Wide: the sidebar itself, not the phone's drawer.
    await setViewport({ width: 1280, height: 800 });
    const el = await mount('twofold-sidebar', { 'current-path': '/portal' });
    const root = el.shadowRoot as ShadowRoot;
    await waitFor(() => calls.some((c) => c.path === '/api/common'), 'the session');
    const links = () => [...root.querySelectorAll<HTMLAnchorElement>('a.sidebar__link')];
    const companies = await waitFor(
      () => links().find((a) => a.textContent?.startsWith('Companies')),
      'the Companies entry',
    );
    assertEqual(companies.getAttribute('href'), '/companies', 'the public lookup');
    assertEqual(companies.target, '_blank', 'in a new tab');
    assert(!links().some((a) => a.getAttribute('href') === '/portal/companies'), 'no catalogue link');
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe');
    el.remove();
  });
});
