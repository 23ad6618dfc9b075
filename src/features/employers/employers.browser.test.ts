import '../donations/donations-test-session.ts';
// The signed-in session is stored before the bundles load (see donations-test-session.ts).
import '../../../dist/elements/twofold-employers.js';
import '../../../dist/elements/twofold-toaster.js';
import {
  assert,
  assertEqual,
  axeViolations,
  button,
  byText,
  waitFor,
} from '../../../elements/browser-test-support.ts';
import { review, setup } from './employers-test-support.ts';

describe('<twofold-employers>', () => {
  it('lists the answers to review with their reason and confidence, and accepts the selected in bulk', async () => {
    const { el, root, calls } = await setup();
    await waitFor(() => byText(root, 'Ann One'), 'the first review');
    assert(
      byText(
        root,
        'Companies found: 3 by email domain, 5 by name, 1 by person. 2 matches wait at Missing Company Hold; 2 to review.',
      ),
      'the summary',
    );
    assert(byText(root, review(1, 'Ann One', 'Acme Analytics').reason), 'the reason');
    assert(byText(root, '60%'), 'the confidence');
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe violations on the review list');
    const all = root.querySelector<HTMLInputElement>('input[aria-label="Select all reviews"]');
    all?.click();
    await waitFor(() => byText(root, '2 selected'), 'both selected');
    button(root, 'Accept selected')?.click();
    await waitFor(() => byText(root, '2 accepted.'), 'the decision announced');
    const decided = calls.find((c) => c.path.endsWith('/reviews/decide'));
    assertEqual(
      JSON.stringify(decided?.body),
      JSON.stringify({ ids: [1, 2], action: 'accept' }),
      'the bulk decision',
    );
    await waitFor(
      () => byText(root, 'Nothing to review: every answer so far was sure enough, or none was found.'),
      'the empty list',
    );
    el.remove();
  });

  it('rejects one, and runs Find employers showing its progress and outcome', async () => {
    const { el, root, calls, finishScreening } = await setup();
    await waitFor(() => byText(root, 'Bo Two'), 'the reviews');
    button(root, 'Reject Acme Analytics for Bo Two')?.click();
    await waitFor(() => byText(root, '1 rejected.'), 'the rejection announced');
    const decided = calls.find((c) => c.path.endsWith('/reviews/decide'));
    assertEqual(
      JSON.stringify(decided?.body),
      JSON.stringify({ ids: [2], action: 'reject' }),
      'one rejected',
    );
    // The list reloads after the decision; Find employers waits for it.
    (
      await waitFor(() => {
        const find = button(root, 'Find employers');
        return find && !find.disabled ? find : undefined;
      }, 'Find employers enabled')
    ).click();
    await waitFor(
      () =>
        root.querySelector('progress')?.closest('label')?.textContent?.includes('2 of 4 matches screened'),
      'the progress',
    );
    finishScreening();
    await waitFor(
      () => byText(root, 'Last run: 4 matches screened, 2 given their company, 2 to review.'),
      'the outcome, polled',
    );
    el.remove();
  });
});
