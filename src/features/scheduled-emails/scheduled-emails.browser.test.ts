import '../donations/donations-test-session.ts';
// The signed-in session is stored before the bundles load (see donations-test-session.ts).
import '../../../dist/elements/twofold-scheduled-emails.js';
import '../../../dist/elements/twofold-toaster.js';
import {
  assert,
  assertEqual,
  axeViolations,
  button,
  byText,
  control,
  deepElements,
  mount,
  setValue,
  waitFor,
} from '../../../elements/browser-test-support.ts';
import type { ScheduledEmailsResponse } from '../../contract/email-schedule.ts';
import { type Call, donation, json, mockApi, orgId } from '../donations/donations-test-support.ts';

const view: ScheduledEmailsResponse = {
  from: '2026-03-02',
  to: '2026-03-31',
  now: '2026-03-02T09:00:00.000Z',
  total: 6,
  days: [
    {
      day: '2026-03-02',
      count: 2,
      groups: [
        {
          template: 'digest',
          template_name: 'Weekly staff email',
          label: 'Matches waiting on the staff',
          count: 2,
          matches: [],
          projected: false,
        },
      ],
    },
    {
      day: '2026-03-09',
      count: 4,
      groups: [
        {
          template: '7',
          template_name: 'CSR vendor portal',
          label: '1st reminder',
          count: 3,
          matches: [
            { id: 41, donor_name: 'Dana Donor' },
            { id: 42, donor_name: 'Eli Giver' },
            { id: 43, donor_name: null },
          ],
          projected: false,
        },
        {
          template: 'digest',
          template_name: 'Weekly staff email',
          label: 'Matches waiting on the staff',
          count: 1,
          matches: [],
          projected: true,
        },
      ],
    },
  ],
  templates: [
    { value: '7', name: 'CSR vendor portal' },
    { value: '102', name: 'Match deadline approaching' },
    { value: 'digest', name: 'Weekly staff email' },
  ],
  chapters: [{ id: 8, name: 'North Shore Chapter' }],
};

async function setup(level: 'read' | 'write' = 'write') {
  for (const el of document.querySelectorAll('twofold-scheduled-emails, twofold-toaster')) el.remove();
  const calls = mockApi((call: Call) => {
    if (call.path === `/api/organization/${orgId}/scheduled-emails`) return json(200, view);
    if (call.path === '/api/donation/41' && call.method === 'GET')
      return json(200, { donation: donation(41) });
    if (call.path === '/api/donation/41/email-schedule')
      return json(200, {
        donation_id: 41,
        now: view.now,
        sent: [],
        scheduled: [
          {
            id: 70,
            kind: 'reminder',
            label: '1st reminder',
            stage: 2,
            due_at: '2026-03-09T09:00:00.000Z',
            template: { type: 7, name: 'CSR vendor portal', version: 'Default' },
            actionable: true,
          },
        ],
        history: [],
      });
    return json(404, { message: 'Not found' });
  }, level);
  await mount('twofold-toaster');
  const el = await mount('twofold-scheduled-emails');
  return { el, root: el.shadowRoot as ShadowRoot, calls };
}

const viewCalls = (calls: Call[]) =>
  calls.filter((c) => c.path === `/api/organization/${orgId}/scheduled-emails`);

describe('<twofold-scheduled-emails>', () => {
  // First: the organization's level is loaded once per page, and this test is a reader's.
  it('opens a match in the match dialog, with its own schedule; readers see it without Send now', async () => {
    const { root } = await setup('read');
    (await waitFor(() => button(root, '#41 Dana Donor'), 'the match')).click();
    await waitFor(() => root.querySelector('dialog')?.open, 'the match dialog');
    (
      await waitFor(
        () =>
          deepElements(root).find((e) => e.textContent === 'Email Communications') as HTMLElement | undefined,
        'the tab',
      )
    ).click();
    await waitFor(
      () => deepElements(root).some((e) => e.tagName === 'STRONG' && e.textContent === '1st reminder'),
      'its schedule',
    );
    assert(!button(root, 'Send now (1st reminder)'), 'no Send now for a reader');
    assert(!button(root, 'Skip (1st reminder)'), 'no Skip for a reader');
  });
  it('shows the next 30 days by day and template with counts, the weekly staff email, and is axe clean', async () => {
    const { el, root } = await setup();
    await waitFor(() => byText(root, '6 emails from Mon, Mar 02, 2026 to Tue, Mar 31, 2026'), 'the summary');
    assert(byText(root, 'Scheduled Emails'), 'the title');
    const days = deepElements(root)
      .filter((e) => e.className === 'scheduled__day-title')
      .map((e) => e.textContent);
    assertEqual(
      days.join(' | '),
      'Mon, Mar 02, 2026 (2) | Mon, Mar 09, 2026 (4)',
      'the days with their counts',
    );
    assert(byText(root, '3 emails'), "the 1st reminders' count");
    assert(byText(root, '2 recipients'), "the staff email's recipients");
    assert(byText(root, 'if matches still wait'), 'a projected weekly email says so');
    assert(button(root, '#42 Eli Giver'), 'each match is listed');
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe violations');
  });

  it('filters by template, dates and chapter', async () => {
    const { root, calls } = await setup();
    await waitFor(() => button(root, '#41 Dana Donor'), 'the view');
    setValue(control<HTMLSelectElement>(root, 'Template'), '102');
    setValue(control<HTMLSelectElement>(root, 'Chapter'), '8');
    setValue(control(root, 'From'), '2026-03-20');
    setValue(control(root, 'To'), '2026-04-30');
    button(root, 'Apply')?.click();
    const last = await waitFor(() => viewCalls(calls)[1], 'the filtered request');
    assertEqual(
      last.url.search,
      '?from=2026-03-20&to=2026-04-30&template=102&chapter=8',
      'the filters are sent',
    );
  });
});
