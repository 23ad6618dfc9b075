import '../../../dist/elements/twofold-donor-match-update.js';
import {
  assert,
  assertEqual,
  axeViolations,
  button,
  type Call,
  control,
  jsonResponse,
  mockApi,
  mount,
  setValue,
  waitFor,
} from '../../../elements/browser-test-support.ts';
import { donorFieldMessages } from '../../contract/donor.ts';

const realFetch = window.fetch;
const sessionKey = 'twofold_donor_session';
const startUrl = location.href;

afterEach(() => {
  for (const el of document.querySelectorAll('twofold-donor-match-update')) el.remove();
  window.fetch = realFetch;
  sessionStorage.removeItem(sessionKey);
  localStorage.removeItem('auth_token');
  history.replaceState(null, '', startUrl);
});

const match = (overrides: Record<string, unknown> = {}) => ({
  id: 12,
  donor: { name: 'Morgan Giver', email: 'morgan@example.org' },
  company: null,
  company_id: null,
  company_name: 'Unknown Employer Co',
  amount: 120,
  donated_at: '2025-05-10T12:00:00.000Z',
  status: { id: 23, name: 'Missing Company Hold' },
  organization: { name: 'Hope Harbor Foundation', logo: null },
  ...overrides,
});

/** The donor routes, answering as the server would for the donor session `donor-jwt`. */
function server(extra: (call: Call) => Response | undefined = () => undefined) {
  return mockApi((call) => {
    const answer = extra(call);
    if (answer) return answer;
    if (call.path === '/api/donor/session') return jsonResponse(200, { token: 'donor-jwt', match_id: 12 });
    if (call.path === '/api/donor/donation/12') {
      if (call.headers.get('authorization') !== 'Bearer donor-jwt')
        return jsonResponse(401, { message: 'Authentication expired. Please login again.' });
      if (call.method === 'GET') return jsonResponse(200, { donation: match() });
    }
    return jsonResponse(404, { message: 'Not found' });
  });
}

const root = (el: HTMLElement) => el.shadowRoot as ShadowRoot;

/** Whether some text of the element's shadow root contains `text`. */
const shows = (r: ShadowRoot, text: string) => (r.textContent ?? '').includes(text);

describe('<twofold-donor-match-update>', () => {
  it('spends the link token once, keeps the donor session apart from the staff one, and clears the address', async () => {
    localStorage.setItem('auth_token', 'staff-token');
    history.replaceState(null, '', `${location.pathname}?token=${'t'.repeat(43)}&x=1`);
    const calls = server();
    const el = await mount('twofold-donor-match-update', { 'match-id': '12' });
    await waitFor(
      () => shows(root(el), 'Edit Your Match Request') && control(root(el), 'Your name *').value,
      'the form',
    );
    assertEqual(control(root(el), 'Your name *').value, 'Morgan Giver', 'the donor name');
    assertEqual(calls.filter((c) => c.path === '/api/donor/session').length, 1, 'one exchange');
    assertEqual((calls[0]?.body as { token: string } | undefined)?.token, 't'.repeat(43), 'the token sent');
    assertEqual(new URLSearchParams(location.search).has('token'), false, 'the token left the address');
    assertEqual(new URLSearchParams(location.search).get('x'), '1', 'other parameters stay');
    assertEqual(sessionStorage.getItem(sessionKey), 'donor-jwt', 'the donor session in sessionStorage');
    assertEqual(localStorage.getItem('auth_token'), 'staff-token', 'the staff session untouched');
    const get = calls.find((c) => c.path === '/api/donor/donation/12');
    assertEqual(get?.headers.get('authorization'), 'Bearer donor-jwt', 'the donor token, not the staff one');
    // The amount is shown, not editable.
    assert(shows(root(el), '$120.00'), 'the amount is shown');
    assertEqual(root(el).querySelectorAll('input[type="number"]').length, 0, 'no amount input');
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe violations');
  });

  it('warns while the email differs, and says which fields are missing', async () => {
    sessionStorage.setItem(sessionKey, 'donor-jwt');
    server();
    const el = await mount('twofold-donor-match-update', { 'match-id': '12' });
    await waitFor(() => control(root(el), 'Email *').value, 'the form');
    setValue(control(root(el), 'Email *'), 'someone@example.org');
    await waitFor(() => shows(root(el), 'Changing the email transfers this match request'), 'the warning');
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe violations with the warning');
    setValue(control(root(el), 'Email *'), 'MORGAN@example.org');
    await waitFor(
      () => !shows(root(el), 'Changing the email transfers this match request'),
      'the warning to go',
    );
    setValue(control(root(el), 'Your name *'), '  ');
    button(root(el), 'Save Changes')?.click();
    await waitFor(() => shows(root(el), 'Please fill in all required fields.'), 'the required message');
    assertEqual(root(el).activeElement, control(root(el), 'Your name *'), 'focus on the empty field');
  });

  it('checks with the DonorMatchUpdate schema: a name the server would refuse (over 200 characters) is named and not sent', async () => {
    sessionStorage.setItem(sessionKey, 'donor-jwt');
    const calls = server();
    const el = await mount('twofold-donor-match-update', { 'match-id': '12' });
    await waitFor(() => control(root(el), 'Your name *').value, 'the form');
    setValue(control(root(el), 'Your name *'), 'M'.repeat(201));
    button(root(el), 'Save Changes')?.click();
    await waitFor(() => shows(root(el), donorFieldMessages.nameTooLong), "the schema's message");
    assert(!shows(root(el), 'Please fill in all required fields.'), 'nothing is missing');
    assertEqual(root(el).activeElement, control(root(el), 'Your name *'), 'focus on the field');
    assertEqual(calls.filter((c) => c.method === 'PUT').length, 0, 'nothing sent');
  });

  it('saves name and company with the fixed amount, then shows the status and next steps', async () => {
    sessionStorage.setItem(sessionKey, 'donor-jwt');
    const calls = server((call) =>
      call.method === 'PUT'
        ? jsonResponse(200, {
            message: 'Match information updated successfully.',
            transferred: false,
            donation: match({
              company_id: 5,
              company_name: 'Acme Biotech',
              company: {
                id: 5,
                name: 'Acme Biotech',
                match_method: 'esign',
                guide: null,
                url: null,
                verify: null,
                minimum_match: null,
                maximum_match: 5000,
                match_ratio: 0.5,
                deadline: '2025-12-31',
              },
              status: { id: 5, name: 'Donor to E-Sign Form' },
            }),
          })
        : undefined,
    );
    const events: unknown[] = [];
    document.addEventListener('twofold-match-updated', (e) => events.push(e.detail), { once: true });
    const el = await mount('twofold-donor-match-update', { 'match-id': '12' });
    await waitFor(() => control(root(el), 'Employer (company) *').value, 'the form');
    setValue(control(root(el), 'Employer (company) *'), 'Acme Biotech');
    button(root(el), 'Save Changes')?.click();
    await waitFor(() => shows(root(el), 'Match information updated successfully.'), 'the success message');
    const put = calls.find((c) => c.method === 'PUT');
    assertEqual(
      JSON.stringify(put?.body),
      JSON.stringify({
        donor: { name: 'Morgan Giver', email: 'morgan@example.org' },
        company_id: null,
        company_name: 'Acme Biotech',
        amount: 120,
      }),
      'the update body',
    );
    assert(shows(root(el), 'Donor to E-Sign Form'), 'the new status');
    assert(shows(root(el), 'Dec 31, 2025'), 'the deadline');
    assertEqual(
      JSON.stringify(events),
      JSON.stringify([{ matchId: 12, status: { id: 5, name: 'Donor to E-Sign Form' }, transferred: false }]),
      'the event',
    );
  });

  it('an expired session offers a new link by email', async () => {
    sessionStorage.setItem(sessionKey, 'old-jwt');
    const calls = server((call) =>
      call.path === '/api/auth/otp'
        ? jsonResponse(200, {
            message: 'If that email address belongs to this match request, a link to edit it is on its way.',
          })
        : undefined,
    );
    const el = await mount('twofold-donor-match-update', { 'match-id': '12' });
    await waitFor(() => shows(root(el), 'Your editing session has ended'), 'the ended message');
    assertEqual(sessionStorage.getItem(sessionKey), null, 'the dead session is forgotten');
    setValue(control(root(el), 'Email on your match request *'), 'morgan@example.org');
    button(root(el), 'Email me a new link')?.click();
    await waitFor(() => shows(root(el), 'a link to edit it is on its way'), 'the sent message');
    const otp = calls.find((c) => c.path === '/api/auth/otp');
    assertEqual(otp?.search.get('redirect'), '/donor-match-update/12', 'the donor redirect');
    assertEqual(otp?.search.get('email'), 'morgan@example.org', 'the email');
    assertEqual(otp?.headers.get('authorization'), null, 'no token on the link request');
  });
});
