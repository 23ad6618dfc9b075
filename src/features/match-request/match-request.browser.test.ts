import '../../../dist/elements/twofold-match-request.js';
import {
  assert,
  assertEqual,
  axeViolations,
  button,
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
  for (const el of document.querySelectorAll('twofold-match-request')) el.remove();
  window.fetch = realFetch;
});

/** A real ALTCHA (v1) challenge whose answer is `number`: sha256(salt + number). */
async function challengeFor(number: number, salt = 'salt-1?expires=9999999999') {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${salt}${number}`));
  const challenge = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  return { algorithm: 'SHA-256', challenge, maxnumber: 1000, salt, signature: `sig-${number}` };
}

const organization = { id: 1, name: 'Hope Harbor Foundation', logo: null, mission: 'Shelter and meals.' };

/** The server: the organization, challenges answered by 7, 8, …, and the match request answering `answer`. */
function server(answer: (call: Call) => Response) {
  let next = 7;
  return mockApi(async (call) => {
    if (call.path === '/api/public/match/hope-harbor%20foundation') {
      return call.method === 'GET' ? jsonResponse(200, { organization }) : answer(call);
    }
    if (call.path === '/api/captcha/challenge') return jsonResponse(200, await challengeFor(next++));
    return jsonResponse(404, { message: 'Not found' });
  });
}

const root = (el: HTMLElement) => el.shadowRoot as ShadowRoot;
const shows = (r: ShadowRoot, text: string) => (r.textContent ?? '').includes(text);

describe('<twofold-match-request>', () => {
  it('starts with the gift the host page gave, and sends it with the solved captcha', async () => {
    const calls = server(() =>
      jsonResponse(201, {
        match_id: 31,
        status: { id: 5, name: 'Donor to E-Sign Form' },
        company: null,
        company_name: 'Tiny Bakery',
      }),
    );
    const events: unknown[] = [];
    document.addEventListener('twofold-match-requested', (e) => events.push(e.detail), { once: true });
    const el = await mount('twofold-match-request', {
      organization: 'hope-harbor foundation',
      amount: '75.5',
      'donated-at': '2025-10-02',
      'transaction-id': 'DP-1',
      'donor-name': 'Avery Fields',
      'donor-email': 'avery@example.org',
    });
    await waitFor(
      () => shows(root(el), 'Hope Harbor Foundation') && control(root(el), 'Amount (USD) *'),
      'the form',
    );
    assertEqual(control(root(el), 'Amount (USD) *').value, '75.5', 'the amount');
    assertEqual(control(root(el), 'Donation date *').value, '2025-10-02', 'the date');
    assertEqual(control(root(el), 'Transaction ID (optional)').value, 'DP-1', 'the transaction id');
    assertEqual(control(root(el), 'Full name *').value, 'Avery Fields', 'the name');
    assert(shows(root(el), 'Shelter and meals.'), 'the mission');
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe violations');

    setValue(control(root(el), 'Employer (company) *'), 'Tiny Bakery');
    button(root(el), 'Request My Match')?.click();
    await waitFor(() => shows(root(el), 'Thank you! Your match request is in.'), 'the thanks');
    const post = calls.find((c) => c.method === 'POST');
    const body = post?.body as Record<string, unknown>;
    assertEqual(
      JSON.stringify({ ...body, captcha: undefined }),
      JSON.stringify({
        donor: { name: 'Avery Fields', email: 'avery@example.org' },
        company_id: null,
        company_name: 'Tiny Bakery',
        amount: 75.5,
        donated_at: '2025-10-02',
        transaction_id: 'DP-1',
        captcha: undefined,
      }),
      'the request body',
    );
    const solution = JSON.parse(atob(String(body.captcha)));
    assertEqual(solution.number, 7, 'the solved challenge');
    assertEqual(post?.headers.get('authorization'), null, 'no session token');
    assert(shows(root(el), 'Watch your inbox for an email asking you to e-sign'), 'the next steps');
    assertEqual(
      JSON.stringify(events),
      JSON.stringify([
        { matchId: 31, status: { id: 5, name: 'Donor to E-Sign Form' }, companyName: 'Tiny Bakery' },
      ]),
      'the event',
    );
  });

  it('asks "Is this your employer?" when the email names a catalogue company, and takes the answer', async () => {
    let next = 7;
    const calls = mockApi(async (call) => {
      if (call.path === '/api/public/match/hope-harbor%20foundation')
        return call.method === 'GET'
          ? jsonResponse(200, { organization })
          : jsonResponse(201, {
              match_id: 32,
              status: { id: 3, name: 'NPO to Verify/Sign' },
              company: null,
              company_name: 'Acme Analytics',
            });
      if (call.path === '/api/captcha/challenge') return jsonResponse(200, await challengeFor(next++));
      if (call.path === '/api/public/employer-suggestion')
        return jsonResponse(
          200,
          call.search.get('email') === 'jo@acme-analytics.example.com'
            ? {
                company: { id: 5, name: 'Acme Analytics' },
                reason: 'email domain acme-analytics.example.com',
              }
            : { company: null, reason: null },
        );
      return jsonResponse(404, { message: 'Not found' });
    });
    const el = await mount('twofold-match-request', { organization: 'hope-harbor foundation' });
    await waitFor(() => control(root(el), 'Email *'), 'the form');
    setValue(control(root(el), 'Email *'), 'jo@gmail.com');
    await waitFor(
      () => calls.some((c) => c.search.get('email') === 'jo@gmail.com'),
      'the free-mail address asked',
    );
    assert(!shows(root(el), 'Is this your employer?'), 'no question for a free-mail address');
    setValue(control(root(el), 'Email *'), 'jo@acme-analytics.example.com');
    await waitFor(
      () => shows(root(el), 'Is this your employer? Acme Analytics (from your email address)'),
      'the question',
    );
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe violations with the question');
    button(root(el), 'Yes, Acme Analytics')?.click();
    await waitFor(() => !shows(root(el), 'Is this your employer?'), 'the question answered');
    assertEqual(control(root(el), 'Employer (company) *').value, 'Acme Analytics', 'the employer taken');
    setValue(control(root(el), 'Full name *'), 'Jo Doe');
    setValue(control(root(el), 'Amount (USD) *'), '50');
    setValue(control(root(el), 'Donation date *'), '2025-10-02');
    button(root(el), 'Request My Match')?.click();
    await waitFor(() => calls.some((c) => c.method === 'POST'), 'the request');
    const body = calls.find((c) => c.method === 'POST')?.body as Record<string, unknown>;
    assertEqual(body.company_id, 5, 'the catalogue company sent');
  });

  it('names what is missing before sending, and shows the server’s refusal', async () => {
    const calls = server(() =>
      jsonResponse(409, {
        message: 'A donation with this transaction id already exists for this organization.',
      }),
    );
    const el = await mount('twofold-match-request', { organization: 'hope-harbor foundation' });
    await waitFor(() => control(root(el), 'Amount (USD) *'), 'the form');
    button(root(el), 'Request My Match')?.click();
    await waitFor(() => errorTexts(root(el)).length === 5, 'five errors');
    assertEqual(
      errorTexts(root(el)).join(' | '),
      'Company is required | Amount is required | Donation date is required | Donor name is required | Email is required',
      'the messages in page order',
    );
    assertEqual(calls.filter((c) => c.method === 'POST').length, 0, 'nothing sent');

    setValue(control(root(el), 'Employer (company) *'), 'Tiny Bakery');
    setValue(control(root(el), 'Amount (USD) *'), '20');
    setValue(control(root(el), 'Donation date *'), '2025-01-05');
    setValue(control(root(el), 'Full name *'), 'Robin');
    setValue(control(root(el), 'Email *'), 'robin@example.org');
    button(root(el), 'Request My Match')?.click();
    await waitFor(() => shows(root(el), 'already exists for this organization'), 'the refusal');
    assertEqual(control(root(el), 'Full name *').value, 'Robin', 'the form kept');
  });

  it('says so when the organization has no matching page', async () => {
    server(() => jsonResponse(500, {}));
    const el = await mount('twofold-match-request', { organization: 'nobody' });
    await waitFor(
      () => shows(root(el), 'We could not find this organization’s matching page.'),
      'the not-found message',
    );
  });
});
