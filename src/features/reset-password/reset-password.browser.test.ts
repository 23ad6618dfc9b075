import '../../../dist/elements/twofold-reset-password.js';
import '../../../dist/elements/twofold-toaster.js';
import {
  assert,
  assertEqual,
  axeViolations,
  button,
  byText,
  fill,
  input,
  jsonResponse,
  mockApi,
  mount,
  waitFor,
} from '../../../elements/browser-test-support.ts';

const realFetch = window.fetch;
const token = 'reset-token-0123456789abcdef';

afterEach(() => {
  for (const el of document.querySelectorAll('twofold-reset-password, twofold-toaster')) el.remove();
  window.fetch = realFetch;
});

describe('<twofold-reset-password>', () => {
  it("without a token says 'Invalid Reset Link' with a Back to Login button", async () => {
    const el = await mount('twofold-reset-password');
    const root = el.shadowRoot as ShadowRoot;
    assert(byText(root, 'Invalid Reset Link'), 'the heading');
    assert(
      byText(root, 'Invalid or missing reset token. Please request a new password reset link.'),
      'the explanation',
    );
    assert(button(root, 'Back to Login'), 'the button');
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe violations');
  });

  it('checks length and "Passwords don\'t match" before sending', async () => {
    const seen = mockApi(() => jsonResponse(200, { message: 'Your password has been reset.' }));
    const el = await mount('twofold-reset-password', { token });
    const root = el.shadowRoot as ShadowRoot;
    fill(input(root, 'New Password') as HTMLInputElement, '123');
    button(root, 'Reset Password')?.click();
    await waitFor(() => byText(root, 'Password must be at least 6 characters'), 'the length message');
    fill(input(root, 'New Password') as HTMLInputElement, 'a-new-secret');
    fill(input(root, 'Confirm New Password') as HTMLInputElement, 'something-else');
    button(root, 'Reset Password')?.click();
    await waitFor(() => byText(root, "Passwords don't match"), 'the mismatch message');
    const confirm = input(root, 'Confirm New Password') as HTMLInputElement;
    assertEqual(confirm.getAttribute('aria-invalid'), 'true', 'confirm field marked invalid');
    assertEqual(seen.length, 0, 'requests sent');
  });

  it("a rejected token shows the server's message and the toast 'Password Reset Failed'", async () => {
    const message = 'This reset link is invalid or has expired. Please request a new password reset link.';
    const seen = mockApi(() => jsonResponse(400, { message }));
    const toaster = await mount('twofold-toaster');
    const el = await mount('twofold-reset-password', { token });
    const root = el.shadowRoot as ShadowRoot;
    fill(input(root, 'New Password') as HTMLInputElement, 'a-new-secret');
    fill(input(root, 'Confirm New Password') as HTMLInputElement, 'a-new-secret');
    button(root, 'Reset Password')?.click();
    await waitFor(() => byText(root, message), 'the message on the form');
    await waitFor(() => byText(toaster.shadowRoot as ShadowRoot, 'Password Reset Failed'), 'the toast');
    assertEqual(JSON.stringify(seen[0]?.body), JSON.stringify({ token, password: 'a-new-secret' }), 'body');
  });

  it('success says so (heading and toast)', async () => {
    mockApi(() => jsonResponse(200, { message: 'Your password has been reset.' }));
    const toaster = await mount('twofold-toaster');
    const el = await mount('twofold-reset-password', { token });
    const root = el.shadowRoot as ShadowRoot;
    fill(input(root, 'New Password') as HTMLInputElement, 'a-new-secret');
    fill(input(root, 'Confirm New Password') as HTMLInputElement, 'a-new-secret');
    button(root, 'Reset Password')?.click();
    const heading = await waitFor(() => byText(root, 'Password Reset Successful'), 'the success heading');
    assertEqual(heading.tagName, 'H1', 'the success message is the heading');
    await waitFor(() => root.activeElement === heading, 'focus moved to the news');
    await waitFor(() => byText(toaster.shadowRoot as ShadowRoot, 'Password Reset Successful'), 'the toast');
    // Removing the element cancels its 3 s redirect, so the test page stays put.
    el.remove();
  });

  it("a new account's 'Create your password' link opens a page titled for that, and says so when done", async () => {
    mockApi(() => jsonResponse(200, { message: 'Your password has been reset.' }));
    const toaster = await mount('twofold-toaster');
    const el = await mount('twofold-reset-password', { token, purpose: 'create' });
    const root = el.shadowRoot as ShadowRoot;
    const title = await waitFor(() => byText(root, 'Create Your Password'), 'the create title');
    assertEqual(title.tagName, 'H1', 'it is the heading');
    assert(!byText(root, 'Reset Password'), 'nothing says reset');
    fill(input(root, 'New Password') as HTMLInputElement, 'a-first-secret');
    fill(input(root, 'Confirm New Password') as HTMLInputElement, 'a-first-secret');
    button(root, 'Create Password')?.click();
    await waitFor(() => byText(root, 'Password Created'), 'the success heading');
    await waitFor(() => byText(toaster.shadowRoot as ShadowRoot, 'Password Created'), 'the toast');
    el.remove();
  });

  it('has no axe violations on the form', async () => {
    const el = await mount('twofold-reset-password', { token });
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe violations');
  });
});
