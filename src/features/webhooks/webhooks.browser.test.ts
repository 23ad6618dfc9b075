import '../donations/donations-test-session.ts';
// The signed-in session is stored before the bundles load (see donations-test-session.ts).
import '../../../dist/elements/twofold-webhooks.js';
import '../../../dist/elements/twofold-toaster.js';
import { sendKeys } from '@web/test-runner-commands';
import {
  assert,
  assertEqual,
  axeViolations,
  button,
  byText,
  deepActiveElement,
  fill,
  forbidNativeConfirm,
  input,
  mount,
  openDialog,
  waitFor,
} from '../../../elements/browser-test-support.ts';
import type { Webhook } from '../../contract/integrations.ts';
import { json, mockApi, orgId } from '../donations/donations-test-support.ts';

const hook = (id: number, fields: Partial<Webhook> = {}): Webhook => ({
  id,
  url: 'hooks.example.org/twofold',
  token: 'secret-token',
  event: 'status',
  last_code: 200,
  secret: 'whsec_dGVzdC1zZWNyZXQtdGVzdC1zZWNyZXQ=',
  ...fields,
});

async function setup(initial: Webhook[], level: 'read' | 'write' | 'admin' = 'admin') {
  for (const el of document.querySelectorAll('twofold-webhooks, twofold-toaster')) el.remove();
  let hooks = [...initial];
  const calls = mockApi((call) => {
    if (call.path === `/api/organization/${orgId}/partial/webhooks`) return json(200, { webhooks: hooks });
    if (call.path === `/api/organization/${orgId}/webhook` && call.method === 'POST') {
      hooks = [...hooks, hook(99, { url: '', last_code: null })];
      return json(201, { webhooks: hooks });
    }
    const put = /^\/api\/webhook\/(\d+)$/.exec(call.path);
    if (put && call.method === 'PUT') {
      hooks = hooks.map((h) => (h.id === Number(put[1]) ? { ...h, ...(call.body as object) } : h));
      return json(200, { webhooks: hooks });
    }
    if (put && call.method === 'DELETE') {
      hooks = hooks.filter((h) => h.id !== Number(put[1]));
      return json(200, { webhooks: hooks });
    }
    if (/\/deliveries$/.test(call.path))
      return json(200, {
        deliveries: [
          {
            id: 5,
            event: 'status',
            donation_id: 42,
            status: 'pending',
            attempts: 2,
            last_code: 503,
            created_at: '2025-03-01T00:00:00.000Z',
            next_attempt_at: '2025-03-01T00:05:00.000Z',
            log: [
              {
                at: '2025-03-01T00:00:05.000Z',
                status_code: 503,
                ok: false,
                error: 'HTTP 503',
                duration_ms: 12,
                response: 'down',
              },
            ],
          },
          {
            id: 6,
            event: 'status',
            donation_id: 43,
            status: 'delivered',
            attempts: 3,
            last_code: 200,
            created_at: '2025-03-01T00:00:00.000Z',
            next_attempt_at: null,
            // Newest first, as the server answers.
            log: [
              {
                at: '2025-03-01T00:05:10.000Z',
                status_code: 200,
                ok: true,
                error: null,
                duration_ms: 30,
                response: 'ok',
              },
              {
                at: '2025-03-01T00:00:10.000Z',
                status_code: 500,
                ok: false,
                error: 'HTTP 500',
                duration_ms: 41,
                response: 'boom',
              },
              {
                at: '2025-03-01T00:00:01.000Z',
                status_code: null,
                ok: false,
                error: 'connect ECONNREFUSED',
                duration_ms: 3,
                response: 'connect ECONNREFUSED',
              },
            ],
          },
        ],
      });
    if (/\/redeliver$/.test(call.path)) return json(202, { message: 'Redelivery queued', delivery_id: 5 });
    return json(404, { message: 'Not found' });
  }, level);
  const toaster = await mount('twofold-toaster');
  const el = await mount('twofold-webhooks');
  return { el, root: el.shadowRoot as ShadowRoot, toasts: toaster.shadowRoot as ShadowRoot, calls };
}

describe('<twofold-webhooks>', () => {
  it('shows each webhook with its last_code badge and the spec hint for 200 and for anything else', async () => {
    const { el, root } = await setup([hook(1), hook(2, { last_code: 500 })]);
    await waitFor(() => byText(root, 'Webhook 2'), 'the webhooks');
    assert(byText(root, 'This (200) is the expected/correct response.'), 'the 200 hint');
    assert(
      byText(
        root,
        'Any code other than 200 is cause for concern. 5xx codes and 4xx codes both suggest there is an issue with the endpoint this webhook is submitting to.',
      ),
      'the other codes hint',
    );
    assert(byText(root, '500')?.classList.contains('badge--danger'), 'a 500 badge is destructive');
    assert(!byText(root, '200')?.classList.contains('badge--danger'), 'a 200 badge is the default style');
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe violations');
    el.remove();
  });

  it('strips a pasted https:// and saves once, 1500 ms after the last change', async () => {
    const { el, root, toasts, calls } = await setup([hook(1)]);
    await waitFor(() => byText(root, 'Webhook 1'), 'the webhook');
    const url = input(root, 'URL');
    assert(url, 'the URL field');
    fill(url, 'https://hooks.partner.example/in');
    assertEqual(url.value, 'hooks.partner.example/in', 'the scheme is stripped as it is pasted');
    await new Promise((resolve) => setTimeout(resolve, 700));
    assertEqual(calls.filter((c) => c.method === 'PUT').length, 0, 'nothing saved before the delay');
    await waitFor(() => byText(toasts, 'Webhook updated'), 'the updated toast', 4000);
    const puts = calls.filter((c) => c.method === 'PUT');
    assertEqual(puts.length, 1, 'one save');
    assertEqual(
      (puts[0]?.body as { url?: string } | undefined)?.url,
      'hooks.partner.example/in',
      'the URL sent',
    );
    el.remove();
  });

  it('adds a webhook, shows the deliveries log and redelivers', async () => {
    const { el, root, toasts, calls } = await setup([hook(1)]);
    await waitFor(() => byText(root, 'Webhook 1'), 'the webhook');
    button(root, 'Add Webhook')?.click();
    await waitFor(() => byText(root, 'Webhook 2'), 'the new webhook');
    await waitFor(() => byText(toasts, 'Webhook created'), 'the created toast');
    button(root, 'Deliveries')?.click();
    await waitFor(() => byText(root, 'down'), 'the log with the start of the response');
    button(root, 'Redeliver')?.click();
    await waitFor(
      () => calls.find((c) => c.path === '/api/webhook/1/delivery/5/redeliver'),
      'the redeliver call',
    );
    await waitFor(() => byText(toasts, 'Redelivery queued'), 'the queued toast');
    el.remove();
  });

  it('lists every attempt of a delivery, the failures before its success too, each time the log opens', async () => {
    const { el, root } = await setup([hook(1)]);
    await waitFor(() => byText(root, 'Webhook 1'), 'the webhook');
    for (const round of [1, 2]) {
      button(root, 'Deliveries')?.click();
      const list = await waitFor(
        () => root.querySelector<HTMLOListElement>('ol[aria-label="Attempts of delivery 6"]'),
        `the attempts, round ${round}`,
      );
      const items = [...list.querySelectorAll('li')].map((li) => li.textContent?.replace(/\s+/g, ' ').trim());
      assertEqual(items.length, 3, 'three attempts');
      assert(
        /^Attempt 1: .* · no answer · 3 ms · failed: connect ECONNREFUSED$/.test(items[0] ?? ''),
        `${items[0]}`,
      );
      assert(/^Attempt 2: .* · 500 · 41 ms · failed: HTTP 500boom$/.test(items[1] ?? ''), `${items[1]}`);
      assert(/^Attempt 3: .* · 200 · 30 ms · delivered(ok)?$/.test(items[2] ?? ''), `${items[2]}`);
      assert(byText(root, 'delivered (3 attempts)'), 'the delivery status');
      assertEqual(JSON.stringify(await axeViolations(root.host)), '[]', 'axe');
      // Closing the log and opening it again shows the same attempts.
      button(root, 'Hide deliveries')?.click();
      await waitFor(() => !root.querySelector('ol[aria-label="Attempts of delivery 6"]'), 'the log closed');
    }
    el.remove();
  });

  it("asks before deleting, in the portal's own dialog: Escape keeps it, Delete webhook removes it (keyboard only)", async () => {
    const restore = forbidNativeConfirm();
    try {
      const { el, root, toasts, calls } = await setup([hook(1), hook(2, { url: 'second.example.org' })]);
      await waitFor(() => byText(root, 'Webhook 2'), 'the list');
      const deleteButton = () =>
        [...root.querySelectorAll<HTMLButtonElement>('.webhooks__item')][0]?.querySelector<HTMLButtonElement>(
          '.btn--destructive',
        );
      const opener = deleteButton();
      assert(opener, 'the first webhook’s Delete button');
      // Twice, back and forth: opened and cancelled with Escape, then opened and confirmed.
      opener.focus();
      await sendKeys({ press: 'Enter' });
      let dialog = await waitFor(() => openDialog(root, 'Delete Webhook 1?'), 'the confirmation');
      assertEqual(deepActiveElement()?.textContent, 'Cancel', 'focus starts on Cancel');
      assert(dialog.textContent?.includes('hooks.example.org/twofold'), 'it names the webhook’s address');
      assertEqual((await axeViolations(el)).join('\n'), '', 'axe with the confirmation open');
      await sendKeys({ press: 'Escape' });
      await waitFor(() => !openDialog(root, 'Delete Webhook 1?'), 'Escape to cancel');
      assertEqual(deepActiveElement(), opener, 'focus back on Delete');
      assert(!calls.some((c) => c.method === 'DELETE'), 'nothing deleted on Escape');

      await sendKeys({ press: 'Enter' });
      dialog = await waitFor(() => openDialog(root, 'Delete Webhook 1?'), 'the confirmation again');
      await sendKeys({ press: 'Tab' });
      const confirm = deepActiveElement();
      assertEqual(confirm?.textContent, 'Delete webhook', 'the destructive button is named for the action');
      assert(confirm?.classList.contains('btn--destructive'), 'and looks destructive');
      await sendKeys({ press: 'Enter' });
      await waitFor(() => byText(toasts, 'Webhook deleted'), 'the deleted toast');
      assertEqual(
        calls
          .filter((c) => c.method === 'DELETE')
          .map((c) => c.path)
          .join(),
        '/api/webhook/1',
        'the first webhook deleted, once',
      );
      await waitFor(() => !openDialog(root, 'Delete Webhook 1?'), 'the confirmation closed');
      await waitFor(() => root.querySelectorAll('.webhooks__item').length === 1, 'one webhook left');
      el.remove();
    } finally {
      restore();
    }
  });

  it("copies the signing secret and says 'Copied!', as the spec words it", async () => {
    const { el, root, toasts } = await setup([hook(1)]);
    await waitFor(() => byText(root, 'Webhook 1'), 'the list');
    const written: string[] = [];
    const clipboard = navigator.clipboard;
    const original = clipboard.writeText;
    clipboard.writeText = async (text: string) => {
      written.push(text);
    };
    try {
      button(root, 'Signing secret')?.click();
      const copy = await waitFor(() => button(root, 'Copy'), 'the Copy button');
      copy.click();
      await waitFor(() => byText(toasts, 'Copied!'), "the 'Copied!' toast");
      assertEqual(written.join(), 'whsec_dGVzdC1zZWNyZXQtdGVzdC1zZWNyZXQ=', 'the secret copied');
    } finally {
      clipboard.writeText = original;
      el.remove();
    }
  });
});
