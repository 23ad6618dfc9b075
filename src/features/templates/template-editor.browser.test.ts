import './templates-test-session.ts';
import '../../../dist/elements/twofold-template-editor.js';
import '../../../dist/elements/twofold-toaster.js';
import {
  assert,
  assertEqual,
  axeViolations,
  button,
  byText,
  control,
  mount,
  setValue,
  waitFor,
} from '../../../elements/browser-test-support.ts';
import type { EmailTemplate, TemplateTexts } from '../../contract/email-templates.ts';
import { json, mockApi, orgId } from '../donations/donations-test-support.ts';

const realFetch = window.fetch;
const realOpen = window.open;
afterEach(() => {
  for (const el of document.querySelectorAll('twofold-template-editor, twofold-toaster')) el.remove();
  window.fetch = realFetch;
  window.open = realOpen;
});

const stats = {
  sent: 40,
  opened: 10,
  confirm_clicked: 6,
  decline_clicked: 1,
  r1_sent: 20,
  r1_opened: 5,
  r1_confirm_clicked: 2,
  r2_sent: 0,
  r2_opened: 0,
  r2_confirm_clicked: 0,
};
const texts = (subject: string): TemplateTexts => ({
  subject1: subject,
  subject2: 'Reminder subject',
  subject3: 'Last subject',
  preheader1: 'Pre',
  preheader2: '',
  preheader3: '',
  header1: 'Head',
  header2: '',
  header3: '',
  greeting: 'Hi {{donor_first_name}},',
  paragraph_one_1: 'First',
  paragraph_one_2: 'Reminder first',
  paragraph_one_3: '',
  paragraph_two: 'Two',
  paragraph_three: '',
  salutation: 'Thanks',
  step_one_title: '',
  step_one_text: '',
  step_one_note: '',
  step_one_btn: "I've done it",
  step_two_title: '',
  step_two_text: '',
  step_two_note: '',
  step_two_btn: "I won't be submitting",
});
const version = (id: number, v: number, label: string, live: boolean, subject: string): EmailTemplate => ({
  id,
  organization_id: orgId,
  status_id: 7,
  version: v,
  label,
  live,
  stats,
  ...texts(subject),
});

/** A server holding template 7's versions, answering the editor's calls as the real one does. */
function server(initial: EmailTemplate[]) {
  let versions = initial;
  return mockApi((call) => {
    if (call.method === 'GET' && call.path === `/api/organization/${orgId}/mail-templates/7`)
      return json(200, { templates: versions, comparisons: [] });
    if (call.method === 'POST' && call.path === `/api/organization/${orgId}/template/0`) {
      const made = {
        ...(call.body as EmailTemplate),
        id: 90 + versions.length,
        version: versions.length,
        label: 'ABCDEFG'[versions.length - 1] ?? '?',
        stats,
      };
      versions = [...versions, made];
      return json(200, made);
    }
    const m = call.path.match(/\/template\/(\d+)$/);
    if (call.method === 'POST' && m) {
      const body = call.body as EmailTemplate;
      if (String(body.subject1).includes('{{nope}}'))
        return json(400, { message: 'Unknown variable {{nope}} in subject1' });
      versions = versions.map((v) =>
        v.id === Number(m[1]) ? { ...v, ...body, id: v.id, label: v.label, version: v.version } : v,
      );
      return json(
        200,
        versions.find((v) => v.id === Number(m[1])),
      );
    }
    if (call.method === 'POST' && call.path.endsWith('/preview-template'))
      return new Response('<html><body>preview of the email</body></html>', {
        status: 200,
        headers: { 'content-type': 'text/html' },
      });
    return json(404, { message: 'Not found' });
  });
}

async function editor() {
  const toaster = await mount('twofold-toaster');
  const el = document.createElement('twofold-template-editor');
  el.setAttribute('template', '7');
  document.body.append(el);
  const root = el.shadowRoot as ShadowRoot;
  await waitFor(() => byText(root, 'Statistics: Default'), 'the versions to load');
  return { el, root, toasts: toaster.shadowRoot as ShadowRoot };
}
const toastText = (toasts: ShadowRoot, text: string) =>
  waitFor(() => byText(toasts, text), `the toast '${text}'`);
const versionButton = (root: ShadowRoot, label: string) =>
  [...root.querySelectorAll<HTMLButtonElement>('[role="radio"]')].find((b) =>
    b.textContent?.startsWith(label),
  );

describe('<twofold-template-editor>', () => {
  it('without a template shows the ten cards and the notification emails, which can be added here too', async () => {
    let notifees = [{ id: 1, email: 'board@hopeharbor.example.org' }];
    const calls = mockApi((call) => {
      if (call.path === `/api/organization/${orgId}/notifee`) {
        if (call.method === 'POST')
          notifees = [...notifees, { id: 2, email: 'director@hopeharbor.example.org' }];
        return json(200, { notifees });
      }
      return json(404, { message: 'Not found' });
    }, 'admin');
    const toaster = await mount('twofold-toaster');
    const el = await mount('twofold-template-editor');
    const root = el.shadowRoot as ShadowRoot;
    await waitFor(() => byText(root, 'CSR vendor portal'), 'the cards');
    assertEqual(root.querySelectorAll('.templates__card').length, 10, 'ten template cards');
    await waitFor(() => byText(root, 'board@hopeharbor.example.org'), 'the notification emails');
    const field = [...root.querySelectorAll('label')].find(
      (l) => l.textContent?.trim() === 'Notification email',
    )?.control as HTMLInputElement;
    setValue(field, 'director@hopeharbor.example.org');
    button(root, 'Add Email')?.click();
    await waitFor(() => byText(toaster.shadowRoot as ShadowRoot, 'Notification email added'), 'the toast');
    await waitFor(() => byText(root, 'director@hopeharbor.example.org'), 'the new address listed');
    assert(
      calls.some((c) => c.method === 'POST'),
      'added through the notifee call',
    );
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe violations');
    el.remove();
    toaster.remove();
  });

  it('shows Default read-only with the three tabs, its stats to one decimal, and passes axe', async () => {
    server([version(1, 0, 'Default', true, 'Default subject')]);
    const { el, root } = await editor();
    assertEqual(control(root, 'Subject').value, 'Default subject', 'the subject');
    assertEqual(control(root, 'Subject').readOnly, true, 'Default is read-only');
    assert(!button(root, 'Save'), 'no Save on Default');
    const tabs = [...root.querySelectorAll('[role="tab"]')].map((t) => t.textContent);
    assertEqual(tabs.join('|'), 'Initial Email|1st Reminder|2nd Reminder', 'the tabs');
    assert(byText(root, '10 (25.0%)'), 'opened 10 of 40 as 25.0%');
    assert(byText(root, '6 (15.0%)'), 'confirmed 6 of 40 as 15.0%');
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe violations');
  });

  it('the 1st Reminder tab shows only its subject, preheader, header and paragraph one', async () => {
    server([version(1, 0, 'Default', true, 'Default subject')]);
    const { root } = await editor();
    (root.querySelectorAll('[role="tab"]')[1] as HTMLButtonElement).click();
    await waitFor(() => control(root, 'Subject').value === 'Reminder subject', 'the reminder tab');
    const labels = [...root.querySelectorAll('[role="tabpanel"]:not([hidden]) label')].map(
      (l) => l.textContent,
    );
    assertEqual(labels.join('|'), 'Subject|Preheader|Header|Paragraph one', 'the reminder fields');
  });

  it('+ creates a version copied from the selected one with live false, and is hidden at 5', async () => {
    const calls = server([version(1, 0, 'Default', true, 'Default subject')]);
    const { root, toasts } = await editor();
    (button(root, 'New version') as HTMLButtonElement).click();
    await toastText(toasts, 'New template version created');
    const post = calls.find((c) => c.method === 'POST' && c.path.endsWith('/template/0'));
    const body = post?.body as {
      live: boolean;
      subject1: string;
      organization_id: number;
      status_id: number;
    };
    assertEqual(body.live, false, 'live false');
    assertEqual(body.subject1, 'Default subject', 'a copy');
    assertEqual(body.organization_id, orgId, 'organization_id');
    await waitFor(() => versionButton(root, 'A')?.getAttribute('aria-checked') === 'true', 'A selected');
    assertEqual(control(root, 'Subject').readOnly, false, 'A is editable');
    for (let i = 0; i < 3; i += 1) {
      (button(root, 'New version') as HTMLButtonElement).click();
      await waitFor(() => root.querySelectorAll('[role="radio"]').length === i + 3, 'another version');
    }
    assertEqual(button(root, 'New version'), undefined, 'the + button is hidden at 5');
  });

  it('inserts a variable at the caret, saves, toggles live, and says when saving fails', async () => {
    server([version(1, 0, 'Default', true, 'Default subject'), version(2, 1, 'A', false, 'Mine ')]);
    const { root, toasts } = await editor();
    (versionButton(root, 'A') as HTMLButtonElement).click();
    const subject = await waitFor(() => {
      const s = control(root, 'Subject');
      return s.value === 'Mine ' && s;
    }, 'A loaded');
    subject.focus();
    subject.setSelectionRange(5, 5);
    setValue(control<HTMLSelectElement>(root, 'Insert variable'), 'donor_first_name');
    await waitFor(
      () => control(root, 'Subject').value === 'Mine {{donor_first_name}}',
      'the variable inserted',
    );
    (button(root, 'Save') as HTMLButtonElement).click();
    await toastText(toasts, 'Template saved successfully');
    const live = [...root.querySelectorAll<HTMLInputElement>('input[role="switch"]')][0] as HTMLInputElement;
    // The switch stays disabled until the save's finally has run, just after its toast.
    await waitFor(() => !live.disabled, 'the Live switch enabled after saving');
    live.click();
    await toastText(toasts, 'Template enabled');
    // The editor stays busy until just after the toast; a click on a disabled Save does nothing.
    await waitFor(
      () => !(button(root, 'Save') as HTMLButtonElement).disabled,
      'Save enabled after the toggle',
    );
    setValue(control(root, 'Subject'), 'Bad {{nope}}');
    await waitFor(() => control(root, 'Subject').value === 'Bad {{nope}}', 'typed');
    (button(root, 'Save') as HTMLButtonElement).click();
    await toastText(toasts, 'Failed to save template: Unknown variable {{nope}} in subject1');
  });

  it('Preview opens the rendered HTML in a new window', async () => {
    server([version(1, 0, 'Default', true, 'Default subject')]);
    const opened: { location: { href: string } }[] = [];
    window.open = (() => {
      const w = { location: { href: '' }, close: () => {} };
      opened.push(w);
      return w;
    }) as unknown as typeof window.open;
    const { root } = await editor();
    (button(root, 'Preview') as HTMLButtonElement).click();
    const href = await waitFor(() => opened[0]?.location.href, 'the window to get the preview');
    assert(href.startsWith('blob:'), 'a blob of the HTML');
    assertEqual(
      await (await realFetch(href)).text(),
      '<html><body>preview of the email</body></html>',
      'its HTML',
    );
  });
});
