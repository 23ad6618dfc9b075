import '../../../dist/elements/twofold-company-lookup.js';
import '../../../dist/elements/twofold-match-request.js';
import {
  assert,
  assertEqual,
  axeViolations,
  control,
  deepElements,
  jsonResponse,
  mockApi,
  mount,
  setValue,
  waitFor,
} from '../../../elements/browser-test-support.ts';

const realFetch = window.fetch;

afterEach(() => {
  for (const el of document.querySelectorAll('twofold-company-lookup, twofold-match-request')) el.remove();
  window.fetch = realFetch;
});

const acme = {
  id: 41,
  name: 'Acme Analytics',
  program: 'matching',
  match_method: 'csr',
  match_ratio: 2,
  minimum_match_cents: 2500,
  maximum_match_cents: 1_000_000,
  deadline_rule: 'days-after-gift',
  deadline_days: 90,
  guide: 'Give through the Benevity portal.',
  url: 'https://acme.example.com/giving',
};
const closed = { ...acme, id: 42, name: 'Acme Motors', program: 'none', url: null, guide: null };
const organization = { id: 1, name: 'Hope Harbor Foundation', logo: null, mission: null };

function server() {
  return mockApi((call) => {
    if (call.path === '/api/public/companies') {
      const q = (call.search.get('q') ?? '').toLowerCase();
      return jsonResponse(200, { companies: [acme, closed].filter((c) => c.name.toLowerCase().includes(q)) });
    }
    if (call.path === '/api/public/companies/41') return jsonResponse(200, acme);
    // Issue 31: the work domain names Acme Analytics; a free-mail address names nobody.
    if (call.path === '/api/public/employer-suggestion')
      return jsonResponse(
        200,
        call.search.get('email')?.endsWith('@acme-analytics.example.com')
          ? { company: { id: 41, name: 'Acme Analytics' }, reason: 'email domain acme-analytics.example.com' }
          : { company: null, reason: null },
      );
    if (call.path === '/api/public/match/hope-harbor') return jsonResponse(200, { organization });
    return jsonResponse(404, { message: 'Not found' });
  });
}

const root = (el: HTMLElement) => el.shadowRoot as ShadowRoot;
const text = (el: HTMLElement) => root(el).textContent ?? '';
const resultButton = (el: HTMLElement, name: string) =>
  deepElements(root(el)).find(
    (b): b is HTMLButtonElement => b instanceof HTMLButtonElement && (b.textContent ?? '').startsWith(name),
  );

describe('<twofold-company-lookup>', () => {
  it('searches from 3 characters and shows whether and how the chosen company matches, axe-clean', async () => {
    const calls = server();
    const el = await mount('twofold-company-lookup', { 'api-base': 'https://portal.twofold.test' });
    assert(text(el).includes('Does your employer match gifts?'), 'the heading');
    setValue(control(root(el), 'Employer'), 'ac');
    setValue(control(root(el), 'Employer'), 'acme');
    await waitFor(() => resultButton(el, 'Acme Motors'), 'the results');
    // Only the full term was looked up, on the API's origin, without credentials.
    assertEqual(calls.length, 1, 'one lookup');
    assertEqual(calls[0]?.url.origin, 'https://portal.twofold.test', 'the api-base');
    assertEqual(calls[0]?.headers.get('authorization'), null, 'no credentials');
    assert(text(el).includes('No matching gift program'), 'the company without a program says so');
    resultButton(el, 'Acme Analytics')?.click();
    await waitFor(() => text(el).includes('Within 90 days of the gift'), 'the chosen company');
    for (const shown of [
      '2:1',
      '$25',
      '$10,000',
      "The company's giving portal",
      'Give through the Benevity portal.',
    ])
      assert(text(el).includes(shown), `shows ${shown}`);
    const link = root(el).querySelector<HTMLAnchorElement>('[part="portal-link"]');
    assertEqual(link?.href, 'https://acme.example.com/giving', 'the link to its portal');
    assertEqual(link?.target, '_blank', 'opens in a new tab');
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe violations');
  });

  it('dispatches twofold-company-chosen (bubbling, composed) and the match request on the page takes it', async () => {
    server();
    const request = await mount('twofold-match-request', { organization: 'hope-harbor' });
    await waitFor(() => text(request).includes('Hope Harbor Foundation'), 'the match request');
    const lookup = await mount('twofold-company-lookup');
    const heard: CustomEvent[] = [];
    document.addEventListener('twofold-company-chosen', (e) => heard.push(e), { once: true });
    setValue(control(root(lookup), 'Employer'), 'acme');
    await waitFor(() => resultButton(lookup, 'Acme Analytics'), 'the results');
    resultButton(lookup, 'Acme Analytics')?.click();
    await waitFor(() => heard.length, 'the event');
    const [event] = heard;
    assertEqual(
      JSON.stringify(event?.detail),
      JSON.stringify({ companyId: 41, name: 'Acme Analytics' }),
      'detail',
    );
    assert(event?.bubbles && event.composed, 'bubbles and composed');
    await waitFor(
      () => control(root(request), 'Employer (company) *').value === 'Acme Analytics',
      'the match request to take the company',
    );
  });

  it("preselects a match request's company-id by its public name", async () => {
    server();
    const request = await mount('twofold-match-request', { organization: 'hope-harbor', 'company-id': '41' });
    await waitFor(
      () => control(root(request), 'Employer (company) *').value === 'Acme Analytics',
      'the preselected company',
    );
  });

  it('asks "Is this your employer?" from a work email, shows the company on Yes, and never for free mail', async () => {
    const calls = server();
    const el = await mount('twofold-company-lookup');
    const email = control(root(el), 'Work email (optional)');
    assertEqual(email.type, 'email', 'an email field, labelled');
    setValue(email, 'jo@gmail.com');
    await waitFor(
      () => calls.some((c) => c.path === '/api/public/employer-suggestion'),
      'the free-mail address asked about',
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert(!text(el).includes('Is this your employer?'), 'no question for a free-mail address');
    setValue(email, 'jo@acme-analytics.example.com');
    const question = await waitFor(
      () => root(el).querySelector<HTMLElement>('section[aria-label="Is this your employer?"]'),
      'the question',
    );
    assertEqual(
      question.querySelector('p')?.textContent,
      'Is this your employer? Acme Analytics (from your email address)',
      'the question names the company',
    );
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe violations with the question');
    const heard: CustomEvent[] = [];
    document.addEventListener('twofold-company-chosen', (e) => heard.push(e), { once: true });
    resultButton(el, 'Yes, Acme Analytics')?.click();
    await waitFor(() => text(el).includes('Within 90 days of the gift'), "the company's programme");
    assertEqual(control(root(el), 'Employer').value, 'Acme Analytics', 'the search shows its name');
    assertEqual(
      JSON.stringify(heard[0]?.detail),
      JSON.stringify({ companyId: 41, name: 'Acme Analytics' }),
      'told',
    );
    await waitFor(() => !text(el).includes('Is this your employer?'), 'the question answered');
  });

  it('takes the email attribute, and does not ask again about a company turned down', async () => {
    server();
    const el = await mount('twofold-company-lookup', { email: 'jo@acme-analytics.example.com' });
    assertEqual(control(root(el), 'Work email (optional)').value, 'jo@acme-analytics.example.com', 'filled');
    await waitFor(() => text(el).includes('Is this your employer?'), 'the question');
    resultButton(el, 'No')?.click();
    await waitFor(() => !text(el).includes('Is this your employer?'), 'the question gone');
    assert(!text(el).includes('Within 90 days'), 'nothing chosen');
  });
});
