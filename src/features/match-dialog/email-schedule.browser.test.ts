import '../../../dist/elements/twofold-match-dialog.js';
import '../../../dist/elements/twofold-toaster.js';
import {
  assert,
  assertEqual,
  axeViolations,
  button,
  byText,
  deepElements,
  jsonResponse,
  mockApi,
  mount,
  waitFor,
} from '../../../elements/browser-test-support.ts';
import type { MatchSchedule } from '../../contract/email-schedule.ts';
import { testMatch } from './test-match.ts';

const realFetch = window.fetch;
afterEach(() => {
  for (const el of document.querySelectorAll('twofold-match-dialog, twofold-toaster')) el.remove();
  window.fetch = realFetch;
});

const template = { type: 7, name: 'CSR vendor portal', version: 'A' };
const before: MatchSchedule = {
  donation_id: 41,
  now: '2026-03-04T09:00:00.000Z',
  sent: [
    {
      id: 9,
      label: 'Initial email',
      subject: 'Double your gift',
      sent_at: '2026-03-02T09:00:00.000Z',
      template,
      first_open: '2026-03-03T10:00:00.000Z',
      confirm_clicked_at: null,
      decline_clicked_at: null,
    },
  ],
  scheduled: [
    {
      id: 70,
      kind: 'reminder',
      label: '1st reminder',
      stage: 2,
      due_at: '2026-03-09T09:00:00.000Z',
      template,
      actionable: true,
    },
    {
      id: 71,
      kind: 'deadline',
      label: 'Deadline approaching',
      stage: null,
      due_at: '2026-03-31T23:59:59.000Z',
      template: { type: 102, name: 'Match deadline approaching', version: 'Default' },
      actionable: true,
    },
  ],
  history: [],
};
const after: MatchSchedule = {
  ...before,
  sent: [
    ...before.sent,
    {
      id: 10,
      label: '1st reminder',
      subject: 'Reminder: double your gift',
      sent_at: '2026-03-04T09:00:00.000Z',
      template,
      first_open: null,
      confirm_clicked_at: null,
      decline_clicked_at: null,
    },
  ],
  scheduled: [
    { ...before.scheduled[0], id: 72, label: '2nd reminder', stage: 3, due_at: '2026-03-11T09:00:00.000Z' },
    before.scheduled[1],
  ] as MatchSchedule['scheduled'],
  history: [
    {
      id: 1,
      action: 'send_now',
      label: '1st reminder',
      at: '2026-03-04T09:00:00.000Z',
      user: 'Wren Castillo',
    },
  ],
};

async function openEmails(answer: (path: string, method: string) => Response | undefined) {
  const calls = mockApi((call) => {
    const given = answer(call.path, call.method);
    if (given) return given;
    if (call.method === 'GET' && call.path === '/api/donation/41')
      return jsonResponse(200, { donation: testMatch() });
    return jsonResponse(404, { message: 'Not found' });
  });
  const toaster = await mount('twofold-toaster');
  const el = document.createElement('twofold-match-dialog');
  el.setAttribute('donation-id', '41');
  el.setAttribute('open', '');
  document.body.append(el);
  const root = el.shadowRoot as ShadowRoot;
  await waitFor(() => button(root, 'Save'), 'the match to load');
  (deepElements(root).find((e) => e.textContent === 'Email Communications') as HTMLElement).click();
  return { el, root, toasts: toaster.shadowRoot as ShadowRoot, calls };
}

describe('the Email Communications tab (issue #30)', () => {
  it('shows sent emails with opens, clicks and versions, the scheduled ones with dates, and is axe clean', async () => {
    const { el, root } = await openEmails((path, method) =>
      method === 'GET' && path === '/api/donation/41/email-schedule' ? jsonResponse(200, before) : undefined,
    );
    await waitFor(() => byText(root, 'Deadline approaching'), 'the scheduled emails');
    assert(byText(root, '1st reminder'), 'the 1st reminder is scheduled');
    const metas = deepElements(root)
      .filter((e) => e.className === 'schedule__meta')
      .map((e) => e.textContent ?? '');
    assert(
      metas.some((m) => m.startsWith('Mar 09, 2026') && m.endsWith('· CSR vendor portal · A')),
      `the 1st reminder's date and version (${metas.join(' | ')})`,
    );
    assert(byText(root, 'Mar 03, 2026'), 'the first open');
    assert(byText(root, 'No click'), 'no confirm or decline yet');
    assert(byText(root, 'CSR vendor portal · A'), 'the sent email’s template version');
    assert(button(root, 'Send now (1st reminder)'), 'Send now');
    assert(button(root, 'Skip (Deadline approaching)'), 'Skip');
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe violations in the tab');
  });

  it('Send now posts once, shows the schedule after it and its history, and says so', async () => {
    let posts = 0;
    const { root, toasts, calls } = await openEmails((path, method) => {
      if (method === 'GET' && path === '/api/donation/41/email-schedule') return jsonResponse(200, before);
      if (method === 'POST' && path === '/api/donation/41/email-schedule/70/send') {
        posts += 1;
        return jsonResponse(200, after);
      }
      return undefined;
    });
    const send = await waitFor(() => button(root, 'Send now (1st reminder)'), 'Send now');
    send.click();
    send.click();
    await waitFor(() => byText(root, '2nd reminder'), 'the 2nd reminder, planned after it');
    assertEqual(posts, 1, 'one request for a double click');
    assert(byText(toasts, 'Email sent'), 'the toast');
    assert(
      deepElements(root).some(
        (e) => e.tagName === 'LI' && e.textContent?.startsWith('Sent early: 1st reminder — Wren Castillo'),
      ),
      'the history says who',
    );
    assert(byText(root, 'Reminder: double your gift'), 'the sent reminder is listed');
    assertEqual(calls.filter((c) => c.method === 'POST').length, 1, 'one POST');
  });

  it('a refused action says why and shows the schedule again', async () => {
    let gets = 0;
    const { root, toasts } = await openEmails((path, method) => {
      if (method === 'GET' && path === '/api/donation/41/email-schedule') {
        gets += 1;
        return jsonResponse(200, before);
      }
      if (method === 'POST' && path === '/api/donation/41/email-schedule/71/skip')
        return jsonResponse(409, { message: 'This email is no longer scheduled.' });
      return undefined;
    });
    (await waitFor(() => button(root, 'Skip (Deadline approaching)'), 'Skip')).click();
    await waitFor(() => byText(toasts, 'This email is no longer scheduled.'), 'the reason');
    await waitFor(() => gets === 2, 'the schedule loaded again');
  });
});
