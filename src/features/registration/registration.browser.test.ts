import '../../../dist/elements/twofold-registration.js';
import '../../../dist/elements/twofold-toaster.js';
import { sendKeys } from '@web/test-runner-commands';
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
  for (const el of document.querySelectorAll('twofold-registration, twofold-toaster')) el.remove();
  window.fetch = realFetch;
  localStorage.clear();
});

async function registrationPage(attributes: Record<string, string> = {}) {
  const toaster = await mount('twofold-toaster');
  const el = await mount('twofold-registration', attributes);
  return { root: el.shadowRoot as ShadowRoot, toasts: toaster.shadowRoot as ShadowRoot, el };
}

/** Fill every required field (and a few optional ones) the way a visitor would. */
function fillValid(root: ShadowRoot) {
  setValue(control(root, 'Organization Name'), '  Riverside Food Pantry ');
  setValue(control<HTMLSelectElement>(root, 'Organization Type'), 'non-profit');
  setValue(control(root, 'EIN'), '12-3456789');
  setValue(control(root, 'Phone'), '555-0100');
  setValue(control(root, 'Website'), 'https://riverside.example');
  setValue(control<HTMLTextAreaElement>(root, 'Mission Statement'), 'Feeding our neighbours.');
  setValue(control(root, 'Street Address'), '1 River Road');
  setValue(control(root, 'City'), 'Springfield');
  setValue(control(root, 'State (optional)'), 'IL');
  setValue(control<HTMLSelectElement>(root, 'Country'), 'US');
  control(root, 'Foodbanks').click();
  control(root, 'Human Social Services').click();
  setValue(control(root, 'Contact Name'), 'Rita River');
  setValue(control(root, 'Contact Email'), ' rita@riverside.example ');
}

const registered = { registered: true, already_registered: false, email: 'rita@riverside.example' };

/** The server: a csrf token endpoint, and registration answering `answer` to a valid token. */
function server(answer: (call: Call) => Response | Promise<Response>, tokens = ['csrf-1']) {
  let issued = 0;
  return mockApi((call) => {
    if (call.path === '/api/csrf-token') return jsonResponse(200, { csrf_token: tokens[issued++] });
    if (call.path === '/organization/register') return answer(call);
    return jsonResponse(404, { message: 'Not found' });
  });
}

describe('<twofold-registration>', () => {
  it("an empty submit shows every one of the spec's messages under its field and sends nothing", async () => {
    const calls = mockApi(() => jsonResponse(500, {}));
    const { root } = await registrationPage();
    button(root, 'Complete Registration')?.click();
    await waitFor(() => byText(root, 'Organization name is required'), 'the name message');
    assertEqual(
      errorTexts(root).join(' | '),
      [
        'Organization name is required',
        'Organization type is required',
        'EIN is required',
        'Phone is required',
        'Website is required',
        'Mission statement is required',
        'Street address is required',
        'City is required',
        'Country is required',
        'At least one category must be selected',
        'Contact name is required',
        'Valid email is required',
      ].join(' | '),
      'messages in page order',
    );
    const name = control(root, 'Organization Name');
    assertEqual(name.getAttribute('aria-invalid'), 'true', 'name marked invalid');
    assertEqual(
      root.getElementById(name.getAttribute('aria-describedby') ?? '')?.textContent,
      'Organization name is required',
      'name described by its message',
    );
    const categories = root.querySelector('fieldset') as HTMLFieldSetElement;
    assertEqual(
      root.getElementById(categories.getAttribute('aria-describedby') ?? '')?.textContent,
      'At least one category must be selected',
      'the category group described by its message',
    );
    await waitFor(() => root.activeElement === name, 'focus on the first invalid field');
    for (const optional of ['Fax (optional)', 'Street Address Line 2 (optional)', 'ZIP Code (optional)']) {
      assertEqual(control(root, optional).getAttribute('aria-invalid'), null, `${optional} not required`);
    }
    assertEqual(calls.length, 0, 'requests sent');
  });

  it('an error clears as its field is fixed, without moving focus or flagging untouched fields', async () => {
    mockApi(() => jsonResponse(500, {}));
    const { root } = await registrationPage();
    button(root, 'Complete Registration')?.click();
    await waitFor(() => byText(root, 'EIN is required'), 'the messages');
    const ein = control(root, 'EIN');
    ein.focus();
    setValue(ein, '12-3456789');
    await waitFor(() => !byText(root, 'EIN is required'), 'the EIN message cleared');
    assertEqual(ein.getAttribute('aria-invalid'), null, 'EIN no longer invalid');
    assertEqual(root.activeElement, ein, 'focus stays where the user types');
    assert(byText(root, 'Phone is required'), 'other messages stay until fixed');
    control(root, 'Foodbanks').click();
    await waitFor(
      () => !byText(root, 'At least one category must be selected'),
      'the category message cleared',
    );
    setValue(control(root, 'Contact Email'), 'not an email');
    assert(byText(root, 'Valid email is required'), 'a field still wrong keeps its message');
  });

  it('limits the state to 2 characters', async () => {
    mockApi(() => jsonResponse(500, {}));
    const { root } = await registrationPage();
    const state = control(root, 'State (optional)');
    assertEqual(state.maxLength, 2, 'maxlength');
    // A value pasted past the limit by script is still refused on submit.
    setValue(state, 'ILL');
    button(root, 'Complete Registration')?.click();
    await waitFor(() => byText(root, 'State must be 2 characters'), 'the state message');
    assertEqual(state.getAttribute('aria-invalid'), 'true', 'state marked invalid');
  });

  it("registers with the csrf token as bearer and X-CSRF-Token, then shows 'Registration Complete!'", async () => {
    let answer: (r: Response) => void = () => {};
    const calls = server(() => new Promise<Response>((resolve) => (answer = resolve)));
    const { root, el } = await registrationPage();
    const events: unknown[] = [];
    document.addEventListener('twofold-registered', (e) => events.push(e.detail), { once: true });
    fillValid(root);
    button(root, 'Complete Registration')?.click();
    const busy = await waitFor(() => button(root, 'Registering...'), 'the busy button');
    assert(busy.disabled, 'disabled while registering');
    const post = await waitFor(() => calls.find((c) => c.path === '/organization/register'), 'the POST');
    assertEqual(calls[0]?.path, '/api/csrf-token', 'the token is fetched first');
    assertEqual(localStorage.getItem('csrf_token'), 'csrf-1', 'stored as csrf_token');
    assertEqual(post.headers.get('authorization'), 'Bearer csrf-1', 'bearer');
    assertEqual(post.headers.get('x-csrf-token'), 'csrf-1', 'X-CSRF-Token');
    assertEqual(
      JSON.stringify(post.body),
      JSON.stringify({
        return_json: 1,
        name: 'Riverside Food Pantry',
        type: 'non-profit',
        phone: '555-0100',
        mission: 'Feeding our neighbours.',
        ein: '12-3456789',
        url: 'https://riverside.example',
        address: { street: '1 River Road', city: 'Springfield', state: 'IL', country: 'US' },
        categoryId: [14, 33],
        contact_name: 'Rita River',
        contact_email: 'rita@riverside.example',
      }),
      'the payload: trimmed, blank optional fields left out',
    );
    answer(jsonResponse(200, registered));
    const heading = await waitFor(() => byText(root, 'Registration Complete!'), 'the outcome');
    assert(byText(root, 'rita@riverside.example'), 'names the email the password link went to');
    await waitFor(() => root.activeElement === heading, 'focus on the outcome heading');
    assertEqual(JSON.stringify(events[0]), JSON.stringify(registered), 'twofold-registered detail');
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe violations (outcome)');
  });

  it('an expired stored token gets one fresh token and one retry', async () => {
    localStorage.setItem('csrf_token', 'stale');
    const calls = server(
      (call) =>
        call.headers.get('x-csrf-token') === 'fresh'
          ? jsonResponse(200, registered)
          : jsonResponse(403, {
              message: 'Your form session has expired. Please reload the page and try again.',
            }),
      ['fresh'],
    );
    const { root } = await registrationPage();
    fillValid(root);
    button(root, 'Complete Registration')?.click();
    await waitFor(() => byText(root, 'Registration Complete!'), 'the outcome');
    assertEqual(
      calls.map((c) => `${c.method} ${c.path} ${c.headers.get('authorization') ?? ''}`.trim()).join(', '),
      'POST /organization/register Bearer stale, GET /api/csrf-token, POST /organization/register Bearer fresh',
      'calls',
    );
    assertEqual(localStorage.getItem('csrf_token'), 'fresh', 'the fresh token is stored');
  });

  it("'Already Registered!' names the registered administrator and offers support", async () => {
    server(() =>
      jsonResponse(200, { registered: false, already_registered: true, email: 'admin@riverside.example' }),
    );
    const { root, el } = await registrationPage({ 'support-email': 'help@partner.example' });
    fillValid(root);
    button(root, 'Complete Registration')?.click();
    await waitFor(() => byText(root, 'Already Registered!'), 'the outcome');
    assert(byText(root, 'admin@riverside.example'), 'the administrator');
    assert(root.querySelector('a[href="mailto:help@partner.example"]'), 'the support address');
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe violations (already registered)');
  });

  it("a failure shows the toast 'Registration Failed' and keeps the form", async () => {
    server(() => jsonResponse(500, { message: 'boom' }));
    const { root, toasts } = await registrationPage();
    fillValid(root);
    button(root, 'Complete Registration')?.click();
    await waitFor(() => byText(toasts, 'Registration Failed'), 'the toast');
    assert(
      byText(toasts, 'There was an error registering your nonprofit. Please try again.'),
      'the toast text',
    );
    await waitFor(() => !button(root, 'Complete Registration')?.disabled, 'the button back');
    assertEqual(control(root, 'City').value, 'Springfield', 'values kept');
  });

  it('suggests already registered organizations from 2 characters, and the keyboard picks one', async () => {
    const calls = mockApi((call) =>
      jsonResponse(200, {
        organizations:
          call.search.get('term') === 'Ma'
            ? [
                { id: 3, name: 'Maple Street PTA' },
                { id: 9, name: 'Marsh Wildlife Trust' },
              ]
            : [],
      }),
    );
    const { root } = await registrationPage();
    const name = control(root, 'Organization Name');
    name.focus();
    setValue(name, 'M');
    setValue(name, 'Ma');
    const options = await waitFor(() => {
      const found = [...root.querySelectorAll('[role="option"]')];
      return found.length === 2 && found;
    }, 'two suggestions');
    assertEqual(calls.length, 1, 'one search (debounced, none for 1 character)');
    assertEqual(calls[0]?.path, '/api/public/organization-search', 'the public search');
    assertEqual(calls[0]?.search.get('term'), 'Ma', 'the term');
    assertEqual(calls[0]?.headers.get('authorization'), null, 'no bearer token');
    assertEqual(name.getAttribute('aria-expanded'), 'true', 'expanded');
    await sendKeys({ press: 'ArrowDown' });
    await sendKeys({ press: 'ArrowDown' });
    await waitFor(() => name.getAttribute('aria-activedescendant') === options[1]?.id, 'second active');
    await sendKeys({ press: 'Enter' });
    await waitFor(() => name.value === 'Marsh Wildlife Trust', 'the name filled in');
    assertEqual(name.getAttribute('aria-expanded'), 'false', 'collapsed');
    assert(!byText(root, 'Organization name is required'), 'Enter chose; it did not submit');
  });

  it('has no axe violations, empty and with every message showing', async () => {
    mockApi(() => jsonResponse(500, {}));
    const { root, el } = await registrationPage();
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe violations (form)');
    button(root, 'Complete Registration')?.click();
    await waitFor(() => byText(root, 'Valid email is required'), 'the messages');
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe violations (messages)');
  });

  it('talks to the api-base origin when one is given', async () => {
    const calls = server(() => jsonResponse(200, registered));
    const seen: string[] = [];
    const mocked = window.fetch;
    window.fetch = (input, init) => {
      // Read the address only: a Request built from ky's Request would take its body.
      seen.push(input instanceof Request ? input.url : String(input));
      return mocked(input, init);
    };
    const { root } = await registrationPage({ 'api-base': 'https://portal.twofold.example/' });
    fillValid(root);
    button(root, 'Complete Registration')?.click();
    await waitFor(() => byText(root, 'Registration Complete!'), 'the outcome');
    assertEqual(
      seen.join(', '),
      'https://portal.twofold.example/api/csrf-token, https://portal.twofold.example/organization/register',
      'urls',
    );
    assertEqual(calls.length, 2, 'calls');
    assert(
      root.querySelector('a[href="https://portal.twofold.example/portal/login"]'),
      'sign-in link on the portal',
    );
  });
});
