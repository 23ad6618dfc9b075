import '../donations/donations-test-session.ts';
// The signed-in session is stored before the bundles load (see donations-test-session.ts).
import '../../../dist/elements/twofold-campaigns.js';
import '../../../dist/elements/twofold-toaster.js';
import {
  assert,
  assertEqual,
  axeViolations,
  button,
  byText,
  errorTexts,
  fill,
  input,
  waitFor,
} from '../../../elements/browser-test-support.ts';
import { campaignTexts } from '../../contract/campaigns.ts';
import { saved, setup } from './campaigns-test-support.ts';

describe('<twofold-campaigns>', () => {
  it('lists a campaign with its cells, opened by its name', async () => {
    const { el, root } = await setup([saved]);
    await waitFor(() => byText(root, 'Match Day'), 'the campaign');
    for (const cell of ['Birch Analytics', 'Nov 15, 2026', '$25 / No max', '2:1', 'Yes'])
      assert(byText(root, cell), `the cell ${cell}`);
    button(root, 'Match Day')?.click();
    await waitFor(() => input(root, 'Campaign name *')?.value === 'Match Day', 'the campaign in the dialog');
    assert(button(root, campaignTexts.delete), 'Delete');
    assert(button(root, campaignTexts.save), 'Save');
    el.remove();
  });

  it("shows the spec's empty text, and the dialog checks the form before sending anything", async () => {
    const { el, root, calls } = await setup([]);
    await waitFor(() => byText(root, campaignTexts.empty), 'the empty text');
    assert(byText(root, campaignTexts.note), 'the note');
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe violations on the table');
    button(root, campaignTexts.add)?.click();
    await waitFor(() => byText(root, campaignTexts.dialogTitle), 'the Match Campaign dialog');
    const ratio = await waitFor(() => input(root, 'Match ratio'), 'the ratio field');
    fill(ratio, 'twice');
    button(root, campaignTexts.create)?.click();
    await waitFor(() => errorTexts(root).includes(campaignTexts.ratio), 'the ratio message');
    assert(errorTexts(root).includes(campaignTexts.nameRequired), 'the name message');
    assert(errorTexts(root).includes(campaignTexts.companyRequired), 'the company message');
    assertEqual(
      calls.filter((c) => c.method === 'POST').length,
      0,
      'nothing is sent while the form has problems',
    );
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe violations in the dialog');
    el.remove();
  });
});
