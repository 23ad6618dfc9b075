import '../donations/donations-test-session.ts';
// The signed-in session is stored before the bundles load (see donations-test-session.ts).
import '../../../dist/elements/twofold-integrations.js';
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
import type { ApiKey } from '../../contract/integrations.ts';
import { json, mockApi, orgId } from '../donations/donations-test-support.ts';

const key = (id: number, fields: Partial<ApiKey> = {}): ApiKey => ({
  id,
  name: '',
  key: `tf_abcd${id}xyz`,
  last_used_at: null,
  last_ip_address: null,
  created_at: '2025-03-01T00:00:00.000Z',
  ...fields,
});

async function setup() {
  for (const el of document.querySelectorAll('twofold-integrations, twofold-toaster')) el.remove();
  const keys = [
    key(1, { name: 'CRM', last_used_at: '2025-03-02T10:00:00.000Z', last_ip_address: '203.0.113.9' }),
  ];
  const calls = mockApi((call) => {
    if (call.path === `/api/organization/${orgId}/partial/api_keys`) return json(200, { api_keys: keys });
    // A new key is an explicit create (POST); the spec's GET would answer the existing key's record.
    if (call.path === `/api/organization/${orgId}/api-key` && call.method === 'POST')
      return json(200, { api_key: { ...key(2), secret: 'tf_abcd2xyzTHE-WHOLE-SECRET-KEY-SHOWN-ONCE' } });
    if (call.path.startsWith(`/api/organization/${orgId}/api-key/`)) return json(200, { api_key: key(1) });
    return json(404, { message: 'Not found' });
  }, 'admin');
  const toaster = await mount('twofold-toaster');
  const el = await mount('twofold-integrations');
  const root = el.shadowRoot as ShadowRoot;
  await waitFor(() => byText(root, 'Widget'), 'the cards');
  return { el, root, toasts: toaster.shadowRoot as ShadowRoot, calls };
}

describe('<twofold-integrations>', () => {
  it('shows the Widget, API, Webhooks and fundraising platform cards with working links', async () => {
    const { el, root } = await setup();
    for (const title of ['Widget', 'API', 'Webhooks', 'Fundraising platform'])
      assert(byText(root, title), title);
    const links = [...root.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    assert(links.includes('/api/v1/docs'), 'the API documentation link');
    assert(links.includes('/portal/webhooks'), 'the Webhooks link');
    assert(links.includes('/portal/integrations/widget'), 'the Widget guide link');
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe violations');
    el.remove();
  });

  it('creates a key and shows it whole once, then saves a renamed key 500 ms after typing stops', async () => {
    const { el, root, toasts, calls } = await setup();
    button(root, 'Manage API Keys')?.click();
    await waitFor(() => byText(root, 'tf_abcd1xyz…'), 'the key list');
    assert(byText(root, 'Never used') === undefined, 'the used key shows when it was used');
    button(root, 'Create new key')?.click();
    await waitFor(() => byText(root, 'tf_abcd2xyzTHE-WHOLE-SECRET-KEY-SHOWN-ONCE'), 'the whole new key');
    await waitFor(() => byText(toasts, 'New API key created successfully'), 'the created toast');
    const name = input(root, 'Name of key tf_abcd1xyz…');
    assert(name, 'the name field');
    fill(name, 'Donation');
    fill(name, 'Donation platform');
    await waitFor(() => byText(toasts, 'API key updated successfully'), 'the updated toast', 3000);
    const renames = calls.filter((c) => c.method === 'PUT');
    assertEqual(renames.length, 1, 'one save after the pause');
    assertEqual(
      JSON.stringify(renames[0]?.body),
      JSON.stringify({ name: 'Donation platform' }),
      'the new name',
    );
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe violations in the dialog');
    el.remove();
  });

  it("asks before deleting a key, in the portal's own dialog over Manage API Keys (keyboard only)", async () => {
    const restore = forbidNativeConfirm();
    try {
      const { el, root, toasts, calls } = await setup();
      button(root, 'Manage API Keys')?.click();
      await waitFor(() => byText(root, 'tf_abcd1xyz…'), 'the key list');
      const opener = button(root, 'Delete key tf_abcd1xyz');
      assert(opener, 'the key’s Delete button');
      const deletes = () => calls.filter((c) => c.method === 'DELETE');
      // Twice, back and forth: opened and cancelled with Escape, then opened and confirmed.
      opener.focus();
      await sendKeys({ press: 'Enter' });
      const dialog = await waitFor(() => openDialog(root, 'Delete this API key?'), 'the confirmation');
      assert(dialog.textContent?.includes('tf_abcd1xyz…'), 'it names the key');
      assertEqual(deepActiveElement()?.textContent, 'Cancel', 'focus starts on Cancel');
      assertEqual((await axeViolations(el)).join('\n'), '', 'axe with the confirmation open');
      await sendKeys({ press: 'Escape' });
      await waitFor(() => !openDialog(root, 'Delete this API key?'), 'Escape to cancel');
      assert(openDialog(root, 'Manage API Keys'), 'Escape closes only the confirmation');
      assertEqual(deepActiveElement(), opener, 'focus back on Delete');
      assertEqual(deletes().length, 0, 'nothing deleted on Escape');

      await sendKeys({ press: 'Enter' });
      await waitFor(() => openDialog(root, 'Delete this API key?'), 'the confirmation again');
      await sendKeys({ press: 'Tab' });
      assertEqual(deepActiveElement()?.textContent, 'Delete API key', 'the button is named for the action');
      await sendKeys({ press: 'Enter' });
      await waitFor(() => byText(toasts, 'API key updated successfully'), 'the toast');
      assertEqual(
        deletes()
          .map((c) => c.path)
          .join(),
        `/api/organization/${orgId}/api-key/1`,
        'deleted once',
      );
      await waitFor(() => !byText(root, 'tf_abcd1xyz…'), 'the key gone from the list');
      assert(openDialog(root, 'Manage API Keys'), 'the key dialog stays open');
      el.remove();
    } finally {
      restore();
    }
  });
});
