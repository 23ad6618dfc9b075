import '../../../dist/elements/twofold-login.js';
import '../../../dist/elements/twofold-toaster.js';
import { sendKeys } from '@web/test-runner-commands';
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

afterEach(() => {
  for (const el of document.querySelectorAll('twofold-login, twofold-toaster')) el.remove();
  window.fetch = realFetch;
  localStorage.clear();
});

/** A real ALTCHA (v1) challenge whose answer is `number`: sha256(salt + number). */
async function challengeFor(number: number, salt = 'salt-1?expires=9999999999') {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${salt}${number}`));
  const challenge = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  return { algorithm: 'SHA-256', challenge, maxnumber: 1000, salt, signature: `sig-${number}` };
}

async function loginPage() {
  const toaster = await mount('twofold-toaster');
  const el = await mount('twofold-login');
  return { root: el.shadowRoot as ShadowRoot, toasts: toaster.shadowRoot as ShadowRoot, el };
}

describe('<twofold-login>', () => {
  it("shows the spec's validation messages and sends nothing", async () => {
    const seen = mockApi(() => jsonResponse(500, {}));
    const { root } = await loginPage();
    fill(input(root, 'Email') as HTMLInputElement, 'not-an-email');
    fill(input(root, 'Password') as HTMLInputElement, '123');
    button(root, 'Sign in')?.click();
    const emailError = await waitFor(
      () => byText(root, 'Please enter a valid email address'),
      'the email message',
    );
    assert(byText(root, 'Password must be at least 6 characters'), 'the password message');
    const email = input(root, 'Email') as HTMLInputElement;
    assertEqual(email.getAttribute('aria-invalid'), 'true', 'email marked invalid');
    assertEqual(email.getAttribute('aria-describedby'), emailError.id, 'email described by its error');
    await waitFor(() => root.activeElement === email, 'focus on the first invalid field');
    assertEqual(seen.length, 0, 'requests sent');
  });

  it("a failed login shows the destructive toast 'Login Failed' with the server's message", async () => {
    const seen = mockApi(() => jsonResponse(401, { message: 'Invalid email or password' }));
    const { root, toasts } = await loginPage();
    fill(input(root, 'Email') as HTMLInputElement, 'reader@twofold.test');
    fill(input(root, 'Password') as HTMLInputElement, 'wrong-password');
    button(root, 'Sign in')?.click();
    const title = await waitFor(() => byText(toasts, 'Login Failed'), 'the Login Failed toast');
    assert(byText(toasts, 'Invalid email or password'), "the server's message");
    assert(title.closest('[role="alert"]'), 'announced as an alert');
    assertEqual(seen[0]?.path, '/api/auth/login', 'the login call');
    assertEqual(
      JSON.stringify(seen[0]?.body),
      JSON.stringify({ email: 'reader@twofold.test', password: 'wrong-password' }),
      'body',
    );
    await waitFor(
      () => button(root, 'Sign in') && !button(root, 'Sign in')?.disabled,
      'the button back to Sign in',
    );
    assertEqual(localStorage.getItem('auth_token'), null, 'no token stored');
  });

  it('solves the challenge the server asks for and sends the sign-in again with it', async () => {
    const challenge = await challengeFor(7);
    const seen = mockApi((call) => {
      if (call.path === '/api/captcha/challenge') return jsonResponse(200, challenge);
      const body = call.body as { captcha?: string };
      if (call.path === '/api/auth/login' && !body.captcha)
        return jsonResponse(428, { message: 'Please complete the verification to sign in.', captcha: true });
      // Answered with a refusal, not a session: signing in navigates away from the test page
      // (the end-to-end sign-in spec follows a real one).
      if (call.path === '/api/auth/login') return jsonResponse(401, { message: 'Stop here' });
      return jsonResponse(404, { message: 'Not found' });
    });
    const { root, toasts } = await loginPage();
    fill(input(root, 'Email') as HTMLInputElement, 'reader@twofold.test');
    fill(input(root, 'Password') as HTMLInputElement, 'twofold-demo');
    button(root, 'Sign in')?.click();
    await waitFor(() => byText(toasts, 'Stop here'), 'the answer to the second try');
    const logins = seen.filter((c) => c.path === '/api/auth/login');
    assertEqual(logins.length, 2, 'sign-in tried again once, with the challenge');
    const sent = JSON.parse(atob((logins[1]?.body as { captcha?: string } | undefined)?.captcha ?? ''));
    assertEqual(sent.number, 7, 'the solved number');
    assertEqual(sent.signature, challenge.signature, 'the challenge it solved');
  });

  it('after a wrong password that asks for the challenge, says so and solves it before the next try', async () => {
    let challenges = 0;
    const seen = mockApi(async (call) => {
      if (call.path === '/api/captcha/challenge') return jsonResponse(200, await challengeFor(challenges++));
      return jsonResponse(401, { message: 'Invalid email or password', captcha: true });
    });
    const { root, toasts } = await loginPage();
    fill(input(root, 'Email') as HTMLInputElement, 'reader@twofold.test');
    fill(input(root, 'Password') as HTMLInputElement, 'wrong-password');
    button(root, 'Sign in')?.click();
    await waitFor(() => byText(toasts, 'Invalid email or password'), "the server's message");
    const notice = await waitFor(
      () =>
        byText(
          root,
          'After several failed sign-ins, this browser solves a short security check each time you sign in.',
        ),
      'the notice that a check is needed',
    );
    assert(notice.closest('[role="status"]'), 'announced politely');
    assertEqual(seen.filter((c) => c.path === '/api/auth/login').length, 1, 'a wrong password is not resent');
    await waitFor(() => button(root, 'Sign in') && !button(root, 'Sign in')?.disabled, 'ready again');
    button(root, 'Sign in')?.click();
    await waitFor(() => seen.filter((c) => c.path === '/api/auth/login').length === 2, 'the second try');
    const second = seen.filter((c) => c.path === '/api/auth/login')[1]?.body as { captcha?: string };
    assert(second.captcha, 'the second try carries a solved challenge');
    assertEqual(JSON.parse(atob(second.captcha ?? '')).number, 0, 'solved before sending');
  });

  it('an invitation link shows what is offered and leaves the token out of the address bar', async () => {
    history.replaceState(null, '', '?invitation=invitation-token-123456');
    const seen = mockApi(() =>
      jsonResponse(200, {
        organization: 'Maple Street PTA',
        level: 'write',
        email: 'reader@twofold.test',
        invited_by: 'Alex Morgan',
        registration: false,
      }),
    );
    const { root, el } = await loginPage();
    const heading = await waitFor(() => byText(root, 'Join Maple Street PTA'), 'the invitation');
    assert(button(root, 'Accept invitation'), 'Accept');
    assertEqual(location.search, '', 'token removed from the address bar');
    assertEqual(
      JSON.stringify(seen[0]?.body),
      JSON.stringify({ token: 'invitation-token-123456' }),
      'preview body',
    );
    await waitFor(() => root.activeElement === heading, 'focus on the heading');
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe violations');
    button(root, 'Not now')?.click();
    await waitFor(() => button(root, 'Sign in'), 'back to the sign-in form');
    assertEqual(seen.length, 1, 'nothing accepted');
  });

  it("a registration's confirmation link says the organization was registered with the account as its contact", async () => {
    history.replaceState(null, '', '?invitation=invitation-token-123456');
    mockApi(() =>
      jsonResponse(200, {
        organization: 'Writers Guild',
        level: 'admin',
        email: 'writer@twofold.test',
        invited_by: 'An admin',
        registration: true,
      }),
    );
    const { root, el } = await loginPage();
    await waitFor(() => byText(root, 'Join Writers Guild'), 'the confirmation');
    const text = root.textContent ?? '';
    assert(
      text.includes(
        'Writers Guild was registered on Twofold with writer@twofold.test as its administrative contact.',
      ),
      "what happened, in the account owner's words",
    );
    assert(text.includes('You become its administrator only if you accept.'), 'nothing without consent');
    assert(!text.includes('invited'), 'no inviter is made up');
    assert(button(root, 'Accept invitation'), 'Accept');
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe violations');
  });

  it('an invalid invitation link says so, with a way back', async () => {
    history.replaceState(null, '', '?invitation=invitation-token-123456');
    const message =
      'This invitation is invalid, has expired or was cancelled. Ask an admin of the organization to send a new one.';
    mockApi(() => jsonResponse(400, { message }));
    const { root } = await loginPage();
    const title = await waitFor(() => byText(root, 'Invitation Invalid'), 'the failure');
    assert(title.closest('[role="alert"]'), 'announced');
    assert(byText(root, message), "the server's message");
    assert(button(root, 'Back to Sign In'), 'a way back');
  });

  it("reads 'Signing in...' while the request is in flight", async () => {
    let answer: ((r: Response) => void) | undefined;
    mockApi(() => new Promise<Response>((resolve) => (answer = resolve)));
    const { root } = await loginPage();
    fill(input(root, 'Email') as HTMLInputElement, 'reader@twofold.test');
    fill(input(root, 'Password') as HTMLInputElement, 'twofold-demo');
    button(root, 'Sign in')?.click();
    const busy = await waitFor(() => button(root, 'Signing in...'), 'the busy button');
    assert(busy.disabled, 'disabled while loading');
    // The button turns busy before the client has called fetch: answer the request once it exists.
    const respond = await waitFor(() => answer, 'the sign-in request');
    respond(jsonResponse(500, {}));
    await waitFor(() => button(root, 'Sign in'), 'the button to come back');
  });

  it('arrow keys move between the Password and Magic Link tabs', async () => {
    const { root } = await loginPage();
    const tabs = [...root.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
    assertEqual(tabs.map((t) => t.textContent).join(','), 'Password,Magic Link', 'tabs');
    tabs[0]?.focus();
    await sendKeys({ press: 'ArrowRight' });
    await waitFor(() => tabs[1]?.getAttribute('aria-selected') === 'true', 'Magic Link selected');
    assertEqual(root.activeElement, tabs[1], 'focus on the Magic Link tab');
    assert(button(root, 'Send Magic Link'), 'the magic link form shows');
  });

  it("magic link: 'No User Found' with support contact, and Try Again returns to the form", async () => {
    mockApi(() => jsonResponse(404, { message: 'No user found with that email address' }));
    const { root } = await loginPage();
    (root.querySelectorAll<HTMLButtonElement>('[role="tab"]')[1] as HTMLButtonElement).click();
    const email = await waitFor(
      () => button(root, 'Send Magic Link') && input(root, 'Email'),
      'the magic form',
    );
    fill(email, 'nobody@twofold.test');
    button(root, 'Send Magic Link')?.click();
    await waitFor(() => byText(root, 'No User Found'), 'the no-user state');
    assert(root.querySelector('a[href="mailto:support@twofold.test"]'), 'support contact');
    button(root, 'Try Again')?.click();
    await waitFor(() => button(root, 'Send Magic Link'), 'back to the form');
  });

  it("magic link: success toasts 'Magic Link Created' and shows 'Magic Link Sent!'", async () => {
    const seen = mockApi(() => jsonResponse(200, { message: 'Magic link sent' }));
    const { root, toasts } = await loginPage();
    (root.querySelectorAll<HTMLButtonElement>('[role="tab"]')[1] as HTMLButtonElement).click();
    const email = await waitFor(
      () => button(root, 'Send Magic Link') && input(root, 'Email'),
      'the magic form',
    );
    fill(email, 'writer@twofold.test');
    button(root, 'Send Magic Link')?.click();
    await waitFor(() => byText(root, 'Magic Link Sent!'), 'the sent state');
    await waitFor(() => byText(toasts, 'Magic Link Created'), 'the toast');
    assertEqual(
      JSON.stringify(seen[0]?.body),
      JSON.stringify({ email: 'writer@twofold.test', redirect: '/portal' }),
      'body',
    );
    button(root, 'Send New Link')?.click();
    await waitFor(() => button(root, 'Send Magic Link'), 'back to the form');
  });

  it("forgot password: needs an '@', then confirms 'Reset instructions sent!'", async () => {
    const seen = mockApi(() =>
      jsonResponse(200, {
        message: 'If an account exists for that email, reset instructions are on their way.',
      }),
    );
    const { root, toasts } = await loginPage();
    button(root, 'Forgot password?')?.click();
    const dialog = await waitFor(() => root.querySelector<HTMLDialogElement>('dialog[open]'), 'the dialog');
    fill(input(dialog, 'Email') as HTMLInputElement, 'no-at-sign');
    button(dialog, 'Send Reset Instructions')?.click();
    await waitFor(() => byText(toasts, 'Invalid Email'), 'the Invalid Email toast');
    assert(byText(toasts, 'Please enter a valid email address.'), 'its text');
    assertEqual(seen.length, 0, 'nothing sent');
    fill(input(dialog, 'Email') as HTMLInputElement, 'reader@twofold.test');
    button(dialog, 'Send Reset Instructions')?.click();
    await waitFor(() => byText(dialog, 'Reset instructions sent!'), 'the confirmation');
    await waitFor(() => byText(toasts, 'Password Reset Email Sent'), 'the success toast');
  });

  it('an invalid magic link shows the server message and a way back to the form', async () => {
    mockApi(() =>
      jsonResponse(400, {
        message: 'This sign-in link is invalid or has expired. Please request a new one.',
      }),
    );
    history.replaceState(
      null,
      '',
      `${location.pathname}${location.search}${location.search ? '&' : '?'}magic=spent-token-0123456789`,
    );
    const { root } = await loginPage();
    await waitFor(
      () => byText(root, 'This sign-in link is invalid or has expired. Please request a new one.'),
      'the server message',
    );
    assert(!location.search.includes('magic='), 'the token is gone from the address bar');
    button(root, 'Back to Sign In')?.click();
    await waitFor(() => button(root, 'Sign in'), 'the sign-in form');
  });

  it('has no axe violations, on the form and with the dialog open', async () => {
    const { root, el } = await loginPage();
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe violations (form)');
    button(root, 'Forgot password?')?.click();
    await waitFor(() => root.querySelector('dialog[open]'), 'the dialog');
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe violations (dialog)');
  });
});
