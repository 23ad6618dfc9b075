import './donations-test-session.ts';
// A file of its own: the session and the organization's level live for the whole page.
import '../../../dist/elements/twofold-donations.js';
import '../../../dist/elements/twofold-toaster.js';
import {
  assert,
  assertEqual,
  button,
  byText,
  control,
  mount,
  waitFor,
} from '../../../elements/browser-test-support.ts';
import { testMatch } from '../match-dialog/test-match.ts';
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

  it('shows the match to a reader in fields that look read-only: grey, dashed, not inviting typing', async () => {
    mockApi(
      (call) =>
        call.url.pathname === '/api/donation/1'
          ? json(200, { donation: testMatch({ id: 1 }) })
          : json(200, listResponse(2)),
      'read',
    );
    const el = await mount('twofold-donations');
    const root = el.shadowRoot as ShadowRoot;
    const row = await waitFor(
      () => root.querySelector<HTMLTableRowElement>('tbody tr.donations__row'),
      'a row',
    );
    row.click();
    const name = await waitFor(() => control(root, 'Donor Name *'), 'the dialog');
    assert(name instanceof HTMLInputElement && name.readOnly, 'read-only for a reader');
    const style = getComputedStyle(name);
    assertEqual(style.borderTopStyle, 'dashed', 'a dashed border');
    assertEqual(style.backgroundColor, 'rgb(245, 247, 249)', 'the surface grey');
    assertEqual(style.color, 'rgb(91, 102, 117)', 'muted text');
    // An editable field beside it keeps the plain look (the filters of the list).
    const from = getComputedStyle(control(root, 'From'));
    assertEqual(from.borderTopStyle, 'solid', 'an editable field is solid');
    el.remove();
  });
});
