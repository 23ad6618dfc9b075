import '../features/donations/donations-test-session.ts';
// A file of its own: a user with no organization at all (the session lives for the whole page).
import '../../dist/elements/twofold-donations.js';
import '../../dist/elements/twofold-billing.js';
import '../../dist/elements/twofold-report-builder.js';
import '../../dist/elements/twofold-integrations.js';
import '../../dist/elements/twofold-dashboard.js';
import {
  assert,
  assertEqual,
  axeViolations,
  jsonResponse as json,
  mockApi,
  mount,
  waitFor,
} from '../../elements/browser-test-support.ts';
import { me } from '../features/donations/donations-test-support.ts';

const screens = [
  ['twofold-donations', 'Donations'],
  ['twofold-billing', 'Choose a plan'],
  ['twofold-report-builder', 'Reports'],
  ['twofold-integrations', 'Integrations'],
] as const;

describe('OrganizationPage: one gate and header for every organization screen', () => {
  it("shows each screen's heading over the one 'You must select an organization' notice, and asks for nothing else", async () => {
    localStorage.removeItem('currentOrganizationId');
    const calls = mockApi((call) =>
      call.path === '/api/common' ? json(200, { ...me, orgs: [] }) : json(404, { message: 'Not found' }),
    );
    for (const [tag, heading] of screens) {
      const el = await mount(tag);
      const root = el.shadowRoot as ShadowRoot;
      const notice = await waitFor(() => root.querySelector('.page__empty'), `${tag}: the notice`);
      assertEqual(
        notice.textContent,
        'You must select an organization to use this section.',
        `${tag}: the spec's sentence`,
      );
      const title = root.querySelector('.page__header h1');
      assert(title, `${tag}: the heading in the shared header`);
      assertEqual(root.querySelector('section.page')?.getAttribute('aria-labelledby'), title.id, 'labelled');
      assertEqual(title.textContent, heading, `${tag}: its own heading`);
      assert(!root.querySelector('.page__organization'), `${tag}: no organization name`);
      assertEqual((await axeViolations(el)).join('\n'), '', `${tag}: axe`);
      el.remove();
    }
    // The dashboard says more: who to ask for access.
    const dashboard = await mount('twofold-dashboard');
    const notice = await waitFor(
      () => dashboard.shadowRoot?.querySelector('.page__empty'),
      'the dashboard notice',
    );
    assert(notice.textContent?.includes('Ask an administrator'), 'the dashboard names the next step');
    dashboard.remove();
    // The session itself looks for an organization to offer (the search); no screen asks for more.
    const asked = calls
      .filter((c) => c.path !== '/api/common' && c.path !== '/api/search/organization')
      .map((c) => c.path);
    assertEqual(asked.join(', '), '', 'no screen loads data without an organization');
  });
});
