import '../donations/donations-test-session.ts';
// One file per role: the session (who is signed in) is loaded once per page.
import '../../../dist/elements/twofold-sidebar.js';
import { setViewport } from '@web/test-runner-commands';
import {
  assertEqual,
  axeViolations,
  jsonResponse as json,
  mockApi,
  mount,
  waitFor,
} from '../../../elements/browser-test-support.ts';
import { me } from '../donations/donations-test-support.ts';

describe('<twofold-sidebar> for a super user', () => {
  it('links Companies to the catalogue screen and its suggestions queue, in the portal', async () => {
    mockApi((call) =>
      call.path === '/api/common'
        ? json(200, { ...me, globalPermission: true, orgs: [] })
        : json(404, { message: 'Not found' }),
    );
    // Wide: the sidebar itself, not the phone's drawer.
    await setViewport({ width: 1280, height: 800 });
    const el = await mount('twofold-sidebar', { 'current-path': '/portal/companies' });
    const root = el.shadowRoot as ShadowRoot;
    const companies = await waitFor(
      () =>
        [...root.querySelectorAll<HTMLAnchorElement>('a.sidebar__link')].find(
          (a) => a.getAttribute('href') === '/portal/companies',
        ),
      'the Companies entry to /portal/companies',
    );
    assertEqual(companies.textContent?.trim(), 'Companies', 'named Companies');
    assertEqual(companies.target, '', 'in the portal, not a new tab');
    assertEqual(companies.getAttribute('aria-current'), 'page', 'the current page on /portal/companies');
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe');
    el.remove();
  });
});
