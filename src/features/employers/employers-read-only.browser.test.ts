import '../donations/donations-test-session.ts';
// A file of its own: the organization (and so the level) is loaded once per page.
// The signed-in session is stored before the bundles load (see donations-test-session.ts).
import '../../../dist/elements/twofold-employers.js';
import '../../../dist/elements/twofold-toaster.js';
import { assert, button, byText, waitFor } from '../../../elements/browser-test-support.ts';
import { setup } from './employers-test-support.ts';

describe('<twofold-employers> for a reader', () => {
  it('shows the list without decisions to a reader', async () => {
    const { el, root } = await setup('read');
    await waitFor(() => byText(root, 'Ann One'), 'the reviews');
    assert(!button(root, 'Accept selected'), 'no bulk actions');
    assert(!button(root, 'Find employers'), 'no Find employers');
    el.remove();
  });
});
