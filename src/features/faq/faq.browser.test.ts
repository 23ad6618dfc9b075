import '../../../dist/elements/twofold-faq.js';
import { sendKeys } from '@web/test-runner-commands';
import {
  assert,
  assertEqual,
  axeViolations,
  byText,
  jsonResponse,
  mockApi,
  mount,
  waitFor,
} from '../../../elements/browser-test-support.ts';

const realFetch = window.fetch;
const startUrl = `${location.pathname}${location.search}`;

afterEach(() => {
  for (const el of document.querySelectorAll('twofold-faq')) el.remove();
  window.fetch = realFetch;
  history.replaceState(null, '', startUrl);
});

/** The page's address as a donor opened it (the element reads the query when it renders). */
function openedWith(query: string) {
  history.replaceState(null, '', `${location.pathname}${query}`);
}

async function faq(attributes: Record<string, string> = {}) {
  const el = await mount('twofold-faq', attributes);
  return { el, root: el.shadowRoot as ShadowRoot };
}

const toggles = (root: ShadowRoot) => [...root.querySelectorAll<HTMLButtonElement>('.faq__toggle')];
const questions = (root: ShadowRoot) => toggles(root).map((b) => b.textContent?.trim() ?? '');
const badge = (root: ShadowRoot) => root.querySelector('[part="badge"]')?.textContent?.trim();
const subtitle = (root: ShadowRoot) => root.querySelector('.faq__subtitle')?.textContent?.trim();
const toggle = (root: ShadowRoot, question: string) => {
  const found = toggles(root).find((b) => b.textContent?.trim() === question);
  assert(found, `a question "${question}"`);
  return found;
};
const panelOf = (root: ShadowRoot, button: HTMLButtonElement) => {
  const panel = root.getElementById(button.getAttribute('aria-controls') ?? '');
  assert(panel, 'aria-controls names the answer');
  return panel;
};
const openQuestions = (root: ShadowRoot) =>
  toggles(root)
    .filter((b) => b.getAttribute('aria-expanded') === 'true')
    .map((b) => b.textContent?.trim());

const wrongDetails = 'My name, email or company is wrong on my match request. How do I fix it?';
const linkButton = 'Email me a secure link to correct my match request';

describe('<twofold-faq>', () => {
  it('reads partner, process and company from the query string (?vr&esign&cn=Acme)', async () => {
    openedWith('?vr&esign&cn=Acme');
    const { root } = await faq();
    assertEqual(root.querySelector('h1')?.textContent, 'Frequently Asked Questions', 'the title');
    assertEqual(badge(root), 'Acme', 'the badge');
    assertEqual(subtitle(root), 'Guidance for donors and nonprofits working with Acme', 'the subtitle');
    const shown = questions(root);
    assert(shown.includes('What is the role of Vertical Raise?'), 'the vr entry');
    assert(shown.includes('How does matching work with Acme?'), 'how matching works');
    assert(!shown.includes('What is the role of Apex Leadership?'), 'no apex entry');
    assertEqual(
      root.querySelector('[part="logo-strip"]')?.textContent,
      'Twofold in partnership with Vertical Raise',
      'the partner in the logo strip',
    );
    toggle(root, 'How does matching work with Acme?').click();
    await waitFor(
      () => byText(root, 'Acme asks for a signed matching gift form, and Twofold prepares it for you.'),
      'the esign answer',
    );
  });

  it('lets attributes win over the query string, each on its own', async () => {
    openedWith('?vr&portal&cn=Acme');
    const { root } = await faq({ partner: 'apex', company: 'Globex' });
    assertEqual(badge(root), 'Globex', 'the company attribute');
    const shown = questions(root);
    assert(shown.includes('What is the role of Apex Leadership?'), 'the partner attribute');
    assert(!shown.includes('What is the role of Vertical Raise?'), 'not the query partner');
    assert(shown.includes('How does matching work with Globex?'), 'the process still from the query');
  });

  it("shows 'General' and only the general entries with no choices at all", async () => {
    const { root } = await faq();
    assertEqual(badge(root), 'General', 'the default badge');
    assertEqual(questions(root).length, 10, 'the general entries');
    assert(!questions(root).some((q) => q.startsWith('How does matching work')), 'no process answer');
  });

  it('keeps one entry open at a time, with aria-expanded and aria-controls telling which', async () => {
    const { root } = await faq({ process: 'direct' });
    assertEqual(openQuestions(root).length, 0, 'all closed at first');
    const first = toggles(root)[0];
    const second = toggles(root)[1];
    assert(first && second, 'two questions');
    assert(panelOf(root, first).hidden, 'answers start hidden');
    first.click();
    await waitFor(() => !panelOf(root, first).hidden, 'the first answer');
    assertEqual(
      panelOf(root, first).getAttribute('aria-labelledby'),
      first.id,
      'the answer is named by its question',
    );
    second.click();
    await waitFor(() => !panelOf(root, second).hidden, 'the second answer');
    assert(panelOf(root, first).hidden, 'the first closed when the second opened');
    assertEqual(openQuestions(root).join(), second.textContent?.trim(), 'only the second is open');
    second.click();
    await waitFor(() => panelOf(root, second).hidden, 'closing the open one');
    assertEqual(openQuestions(root).length, 0, 'none open');
  });

  it('works from the keyboard: arrows, Home and End move, Enter and Space open and close', async () => {
    const { root } = await faq();
    const buttons = toggles(root);
    buttons[0]?.focus();
    await sendKeys({ press: 'ArrowDown' });
    assertEqual(root.activeElement, buttons[1], 'ArrowDown moves to the next question');
    await sendKeys({ press: 'ArrowUp' });
    await sendKeys({ press: 'ArrowUp' });
    assertEqual(root.activeElement, buttons.at(-1), 'ArrowUp wraps to the last');
    await sendKeys({ press: 'Home' });
    assertEqual(root.activeElement, buttons[0], 'Home goes to the first');
    await sendKeys({ press: 'Enter' });
    await waitFor(() => buttons[0]?.getAttribute('aria-expanded') === 'true', 'Enter opens');
    await sendKeys({ press: 'End' });
    await sendKeys({ press: 'Space' });
    await waitFor(() => buttons.at(-1)?.getAttribute('aria-expanded') === 'true', 'Space opens');
    assertEqual(buttons[0]?.getAttribute('aria-expanded'), 'false', 'and the other closed');
  });

  it('without di and de, advises the link in the emails and offers no button', async () => {
    openedWith('?di=42');
    const { root } = await faq();
    toggle(root, wrongDetails).click();
    await waitFor(
      () =>
        byText(
          root,
          'Use the link in any of the emails Twofold sent you about your match request. It opens your request, where you can correct your name, email address or company. The amount of your gift cannot be changed.',
        ),
      'the advice',
    );
    assert(!byText(root, linkButton), 'no self-service button');
  });

  it('with di and de, asks the API for the donor link, tells the host, then sends the donor to the portal', async () => {
    openedWith('?di=42&de=dee%40example.org');
    const calls = mockApi(() =>
      jsonResponse(200, { message: 'If that address has a match request, a link is on its way.' }),
    );
    const { el, root } = await faq({ 'api-base': 'https://api.twofold.test' });
    const heard: CustomEvent[] = [];
    // The host keeps the donor on this page (the test page must not navigate away).
    el.addEventListener('twofold-donor-link-sent', (event) => {
      heard.push(event);
      event.preventDefault();
    });
    toggle(root, wrongDetails).click();
    const button = await waitFor(() => byText(root, linkButton), 'the self-service button');
    button.click();
    await waitFor(() => heard.length === 1, 'the twofold-donor-link-sent event');
    assertEqual(calls.length, 1, 'one request, never retried');
    assertEqual(calls[0]?.method, 'GET', 'GET');
    assertEqual(calls[0]?.path, '/api/auth/otp', 'the otp call');
    assertEqual(calls[0]?.search.get('email'), 'dee@example.org', 'email=de');
    assertEqual(
      calls[0]?.search.get('redirect'),
      '/donor-match-update/42',
      'redirect=/donor-match-update/{di}',
    );
    assertEqual(calls[0]?.headers.get('authorization'), null, 'no staff token');
    assertEqual(heard[0]?.detail.matchId, '42', 'the match id');
    assertEqual(
      heard[0]?.detail.redirect,
      'https://api.twofold.test/portal/donor-match-update/42',
      'the hosted portal (api-base origin) by default',
    );
    await waitFor(
      () => byText(root, 'We sent a secure link to dee@example.org. Open it to correct your match request.'),
      'the confirmation',
    );
  });

  it('sends the donor to portal-base when it is given', async () => {
    mockApi(() => jsonResponse(200, { message: 'sent' }));
    const { el, root } = await faq({
      'match-id': '9',
      'donor-email': 'dee@example.org',
      'api-base': 'https://api.twofold.test',
      'portal-base': 'https://portal.example.org/giving/',
    });
    let redirect = '';
    el.addEventListener('twofold-donor-link-sent', (event) => {
      redirect = event.detail.redirect;
      event.preventDefault();
    });
    toggle(root, wrongDetails).click();
    (await waitFor(() => byText(root, linkButton), 'the button')).click();
    await waitFor(() => redirect, 'the event');
    assertEqual(
      redirect,
      'https://portal.example.org/giving/portal/donor-match-update/9',
      'under portal-base',
    );
  });

  it('shows the server message and stays when the link cannot be sent', async () => {
    const calls = mockApi(() => jsonResponse(429, { message: 'Too many attempts. Please try again later.' }));
    const { el, root } = await faq({ 'match-id': '42', 'donor-email': 'dee@example.org' });
    let sent = false;
    el.addEventListener('twofold-donor-link-sent', () => {
      sent = true;
    });
    toggle(root, wrongDetails).click();
    (await waitFor(() => byText(root, linkButton), 'the button')).click();
    const alert = await waitFor(() => root.querySelector('[role="alert"]'), 'the error');
    assertEqual(alert.textContent, 'Too many attempts. Please try again later.', 'the message');
    assertEqual(calls.length, 1, 'not retried');
    assert(!sent, 'no event');
    assert(byText(root, linkButton), 'the button is back for another try');
  });

  it('has no axe violations, closed and with the self-service entry open', async () => {
    const { el, root } = await faq({
      partner: 'vr',
      process: 'portal',
      'match-id': '4',
      'donor-email': 'd@e.org',
    });
    assertEqual((await axeViolations(el)).join('\n'), '', 'closed');
    toggle(root, wrongDetails).click();
    await waitFor(() => byText(root, linkButton), 'the button');
    assertEqual((await axeViolations(el)).join('\n'), '', 'open');
  });
});
