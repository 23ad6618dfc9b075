import '../dist/elements/twofold-login.js';
import '../dist/elements/twofold-toaster.js';
import { sendKeys } from '@web/test-runner-commands';
import {
  assert,
  assertEqual,
  button,
  byText,
  fill,
  input,
  jsonResponse,
  mockApi,
  mount,
  waitFor,
} from './browser-test-support.ts';

const realFetch = window.fetch;
const hostile = `
  * { color: rgb(255, 0, 0) !important; font-family: "Comic Sans MS", cursive !important; letter-spacing: 9px !important; }
  button { display: none !important; }
  input { border: 5px solid lime !important; }
`;

afterEach(() => {
  for (const el of document.querySelectorAll('twofold-login, twofold-toaster, style[data-hostile]'))
    el.remove();
  window.fetch = realFetch;
  localStorage.clear();
});

describe('the element runtime (built twofold-login)', () => {
  it('adopts its stylesheet (tokens and the island CSS) into an open shadow root', async () => {
    const el = await mount('twofold-login');
    const root = el.shadowRoot;
    assert(root, 'the shadow root is open');
    assertEqual(root.adoptedStyleSheets.length, 1, 'adopted stylesheets');
    const rules = [...(root.adoptedStyleSheets[0]?.cssRules ?? [])].map((r) => r.cssText).join('\n');
    assert(rules.includes('--twofold-color-primary'), 'the tokens are in the adopted sheet');
    assert(rules.includes('.login'), "the island's own CSS is in the adopted sheet");
    assertEqual(
      root.querySelectorAll('style, link').length,
      0,
      'no <style> or <link> copies in the shadow root',
    );
    // One sheet object shared by every instance of the element.
    const second = await mount('twofold-login');
    assertEqual(second.shadowRoot?.adoptedStyleSheets[0], root.adoptedStyleSheets[0], 'shared sheet');
  });

  it('a hostile host stylesheet does not leak in, not even through inheritance', async () => {
    const style = document.createElement('style');
    style.dataset.hostile = '';
    style.textContent = hostile;
    document.head.append(style);
    const el = await mount('twofold-login');
    const root = el.shadowRoot;
    assert(root, 'shadow root');
    // The host element itself is red: the rules did apply to the page.
    assertEqual(getComputedStyle(el).color, 'rgb(255, 0, 0)', 'the host page rule applies to the host');
    const submit = button(root, 'Sign in');
    assert(submit, 'the Sign in button exists');
    assert(getComputedStyle(submit).display !== 'none', 'buttons stay visible');
    const email = input(root, 'Email');
    assert(email, 'the Email field exists');
    assert(getComputedStyle(email).borderTopWidth !== '5px', 'inputs keep their own border');
    const title = byText(root, "Sign in to manage your organization's matching gifts.");
    assert(title, 'the intro text exists');
    const text = getComputedStyle(title);
    assert(text.color !== 'rgb(255, 0, 0)', `text colour is ours, got ${text.color}`);
    assert(!text.fontFamily.includes('Comic Sans'), `font is ours, got ${text.fontFamily}`);
    assertEqual(text.letterSpacing, 'normal', 'letter-spacing is reset');
  });

  it('--twofold-color-primary set on the host themes the element', async () => {
    const el = await mount('twofold-login');
    el.style.setProperty('--twofold-color-primary', 'rgb(1, 2, 3)');
    const submit = button(el.shadowRoot as ShadowRoot, 'Sign in');
    assert(submit, 'the Sign in button exists');
    await waitFor(
      () => getComputedStyle(submit).backgroundColor === 'rgb(1, 2, 3)',
      'the themed button colour',
    );
  });

  it('twofold-* events cross the shadow boundary to document listeners', async () => {
    const me = { id: 5, email: 'reader@twofold.test', name: 'reader', globalPermission: false, orgs: [] };
    mockApi(() => jsonResponse(200, { access_token: 'a.b.c', me }));
    // Land on this very page (a hash change), so the test page is not navigated away.
    const redirect = `${location.pathname}${location.search}#signed-in`;
    const el = await mount('twofold-login', { redirect });
    const heard = new Promise<CustomEvent>((resolve) =>
      document.addEventListener('twofold-signed-in', (e) => resolve(e as CustomEvent), { once: true }),
    );
    const root = el.shadowRoot as ShadowRoot;
    fill(input(root, 'Email') as HTMLInputElement, 'reader@twofold.test');
    fill(input(root, 'Password') as HTMLInputElement, 'twofold-demo');
    button(root, 'Sign in')?.click();
    const event = await heard;
    assertEqual(event.composed && event.bubbles, true, 'bubbling and composed');
    assertEqual(event.target, el, 'retargeted to the host element');
    assertEqual((event.detail as { user: { name: string } }).user.name, 'reader', 'detail.user');
    await waitFor(() => location.hash === '#signed-in', 'the redirect');
    assertEqual(localStorage.getItem('auth_token'), 'a.b.c', 'the session stored the token');
    history.replaceState(null, '', `${location.pathname}${location.search}`);
  });

  it('dialogs render inside the shadow root, modal; Escape closes and focus returns', async () => {
    const el = await mount('twofold-login');
    const root = el.shadowRoot as ShadowRoot;
    const opener = button(root, 'Forgot password?');
    assert(opener, 'the Forgot password? button exists');
    opener.focus();
    opener.click();
    const dialog = await waitFor(
      () => root.querySelector<HTMLDialogElement>('dialog[open]'),
      'the open dialog',
    );
    assertEqual(document.querySelectorAll('dialog').length, 0, 'nothing rendered into the document');
    assert(dialog.matches(':modal'), 'opened with showModal');
    assert(byText(dialog, 'Reset Password'), 'titled Reset Password');
    await waitFor(() => dialog.contains(root.activeElement), 'focus inside the dialog');
    await sendKeys({ press: 'Escape' });
    await waitFor(() => !dialog.open, 'the dialog to close on Escape');
    await waitFor(() => root.activeElement === opener, 'focus back on the opener');
  });
});
