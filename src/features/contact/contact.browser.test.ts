import '../../../dist/elements/twofold-contact.js';
import '../../../dist/elements/twofold-toaster.js';
import {
  assert,
  assertEqual,
  axeViolations,
  button,
  byText,
  type Call,
  control,
  errorTexts,
  jsonResponse,
  mockApi,
  mount,
  setValue,
  waitFor,
} from '../../../elements/browser-test-support.ts';

const realFetch = window.fetch;

afterEach(() => {
  for (const el of document.querySelectorAll('twofold-contact, twofold-toaster')) el.remove();
  window.fetch = realFetch;
});

async function contactPage() {
  const toaster = await mount('twofold-toaster');
  const el = await mount('twofold-contact');
  return { root: el.shadowRoot as ShadowRoot, toasts: toaster.shadowRoot as ShadowRoot, el };
}

/** A real ALTCHA (v1) challenge whose answer is `number`: sha256(salt + number). */
async function challengeFor(number: number, salt = 'salt-1?expires=9999999999') {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${salt}${number}`));
  const challenge = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  return { algorithm: 'SHA-256', challenge, maxnumber: 1000, salt, signature: `sig-${number}` };
}

/** The server: challenges answered by `number` 7 then 8..., and the contact form answering `answer`. */
function server(answer: (call: Call) => Response | Promise<Response>) {
  let next = 7;
  return mockApi(async (call) => {
    if (call.path === '/api/captcha/challenge') return jsonResponse(200, await challengeFor(next++));
    if (call.path === '/api/contact-form') return answer(call);
    return jsonResponse(404, { message: 'Not found' });
  });
}

function fillValid(root: ShadowRoot) {
  setValue(control(root, 'Name'), '  Dana Donor ');
  setValue(control(root, 'Email'), ' dana@example.org  ');
  setValue(control(root, 'Organization'), ' Maple Street PTA ');
  setValue(control(root, 'Subject'), '  Matching question ');
  setValue(control<HTMLTextAreaElement>(root, 'Message'), '\n Does my employer match? \n');
}

describe('<twofold-contact>', () => {
  it('sends the trimmed values with the solved captcha, then says so and resets the form', async () => {
    const calls = server(() => jsonResponse(200, { message: 'Message sent' }));
    const { root, toasts } = await contactPage();
    const events: unknown[] = [];
    document.addEventListener('twofold-contact-sent', (e) => events.push(e.detail), { once: true });
    fillValid(root);
    button(root, 'Send Message')?.click();
    await waitFor(() => byText(toasts, 'Message sent!'), 'the success toast');
    assert(byText(toasts, "We'll get back to you as soon as possible."), 'its text');
    const post = calls.find((c) => c.path === '/api/contact-form');
    const body = post?.body as Record<string, string>;
    assertEqual(
      JSON.stringify({ ...body, recaptchaToken: undefined }),
      JSON.stringify({
        name: 'Dana Donor',
        email: 'dana@example.org',
        organization: 'Maple Street PTA',
        subject: 'Matching question',
        message: 'Does my employer match?',
      }),
      'trimmed values',
    );
    const first = await challengeFor(7);
    assertEqual(
      atob(body.recaptchaToken ?? ''),
      JSON.stringify({
        algorithm: 'SHA-256',
        challenge: first.challenge,
        number: 7,
        salt: first.salt,
        signature: 'sig-7',
      }),
      'the solved challenge as base64 JSON',
    );
    assertEqual(post?.headers.get('authorization'), null, 'no bearer token');
    for (const label of ['Name', 'Email', 'Organization', 'Subject']) {
      await waitFor(() => control(root, label).value === '', `${label} reset`);
    }
    assertEqual(control<HTMLTextAreaElement>(root, 'Message').value, '', 'Message reset');
    assertEqual(
      JSON.stringify(events[0]),
      JSON.stringify({ ...body, message: undefined, recaptchaToken: undefined }),
      'event detail',
    );
    await waitFor(
      () => calls.filter((c) => c.path === '/api/captcha/challenge').length === 2,
      'a fresh challenge for the next message',
    );
  });

  it("shows the spec's messages and limits, and sends nothing", async () => {
    const calls = server(() => jsonResponse(200, { message: 'Message sent' }));
    const { root } = await contactPage();
    const limits = { Name: 100, Email: 255, Organization: 200, Subject: 200 };
    for (const [label, limit] of Object.entries(limits)) {
      assertEqual(control(root, label).maxLength, limit, `${label} maxlength`);
    }
    assertEqual(control<HTMLTextAreaElement>(root, 'Message').maxLength, 2000, 'Message maxlength');

    setValue(control(root, 'Name'), '   ');
    button(root, 'Send Message')?.click();
    await waitFor(() => byText(root, 'Name is required'), 'the required messages');
    assertEqual(
      errorTexts(root).join(' | '),
      'Name is required | Email is required | Organization is required | Subject is required | Message is required',
      'required messages',
    );
    await waitFor(() => root.activeElement === control(root, 'Name'), 'focus on the first invalid field');

    // Values past the limits (pasted by script; maxlength stops typing) are refused too.
    setValue(control(root, 'Name'), 'n'.repeat(101));
    setValue(control(root, 'Email'), 'not-an-email');
    setValue(control(root, 'Organization'), 'o'.repeat(201));
    setValue(control(root, 'Subject'), 's'.repeat(201));
    setValue(control<HTMLTextAreaElement>(root, 'Message'), 'm'.repeat(2001));
    button(root, 'Send Message')?.click();
    await waitFor(() => byText(root, 'Name must be less than 100 characters'), 'the limit messages');
    assertEqual(
      errorTexts(root).join(' | '),
      [
        'Name must be less than 100 characters',
        'Invalid email address',
        'Organization must be less than 200 characters',
        'Subject must be less than 200 characters',
        'Message must be less than 2000 characters',
      ].join(' | '),
      'limit messages',
    );
    const email = control(root, 'Email');
    assertEqual(email.getAttribute('aria-invalid'), 'true', 'email marked invalid');
    assertEqual(
      root.getElementById(email.getAttribute('aria-describedby') ?? '')?.textContent,
      'Invalid email address',
      'email described by its message',
    );
    setValue(control(root, 'Email'), `${'e'.repeat(250)}@x.org`);
    button(root, 'Send Message')?.click();
    await waitFor(() => byText(root, 'Email must be less than 255 characters'), 'the email limit');
    assertEqual(calls.filter((c) => c.path === '/api/contact-form').length, 0, 'nothing sent');
  });

  it("without a solved captcha: 'Verification failed' and nothing is sent", async () => {
    const calls = mockApi(() => jsonResponse(404, { message: 'Not found' }));
    const { root, toasts } = await contactPage();
    fillValid(root);
    button(root, 'Send Message')?.click();
    await waitFor(() => byText(toasts, 'Verification failed'), 'the toast');
    assert(byText(toasts, 'Please complete the reCAPTCHA verification.'), 'its text');
    assertEqual(calls.filter((c) => c.path === '/api/contact-form').length, 0, 'nothing sent');
    await waitFor(
      () => button(root, 'Send Message') && !button(root, 'Send Message')?.disabled,
      'button back',
    );
    assertEqual(control(root, 'Name').value, '  Dana Donor ', 'the values are kept');
  });

  it("a refused message shows the toast 'Error' with the server's words, reads 'Sending...' meanwhile, keeps the values", async () => {
    let answer: (r: Response) => void = () => {};
    const calls = server(() => new Promise<Response>((resolve) => (answer = resolve)));
    const { root, toasts } = await contactPage();
    fillValid(root);
    button(root, 'Send Message')?.click();
    const busy = await waitFor(() => button(root, 'Sending...'), 'the busy button');
    assert(busy.disabled, 'disabled while sending');
    await waitFor(() => calls.some((c) => c.path === '/api/contact-form'), 'the POST');
    answer(jsonResponse(400, { message: 'Verification failed. Please try again.' }));
    await waitFor(() => byText(toasts, 'Error'), 'the Error toast');
    assert(byText(toasts, 'Verification failed. Please try again.'), "the server's message");
    await waitFor(() => button(root, 'Send Message'), 'the button back');
    assertEqual(control(root, 'Subject').value, '  Matching question ', 'values kept');
    await waitFor(
      () => calls.filter((c) => c.path === '/api/captcha/challenge').length === 2,
      'a fresh challenge after a spent one',
    );
  });

  it('has no axe violations, empty and with messages showing', async () => {
    server(() => jsonResponse(200, { message: 'Message sent' }));
    const { root, el } = await contactPage();
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe violations (form)');
    button(root, 'Send Message')?.click();
    await waitFor(() => byText(root, 'Message is required'), 'the messages');
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe violations (messages)');
  });
});
