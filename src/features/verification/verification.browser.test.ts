import '../donations/donations-test-session.ts';
// The signed-in session is stored before the bundles load (see donations-test-session.ts).
import '../../../dist/elements/twofold-verification.js';
import '../../../dist/elements/twofold-toaster.js';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import {
  assert,
  assertEqual,
  axeViolations,
  button,
  byText,
  deepActiveElement,
  forbidNativeConfirm,
  mount,
  openDialog,
  waitFor,
} from '../../../elements/browser-test-support.ts';
import type { VerificationItem, VerificationQueueResponse } from '../../contract/verification.ts';
import { json, mockApi, orgId } from '../donations/donations-test-support.ts';

const item = (id: number): VerificationItem => ({
  id,
  donated_at: '2025-03-01T00:00:00.000Z',
  amount: 250,
  matched: 250,
  status: { id: 3, name: 'NPO to Verify Donation' },
  donor_name: `Donor ${id}`,
  donor_email: `donor${id}@example.org`,
  organization_name: 'Hope Harbor Foundation',
  deadline: '2025-12-31',
  check:
    'Check the gift was received (date, amount, donor), then: Answer the company’s verification request.',
  awaiting_countersign: false,
});

async function setup() {
  for (const el of document.querySelectorAll('twofold-verification, twofold-toaster')) el.remove();
  let queue: VerificationQueueResponse = {
    total: 2,
    groups: [
      {
        company_id: 5,
        company_name: 'Acme Corp',
        vendor: null,
        portal_url: null,
        deadline: '2025-12-31',
        items: [item(1), item(2)],
      },
    ],
  };
  const calls = mockApi((call) => {
    const base = `/api/organization/${orgId}/verification`;
    if (call.path === base) return json(200, queue);
    if (call.path === `${base}/verify`) {
      const ids = (call.body as { donation_ids: number[] }).donation_ids;
      queue = {
        total: queue.total - ids.length,
        groups: queue.groups.map((g) => ({ ...g, items: g.items.filter((i) => !ids.includes(i.id)) })),
      };
      return json(200, { message: `${ids.length} match verified.`, donation_ids: ids });
    }
    return json(404, { message: 'Not found' });
  }, 'write');
  const toaster = await mount('twofold-toaster');
  const el = await mount('twofold-verification');
  const root = el.shadowRoot as ShadowRoot;
  await waitFor(() => root.querySelector('input[aria-label^="Select Donor 1"]'), 'the queue');
  return { el, root, toasts: toaster.shadowRoot as ShadowRoot, calls };
}

describe('<twofold-verification>', () => {
  it('asks before Mark verified, in its own dialog: Escape keeps the matches, the named button verifies (keyboard only)', async () => {
    const restore = forbidNativeConfirm();
    try {
      await setViewport({ width: 1280, height: 800 });
      const { el, root, toasts, calls } = await setup();
      const box = root.querySelector<HTMLInputElement>('input[aria-label^="Select Donor 1"]');
      assert(box, 'the first match’s checkbox');
      box.focus();
      await sendKeys({ press: 'Space' });
      await waitFor(() => byText(root, '1 selected'), 'one selected');
      const opener = button(root, 'Mark verified');
      assert(opener, 'Mark verified');
      const verifies = () => calls.filter((c) => c.path.endsWith('/verify'));
      // Twice, back and forth: opened and cancelled with Escape, then opened and confirmed.
      opener.focus();
      await sendKeys({ press: 'Enter' });
      await waitFor(() => openDialog(root, 'Mark 1 match verified?'), 'the confirmation');
      assertEqual(deepActiveElement()?.textContent, 'Cancel', 'focus starts on Cancel');
      assertEqual((await axeViolations(el)).join('\n'), '', 'axe with the confirmation open');
      await sendKeys({ press: 'Escape' });
      await waitFor(() => !openDialog(root, 'Mark 1 match verified?'), 'Escape to cancel');
      assertEqual(deepActiveElement(), opener, 'focus back on Mark verified');
      assertEqual(verifies().length, 0, 'nothing verified on Escape');
      assert(byText(root, '1 selected'), 'the selection kept');

      await sendKeys({ press: 'Enter' });
      await waitFor(() => openDialog(root, 'Mark 1 match verified?'), 'the confirmation again');
      await sendKeys({ press: 'Tab' });
      assertEqual(deepActiveElement()?.textContent, 'Mark 1 verified', 'the button is named for the action');
      await sendKeys({ press: 'Enter' });
      await waitFor(() => byText(toasts, '1 match verified.'), 'the toast');
      assertEqual(
        JSON.stringify(verifies().map((c) => c.body)),
        JSON.stringify([{ donation_ids: [1] }]),
        'the chosen match verified, once',
      );
      await waitFor(
        () =>
          !root.querySelector('input[aria-label^="Select Donor 1"]') &&
          root.querySelector('input[aria-label^="Select Donor 2"]'),
        'the match left the queue, the other stayed',
      );
      el.remove();
    } finally {
      restore();
    }
  });

  it('at 390 px each match is a card: the Status and the checkbox stay on screen', async () => {
    await setViewport({ width: 390, height: 800 });
    try {
      const { el, root } = await setup();
      for (const cell of root.querySelectorAll<HTMLElement>(
        'td[data-label="Status"], td[data-label="Select"], td[data-label="What to check"]',
      )) {
        const box = cell.getBoundingClientRect();
        assert(
          box.width > 0 && box.left >= 0 && box.right <= 390,
          `${cell.dataset.label} within 390 px (${box.left}–${box.right})`,
        );
      }
      const status = root.querySelector<HTMLElement>('td[data-label="Status"]');
      assert(status, 'a Status cell');
      assertEqual(getComputedStyle(status, '::before').content, '"Status"', 'labelled with its column');
      const page = document.scrollingElement as HTMLElement;
      assert(page.scrollWidth <= 390, `no sideways scroll (${page.scrollWidth})`);
      assertEqual((await axeViolations(el)).join('\n'), '', 'axe');
      el.remove();
    } finally {
      await setViewport({ width: 1280, height: 800 });
    }
  });
});
