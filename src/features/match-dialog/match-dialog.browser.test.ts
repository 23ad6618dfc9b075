import '../../../dist/elements/twofold-match-dialog.js';
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
  deepElements,
  jsonResponse,
  mockApi,
  mount,
  setValue,
  waitFor,
} from '../../../elements/browser-test-support.ts';
import type { Donation } from '../../contract/donations.ts';
import { testMatch } from './test-match.ts';

const realFetch = window.fetch;

afterEach(() => {
  for (const el of document.querySelectorAll('twofold-match-dialog, twofold-toaster')) el.remove();
  window.fetch = realFetch;
});

/** A server holding one match: GET answers it, PUT and confirm change it, as the real one would. */
function server(initial: Donation, overrides: (call: Call) => Response | undefined = () => undefined) {
  let current = initial;
  const calls = mockApi((call) => {
    const answer = overrides(call);
    if (answer) return answer;
    if (call.method === 'GET' && call.path === `/api/donation/${current.id}`)
      return jsonResponse(200, { donation: current });
    if (call.method === 'PUT' && call.path === `/api/donation/${current.id}`) {
      const body = call.body as { silenced?: boolean; amount: number; donor: { name: string } };
      current = {
        ...current,
        amount: body.amount,
        donor: current.donor && { ...current.donor, name: body.donor.name },
        silenced: body.silenced ?? current.silenced,
      };
      return jsonResponse(200, { donation: current });
    }
    if (call.method === 'POST' && call.path === '/api/donation/confirm') {
      current = { ...current, status_id: 4, status: { ...current.status, id: 4, name: 'Submitted' } };
      return jsonResponse(200, { message: 'Donation status updated successfully.' });
    }
    if (call.method === 'DELETE') return jsonResponse(200, { message: 'Match deleted successfully.' });
    return jsonResponse(404, { message: 'Not found' });
  });
  return calls;
}

async function openDialog(id = 41) {
  const toaster = await mount('twofold-toaster');
  const el = document.createElement('twofold-match-dialog');
  el.setAttribute('donation-id', String(id));
  el.setAttribute('open', '');
  document.body.append(el);
  const root = el.shadowRoot as ShadowRoot;
  await waitFor(() => root.querySelector('dialog')?.open, 'the dialog to open');
  return { el, root, toasts: toaster.shadowRoot as ShadowRoot };
}

const loaded = (root: ShadowRoot) => waitFor(() => button(root, 'Save'), 'the match to load');
const toastText = (toasts: ShadowRoot, text: string) =>
  waitFor(() => byText(toasts, text), `the toast '${text}'`);

describe('<twofold-match-dialog>', () => {
  it('opens with the match loaded in Match Details, focus inside, labelled and axe clean', async () => {
    server(testMatch());
    const { root } = await openDialog();
    await loaded(root);
    const dialog = root.querySelector('dialog') as HTMLDialogElement;
    assertEqual(dialog.getAttribute('aria-labelledby') !== null, true, 'the dialog is labelled');
    assert(byText(root, 'Match #41'), 'the title');
    assertEqual(control(root, 'Donor Name *').value, 'Dana Donor', 'donor name');
    assertEqual(control(root, 'Donor Email').value, 'dana@example.org', 'donor email');
    assertEqual(control(root, 'Company').value, 'Acme Corp', 'company');
    assertEqual(control(root, 'Amount *').value, '125.50', 'amount');
    assertEqual(control(root, 'Transaction ID').value, 'tx-41', 'transaction id');
    assertEqual(control(root, 'Field 1 name').value, 'team', 'the custom field');
    assert(
      !deepElements(root).some((e) => e instanceof HTMLInputElement && e.value === 'amply'),
      'hidden custom keys are not shown',
    );
    // The shared StatusBadge: coloured by the status group (5 is in NPO to Verify), billing beside it.
    const status = byText(root, 'Donor to E-Sign Form');
    assertEqual(status?.className, 'badge badge--warning', 'the status as its group badge');
    assertEqual(status?.dataset.group, 'npo_verify', 'its group');
    const billing = byText(root, 'Ineligible');
    assertEqual(billing?.dataset.billing, 'ineligible', 'the billing status badge');
    assert(byText(root, 'Hope Harbor'), 'the organization, read-only');
    assert(root.activeElement && dialog.contains(root.activeElement), 'focus is in the dialog');
    const tabs = deepElements(root).filter((e) => e.getAttribute('role') === 'tab');
    // An e-sign company's match also has the Signed Form tab (issue #16).
    assertEqual(
      tabs.map((t) => t.textContent).join(','),
      'Match Details,Email Communications,Signed Form',
      'the tabs',
    );
    assertEqual((await axeViolations(dialog)).join('\n'), '', 'axe violations');
  });

  it('saves the edited fields with PUT, says so, and tells the host the match changed', async () => {
    const calls = server(testMatch());
    const { el, root, toasts } = await openDialog();
    await loaded(root);
    const changed: unknown[] = [];
    el.addEventListener('twofold-match-changed', (e) => changed.push(e.detail));
    setValue(control(root, 'Donor Name *'), 'Dana D. Donor');
    setValue(control(root, 'Amount *'), '200');
    button(root, 'Save')?.click();
    await toastText(toasts, 'Match saved successfully.');
    const put = calls.find((c) => c.method === 'PUT');
    const body = put?.body as Record<string, unknown>;
    assertEqual(body.amount, 200, 'amount');
    assertEqual(
      JSON.stringify(body.donor),
      JSON.stringify({ name: 'Dana D. Donor', email: 'dana@example.org' }),
      'donor',
    );
    assertEqual(body.company_id, 3, 'company id');
    assertEqual(body.donated_at, '2026-03-05T15:30:00.000Z', 'date plus time');
    assertEqual(body.reprocess, undefined, 'no reprocess');
    assertEqual(JSON.stringify(body.custom), JSON.stringify({ team: 'Blue', amply: { id: 'x' } }), 'custom');
    assertEqual(JSON.stringify(changed), JSON.stringify([{ id: 41 }]), 'twofold-match-changed');
  });

  it('Save & Re-Email sends reprocess, and a refused save says the spec text with the reason', async () => {
    const calls = server(testMatch(), (call) =>
      call.method === 'PUT' && (call.body as { reprocess?: boolean }).reprocess
        ? jsonResponse(409, {
            message: 'A donation with this transaction id already exists for this organization.',
          })
        : undefined,
    );
    const { root, toasts } = await openDialog();
    await loaded(root);
    button(root, 'Save & Re-Email')?.click();
    await toastText(toasts, 'Failed to save and reprocess match.');
    assert(
      byText(toasts, 'A donation with this transaction id already exists for this organization.'),
      'reason',
    );
    assertEqual(
      (calls.find((c) => c.method === 'PUT')?.body as { reprocess?: boolean } | undefined)?.reprocess,
      true,
      'reprocess',
    );
  });

  it('shows field errors and sends nothing when the donor name is empty', async () => {
    const calls = server(testMatch());
    const { root } = await openDialog();
    await loaded(root);
    setValue(control(root, 'Donor Name *'), '  ');
    button(root, 'Save')?.click();
    await waitFor(() => byText(root, 'Donor name is required'), 'the error');
    await waitFor(() => root.activeElement === control(root, 'Donor Name *'), 'focus on the field to fix');
    assertEqual(calls.filter((c) => c.method === 'PUT').length, 0, 'no PUT');
  });

  it('Submitted first says what it does to the bill; Cancel sends nothing and returns focus', async () => {
    const calls = server(testMatch({ billing_rate: 0.05, matched: 200 }));
    const { root } = await openDialog();
    await loaded(root);
    const submitted = button(root, 'Submitted');
    submitted?.click();
    await waitFor(
      () =>
        byText(
          root,
          'Mark this match Submitted? It will count on this month’s bill: $10.00 (5% of its estimated match of $200.00).',
        ),
      'the question',
    );
    const question = root.querySelector('.match__confirm') as HTMLElement;
    await waitFor(() => root.activeElement === button(question, 'Cancel'), 'focus on Cancel');
    button(question, 'Cancel')?.click();
    await waitFor(() => !root.querySelector('.match__confirm'), 'the question closed');
    await waitFor(() => root.activeElement === submitted, 'focus back on Submitted');
    assertEqual(calls.filter((c) => c.path === '/api/donation/confirm').length, 0, 'nothing sent');
  });

  it('Submitted confirms the status, says so, and reloads the match', async () => {
    const calls = server(testMatch());
    const { root, toasts } = await openDialog();
    await loaded(root);
    button(root, 'Submitted')?.click();
    await waitFor(() => button(root, 'Yes, Mark Submitted'), 'the question');
    button(root, 'Yes, Mark Submitted')?.click();
    await toastText(toasts, 'Donation status updated successfully.');
    await waitFor(() => byText(root, 'Submitted') && !button(root, 'Submitted'), 'the reloaded status');
    const confirm = calls.find((c) => c.path === '/api/donation/confirm');
    assertEqual(
      JSON.stringify(confirm?.body),
      JSON.stringify({ donation_ids: [41], status: 'submitted' }),
      'body',
    );
    assertEqual(calls.filter((c) => c.method === 'GET').length, 2, 'loaded, then reloaded');
  });

  it('a failed status change says so and keeps the match as it was', async () => {
    server(testMatch(), (call) =>
      call.path === '/api/donation/confirm' ? jsonResponse(403, { message: 'No' }) : undefined,
    );
    const { root, toasts } = await openDialog();
    await loaded(root);
    button(root, 'No Charge')?.click();
    await waitFor(
      () => byText(root, 'Mark this match No Charge? It will not count on any bill.'),
      'the question',
    );
    button(root, 'Yes, No Charge')?.click();
    await toastText(toasts, 'Failed to update donation status.');
    assert(byText(root, 'Donor to E-Sign Form'), 'status unchanged');
  });

  it('offers Refund and no No Charge when a bill exists, and the disabled Refunded badge once refunded', async () => {
    server(testMatch({ eligible_bill_id: 5 }));
    let { root } = await openDialog();
    await loaded(root);
    assert(button(root, 'Refund'), 'Refund');
    assert(!button(root, 'No Charge'), 'no No Charge');
    assert(!button(root, 'Refunded'), 'no Refunded badge yet');
    for (const el of document.querySelectorAll('twofold-match-dialog, twofold-toaster')) el.remove();
    server(testMatch({ eligible_bill_id: 5, refunded_bill_id: 6 }));
    ({ root } = await openDialog());
    await loaded(root);
    assertEqual(button(root, 'Refunded')?.disabled, true, 'the Refunded badge is disabled');
    assert(!button(root, 'Refund'), 'no Refund once refunded');
  });

  it('a match on an issued bill that re-resolved to Below Company Minimum still offers Refund', async () => {
    server(
      testMatch({
        status_id: 10,
        status: { id: 10, name: 'Below Company Minimum', billing_status: 'processed' },
        eligible_bill_id: 5,
        processed_bill_id: 5,
      }),
    );
    const { root } = await openDialog();
    await loaded(root);
    assert(byText(root, 'Below Company Minimum'), 'the re-resolved status');
    assert(button(root, 'Refund'), 'Refund is offered: the fee was charged');
    assert(!button(root, 'No Charge'), 'no No Charge on a billed match');
  });

  it('Silence toggles to Un-Silence with the spec texts', async () => {
    const calls = server(testMatch());
    const { root, toasts } = await openDialog();
    await loaded(root);
    button(root, 'Silence')?.click();
    await toastText(toasts, 'Match silenced successfully.');
    assertEqual(
      (calls.find((c) => c.method === 'PUT')?.body as { silenced?: boolean } | undefined)?.silenced,
      true,
      'silenced',
    );
    (await waitFor(() => button(root, 'Un-Silence'), 'Un-Silence')).click();
    await toastText(toasts, 'Match un-silenced successfully.');
  });

  it('Delete Match asks first, then deletes, says so and closes', async () => {
    const calls = server(testMatch());
    const { el, root, toasts } = await openDialog();
    await loaded(root);
    const closed: unknown[] = [];
    el.addEventListener('twofold-match-closed', (e) => closed.push(e.detail));
    button(root, 'Delete Match')?.click();
    const keep = await waitFor(() => button(root, 'Keep Match'), 'the question');
    await waitFor(() => root.activeElement === keep, 'focus on Keep Match');
    assertEqual(calls.filter((c) => c.method === 'DELETE').length, 0, 'nothing deleted yet');
    button(root, 'Yes, Delete Match')?.click();
    await toastText(toasts, 'Match deleted successfully.');
    await waitFor(() => !el.hasAttribute('open'), 'the dialog to close');
    assertEqual(JSON.stringify(closed), JSON.stringify([{ id: 41 }]), 'one twofold-match-closed');
  });

  it('Escape closes the dialog, removes open and tells the host', async () => {
    server(testMatch());
    const { el, root } = await openDialog();
    await loaded(root);
    const closed = new Promise((resolve) =>
      el.addEventListener('twofold-match-closed', resolve, { once: true }),
    );
    await sendKeys({ press: 'Escape' });
    await closed;
    assertEqual(el.hasAttribute('open'), false, 'open removed');
  });

  it('a host that removes open closes the dialog without being told it was closed; the user closing it is told once, on document', async () => {
    server(testMatch());
    const { el, root } = await openDialog();
    await loaded(root);
    const closed: unknown[] = [];
    const onDocument = (e: Event) => {
      const event = e as CustomEvent;
      closed.push({ detail: event.detail, bubbles: event.bubbles, composed: event.composed });
    };
    document.addEventListener('twofold-match-closed', onDocument);
    try {
      el.removeAttribute('open');
      await waitFor(() => !root.querySelector('dialog')?.open, 'the dialog to close');
      // Reopened by the host, then closed by the user with the close button.
      el.setAttribute('open', '');
      await waitFor(() => root.querySelector('dialog')?.open, 'the dialog to reopen');
      assertEqual(closed.length, 0, "no event for the host's own close");
      await loaded(root);
      button(root, 'Close')?.click();
      await waitFor(() => !el.hasAttribute('open'), 'open removed');
      assertEqual(
        JSON.stringify(closed),
        JSON.stringify([{ detail: { id: 41 }, bubbles: true, composed: true }]),
        'one event, from emit()',
      );
    } finally {
      document.removeEventListener('twofold-match-closed', onDocument);
    }
  });

  it("takes its stylesheet from the element's styles option, like every element (one adopted sheet)", async () => {
    server(testMatch());
    const { el, root } = await openDialog();
    await loaded(root);
    const sheets = el.shadowRoot?.adoptedStyleSheets ?? [];
    assertEqual(sheets.length, 1, 'the one sheet defineElement adopts');
    const rules = [...(sheets[0]?.cssRules ?? [])].map((r) => r.cssText).join('\n');
    assert(rules.includes('--twofold-color-primary'), 'the tokens');
    assert(rules.includes('.match__'), "the dialog's own rules in the same sheet");
  });

  it('lists sent emails with a preview link in a new tab, and shows Recurring History only when there is some', async () => {
    server(
      testMatch({
        notifications: [
          {
            id: 10,
            created_at: '2026-03-13T10:00:00Z',
            subject: 'Reminder: your gift can be doubled',
            first_open: null,
            kind: 'reminder',
            stage: 2,
          },
          {
            id: 9,
            created_at: '2026-03-06T10:00:00Z',
            subject: 'Your gift can be doubled',
            first_open: null,
            kind: 'initial',
            stage: 1,
          },
        ],
        recurring_history: [
          { id: 40, created_at: '2026-02-05T00:00:00Z', donated_at: '2026-02-05T00:00:00Z', amount: 25 },
        ],
      }),
    );
    const { root } = await openDialog();
    await loaded(root);
    (deepElements(root).find((e) => e.textContent === 'Email Communications') as HTMLElement).click();
    const link = await waitFor(
      () => deepElements(root).find((e): e is HTMLAnchorElement => e instanceof HTMLAnchorElement),
      'the preview link',
    );
    assertEqual(new URL(link.href).pathname, '/preview-notification/10', 'preview path (newest first)');
    assertEqual(link.target, '_blank', 'new tab');
    assert(byText(root, 'Your gift can be doubled'), 'subject');
    assert(byText(root, '1st reminder') && byText(root, 'Initial email'), 'each email named for what it is');
    assert(byText(root, 'Not opened'), 'first open');
    (deepElements(root).find((e) => e.textContent === 'Recurring History') as HTMLElement).click();
    await waitFor(() => byText(root, '#40'), 'the recurring row');
    assert(byText(root, '$25.00'), 'its amount');
  });

  it('a failed load says the spec text, and a retry that works says Match Data Loaded', async () => {
    let fail = true;
    server(testMatch(), (call) =>
      call.method === 'GET' && fail ? jsonResponse(500, { message: 'Server error' }) : undefined,
    );
    const { root, toasts } = await openDialog();
    await toastText(toasts, 'Failed to fetch match data. Please try again later.');
    assert(byText(root, 'Failed to fetch match data. Please try again later.'), 'in the dialog too');
    fail = false;
    button(root, 'Try again')?.click();
    await toastText(toasts, 'Match Data Loaded');
    await loaded(root);
  });

  it('searches companies from 3 characters and sends the chosen company id', async () => {
    const calls = server(testMatch(), (call) =>
      call.path.startsWith('/search/company-name/')
        ? jsonResponse(200, {
            names: [
              { name: 'Globex', company: { id: 8, name: 'Globex' }, company_id: 8 },
              { name: 'Glo', company: null, company_id: null },
            ],
          })
        : undefined,
    );
    const { root } = await openDialog();
    await loaded(root);
    const company = control(root, 'Company');
    setValue(company, 'Glo');
    const option = await waitFor(() => byText(root, 'Globex'), 'the suggestion');
    const search = calls.find((c) => c.path.startsWith('/search/company-name/'));
    assertEqual(search?.path, '/search/company-name/Glo', 'path');
    assertEqual(search?.search.get('other'), 'true', 'other=true');
    assertEqual(search?.search.get('exclude'), 'false', 'exclude=false');
    assert(byText(root, 'Other: “Glo”'), "the 'Other' entry");
    option.click();
    await waitFor(() => company.value === 'Globex', 'the chosen company');
    button(root, 'Save')?.click();
    await waitFor(() => calls.find((c) => c.method === 'PUT'), 'the PUT');
    const body = calls.find((c) => c.method === 'PUT')?.body as { company_id: number; company_name: string };
    assertEqual(body.company_id, 8, 'company id');
    assertEqual(body.company_name, 'Globex', 'company name');
  });

  it('searches only what the user types: a match opened with an unlinked company pops no list', async () => {
    const calls = server(
      testMatch({ company: null, company_id: null, company_name: 'Tiny Startup' }),
      (call) =>
        call.path.startsWith('/search/company-name/') ? jsonResponse(200, { names: [] }) : undefined,
    );
    const { root } = await openDialog();
    await loaded(root);
    const company = control(root, 'Company');
    assertEqual(company.value, 'Tiny Startup', 'the name as saved');
    // Longer than the 300 ms debounce: a search of the opened name would have gone out by now.
    await new Promise((resolve) => setTimeout(resolve, 450));
    assert(!calls.some((c) => c.path.startsWith('/search/company-name/')), 'no search on open');
    setValue(company, 'Tiny Startups');
    await waitFor(
      () => calls.find((c) => c.path === '/search/company-name/Tiny%20Startups'),
      'the typed search',
    );
  });
});

describe('<twofold-match-dialog> employer identification (issue #31)', () => {
  it("shows a past correction of the donor's misspelt email domain, with the address as given", async () => {
    server(
      testMatch({
        donor: { id: 7, name: 'Jane Donor', email: 'jane@gmail.com' },
        email_correction: { from: 'jane@gmial.com', to: 'jane@gmail.com', at: '2026-03-05T15:31:00.000Z' },
      }),
    );
    const { root } = await openDialog();
    await loaded(root);
    assertEqual(
      control(root, 'Donor Email').value,
      'jane@gmail.com',
      'the corrected address is the one used',
    );
    const line = await waitFor(
      () => root.querySelector('.match-dialog__email-correction'),
      'the correction line',
    );
    assertEqual(
      line.textContent,
      'Email corrected from jane@gmial.com to jane@gmail.com',
      'the correction, from the history',
    );
    const dialog = root.querySelector('dialog') as HTMLDialogElement;
    assertEqual((await axeViolations(dialog)).join('\n'), '', 'axe violations');
  });

  it('says nothing of a correction when the email was never corrected', async () => {
    server(testMatch({ email_correction: null }));
    const { root } = await openDialog();
    await loaded(root);
    assertEqual(root.querySelector('.match-dialog__email-correction'), null, 'no correction line');
    assert(!root.textContent?.includes('Email corrected'), 'no correction text');
  });
});

describe('<twofold-match-dialog> Suggest a correction: domains and aliases (issue #31)', () => {
  const acmeCorp = {
    id: 3,
    name: 'Acme Corp',
    match_method: 'esign',
    guide: null,
    url: null,
    verify: null,
    program: 'matching',
    minimum_match_cents: null,
    maximum_match_cents: null,
    match_ratio: 1,
    deadline_rule: 'year-end',
    deadline_days: null,
    csr_vendor: null,
    forms_email: null,
    forms_address: null,
    categories: [],
    domains: ['acme.example.com'],
    aliases: ['Acme'],
  };
  const companyServer = () =>
    server(testMatch(), (call) => {
      if (call.method === 'GET' && call.path === '/api/companies/3')
        return jsonResponse(200, { company: acmeCorp, history: [] });
      if (call.method === 'POST' && call.path === '/api/companies/3/suggestions')
        return jsonResponse(200, { message: 'Suggestion sent for review' });
      return undefined;
    });
  const openForm = async () => {
    const { root, toasts } = await openDialog();
    await loaded(root);
    const summary = await waitFor(() => byText(root, 'Suggest a correction'), 'the disclosure');
    summary.click();
    return { root, toasts };
  };
  const labelled = (root: ShadowRoot, label: string) => {
    try {
      return control(root, label);
    } catch {
      return undefined;
    }
  };
  const suggestions = (calls: Call[]) =>
    calls.filter((c) => c.method === 'POST' && c.path === '/api/companies/3/suggestions');

  it("suggests an email domain: today's domains plus the new one, through the suggestions queue", async () => {
    const calls = companyServer();
    const { root, toasts } = await openForm();
    setValue(control<HTMLSelectElement>(root, 'Field'), 'domains');
    const domain = await waitFor(() => labelled(root, 'Email domain'), 'the domain field');
    setValue(domain, 'WWW.Acme-Analytics.example.com');
    button(root, 'Send suggestion')?.click();
    const sent = await waitFor(() => suggestions(calls)[0], 'the suggestion');
    await waitFor(() => byText(toasts, 'Suggestion sent'), 'the sent toast');
    assertEqual(
      JSON.stringify((sent.body as { proposed?: unknown }).proposed),
      JSON.stringify({ domains: ['acme.example.com', 'acme-analytics.example.com'] }),
      'the list as it would be, the typed domain in lower case without www.',
    );
    const dialog = root.querySelector('dialog') as HTMLDialogElement;
    assertEqual((await axeViolations(dialog)).join('\n'), '', 'axe violations');
  });

  it('suggests an alias, and says so without sending when it is already listed', async () => {
    const calls = companyServer();
    const { root, toasts } = await openForm();
    setValue(control<HTMLSelectElement>(root, 'Field'), 'aliases');
    const alias = await waitFor(() => labelled(root, 'Alias'), 'the alias field');
    setValue(alias, 'acme');
    button(root, 'Send suggestion')?.click();
    await waitFor(() => byText(root, 'acme is already listed for this company.'), 'the error');
    assertEqual(suggestions(calls).length, 0, 'nothing sent');
    setValue(control(root, 'Alias'), 'ACME Co');
    button(root, 'Send suggestion')?.click();
    const sent = await waitFor(() => suggestions(calls)[0], 'the suggestion');
    await waitFor(() => byText(toasts, 'Suggestion sent'), 'the sent toast');
    assertEqual(
      JSON.stringify((sent.body as { proposed?: unknown }).proposed),
      JSON.stringify({ aliases: ['Acme', 'ACME Co'] }),
      'the aliases as they would be',
    );
  });
});
