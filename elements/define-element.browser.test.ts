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
    const title = byText(root, 'Sign in to manage your organization’s matching gifts.');
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

describe('the toaster (built twofold-toaster)', () => {
  async function showToast(title: string) {
    const toaster = await mount('twofold-toaster');
    const root = toaster.shadowRoot as ShadowRoot;
    window.dispatchEvent(new CustomEvent('twofold-toast', { detail: { title } }));
    await waitFor(() => byText(root, title), 'the toast');
    const toast = root.querySelector<HTMLElement>('.toast');
    assert(toast, 'the toast element');
    return { root, toast };
  }

  function drag(toast: HTMLElement, dx: number) {
    const box = toast.getBoundingClientRect();
    const y = box.top + box.height / 2;
    const x = box.left + 10;
    const init = { pointerId: 7, bubbles: true, composed: true, clientY: y, isPrimary: true };
    toast.dispatchEvent(new PointerEvent('pointerdown', { ...init, clientX: x }));
    toast.dispatchEvent(new PointerEvent('pointermove', { ...init, clientX: x + dx }));
    toast.dispatchEvent(new PointerEvent('pointerup', { ...init, clientX: x + dx }));
  }

  it('a toast swiped sideways 50 px or more is dismissed (spec: swipe threshold 50)', async () => {
    const { root, toast } = await showToast('Swipe me');
    drag(toast, 60);
    await waitFor(() => !byText(root, 'Swipe me'), 'the toast is gone');
  });

  it('a shorter swipe springs back and the toast stays', async () => {
    const { root, toast } = await showToast('Stay here');
    drag(toast, 30);
    await waitFor(() => !root.querySelector('.toast--dragging'), 'sprung back');
    assert(byText(root, 'Stay here'), 'still shown');
  });

  it('shows one toast at a time: a new one replaces the one showing', async () => {
    const { root } = await showToast('First');
    window.dispatchEvent(new CustomEvent('twofold-toast', { detail: { title: 'Second' } }));
    await waitFor(() => byText(root, 'Second'), 'the second toast');
    assertEqual(root.querySelectorAll('.toast').length, 1, 'one toast');
    assert(!byText(root, 'First'), 'the first is gone');
  });
});
