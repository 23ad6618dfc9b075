import '../donations/donations-test-session.ts';
// A file of its own: the organization (and so the level) is loaded once per page.
// The signed-in session is stored before the bundles load (see donations-test-session.ts).
import '../../../dist/elements/twofold-campaigns.js';
import '../../../dist/elements/twofold-toaster.js';
import { assert, assertEqual, button, byText, waitFor } from '../../../elements/browser-test-support.ts';
import { campaignTexts } from '../../contract/campaigns.ts';
import { saved, setup } from './campaigns-test-support.ts';

describe('<twofold-campaigns> for a reader', () => {
  it('lists the campaigns, and a reader can neither add nor open one', async () => {
    const { el, root } = await setup([saved], 'read');
    await waitFor(() => byText(root, 'Match Day'), 'the campaign');
    for (const cell of ['Birch Analytics', 'Nov 15, 2026', '$25 / No max', '2:1', 'Yes'])
      assert(byText(root, cell), `the cell ${cell}`);
    assert(byText(root, campaignTexts.readOnly), 'the read-only note');
    assertEqual(button(root, campaignTexts.add), undefined, 'no Add Campaign');
    assertEqual(button(root, 'Match Day'), undefined, 'the name is not a button');
    el.remove();
  });
});
