import './donations-test-session.ts';
import '../../../dist/elements/twofold-donations.js';
import '../../../dist/elements/twofold-toaster.js';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import {
  assert,
  assertEqual,
  axeViolations,
  button,
  byText,
  fill,
  mount,
  notVisibleBecause,
  waitFor,
} from '../../../elements/browser-test-support.ts';
import { importMessages } from '../../contract/donation-import.ts';
import { emptyTexts } from './donations-query.ts';
import {
  type Call,
  donation,
  importTest,
  json,
  listCalls,
  listResponse,
  mockApi,
  orgId,
} from './donations-test-support.ts';

const realFetch = window.fetch;
const realOpen = window.open;

afterEach(() => {
  for (const el of document.querySelectorAll('twofold-donations, twofold-toaster')) el.remove();
  window.fetch = realFetch;
  window.open = realOpen;
  localStorage.clear();
});

async function donationsPage() {
  const toaster = await mount('twofold-toaster');
  const el = await mount('twofold-donations');
  return { root: el.shadowRoot as ShadowRoot, toasts: toaster.shadowRoot as ShadowRoot, el };
}

function tile(root: ShadowRoot, label: string): HTMLButtonElement {
  const found = [...root.querySelectorAll<HTMLButtonElement>('.donations__tile')].find(
    (b) => b.querySelector('.donations__tile-label')?.textContent === label,
  );
  assert(found, `the ${label} tile`);
  return found;
}

function field(root: ShadowRoot, label: string): HTMLInputElement {
  const labelEl = [...root.querySelectorAll('label')].find((l) => l.textContent?.trim() === label);
  const control = labelEl?.control;
  assert(control instanceof HTMLInputElement, `the ${label} field`);
  return control;
}

/** A sortable column's header cell and its button (the sort mark is not part of its label). */
function column(root: ShadowRoot, label: string): { th: HTMLTableCellElement; sort: HTMLButtonElement } {
  const th = [...root.querySelectorAll<HTMLTableCellElement>('thead th')].find(
    (cell) => cell.querySelector('button')?.firstChild?.textContent === label,
  );
  const sort = th?.querySelector('button');
  assert(th && sort, `the ${label} column`);
  return { th, sort };
}

/** Fails unless `cell` is laid out wholly inside a viewport `width` px wide. */
function assertOnScreen(cell: Element | null, width: number, what: string): void {
  assert(cell, what);
  const box = cell.getBoundingClientRect();
  assert(
    box.width > 0 && box.left >= 0 && box.right <= width,
    `${what} within ${width} px (it spans ${box.left}–${box.right})`,
  );
}

/** Runs `body` with a phone-wide viewport, then puts the usual one back. */
async function atPhoneWidth(body: () => Promise<void>): Promise<void> {
  await setViewport({ width: 390, height: 844 });
  try {
    await body();
  } finally {
    await setViewport({ width: 800, height: 600 });
  }
}

const param = (call: Call | undefined, name: string) => call?.url.searchParams.get(name) ?? null;

describe('<twofold-donations>', () => {
  it('lists the donations with the tile counts and N Found, then passes axe', async () => {
    mockApi(() => json(200, listResponse(3)));
    const { root, el } = await donationsPage();
    await waitFor(() => byText(root, 'Donor 1'), 'the first row');
    assert(byText(root, 'Donations'), 'the title');
    assert(byText(root, '3 Found'), 'the count');
    assert(!root.querySelector('.donations__notice'), 'no setup notice: the organization is complete');
    assertEqual(root.querySelectorAll('tbody tr').length, 3, 'rows');
    const cells = [...(root.querySelector('tbody tr')?.querySelectorAll('td') ?? [])].map(
      (td) => td.textContent,
    );
    assertEqual(
      cells.join(' | '),
      'Mar 01, 2025 | Donor 1 | $1,200.00 | Acme Corp | Hope Harbor Foundation | Match Request Under Review',
      'the columns',
    );
    assertEqual(
      tile(root, 'NPO to Verify').querySelector('.donations__tile-count')?.textContent,
      '22',
      'a count',
    );
    assertEqual(tile(root, 'NPO to Verify').dataset.status, 'NPO_TO_VERIFY', 'the spec constant');
    assert(!root.querySelector('.donations__pager'), 'no pager for one page');
    const violations = await axeViolations(el);
    assertEqual(violations.join('\n'), '', 'axe violations');
  });

  it('at 390 px each donation is a card whose Status (the key column) is on screen, labelled', async () => {
    await atPhoneWidth(async () => {
      mockApi(() => json(200, listResponse(3)));
      const { root, el } = await donationsPage();
      await waitFor(() => byText(root, 'Donor 1'), 'the first row');
      const statuses = [...root.querySelectorAll('tbody td[data-label="Status"]')];
      assertEqual(statuses.length, 3, 'a Status per donation');
      for (const cell of statuses) assertOnScreen(cell, 390, 'the Status');
      assertOnScreen(root.querySelector('tbody td[data-label="Amount"]'), 390, 'the Amount');
      assertEqual(getComputedStyle(statuses[0] as Element, '::before').content, '"Status"', 'named');
      const page = document.scrollingElement as HTMLElement;
      assert(page.scrollWidth <= 390, `no sideways scroll (${page.scrollWidth} px)`);
      assertEqual((await axeViolations(el)).join('\n'), '', 'axe on the cards');
    });
  });

  it('clicking a tile filters by its status group; clicking the active tile clears it', async () => {
    const calls = mockApi(() => json(200, listResponse(3)));
    const { root } = await donationsPage();
    await waitFor(() => byText(root, 'Donor 1'), 'the rows');
    const npo = tile(root, 'NPO to Verify');
    assertEqual(npo.getAttribute('aria-pressed'), 'false', 'not pressed at first');
    npo.click();
    await waitFor(
      () => param(listCalls(calls).at(-1), 'filters[status_group]') === 'npo_verify',
      'the filtered call',
    );
    await waitFor(() => npo.getAttribute('aria-pressed') === 'true', 'pressed');
    tile(root, 'No Response').click();
    await waitFor(
      () => param(listCalls(calls).at(-1), 'filters[status_group]') === 'no_response',
      'the other tile',
    );
    assertEqual(npo.getAttribute('aria-pressed'), 'false', 'only one tile is active');
    tile(root, 'No Response').click();
    await waitFor(
      () => listCalls(calls).length === 4 && param(listCalls(calls).at(-1), 'filters[status_group]') === null,
      'the unfiltered call',
    );
    assertEqual(tile(root, 'No Response').getAttribute('aria-pressed'), 'false', 'cleared');
  });

  it('shows the pager only when the total exceeds 50, and pages with Next and Previous', async () => {
    let total = 51;
    const calls = mockApi(() => json(200, listResponse(total)));
    const { root } = await donationsPage();
    await waitFor(() => byText(root, '51 Found'), 'the count');
    assert(byText(root, 'Page 1 of 2'), 'the pager');
    assert(button(root, 'Previous')?.disabled, 'no previous page');
    button(root, 'Next')?.click();
    await waitFor(() => param(listCalls(calls).at(-1), 'page') === '2', 'page 2 asked for');
    await waitFor(() => byText(root, 'Page 2 of 2'), 'on page 2');
    assert(button(root, 'Next')?.disabled, 'no next page');
    total = 50;
    tile(root, 'Submitted').click();
    await waitFor(() => byText(root, '50 Found'), 'the new count');
    assert(!root.querySelector('.donations__pager'), 'no pager at exactly 50');
    assertEqual(param(listCalls(calls).at(-1), 'page'), '1', 'a tile resets the page');
  });

  it('opens on the last 90 days, 50 a page; Clear filters asks for the whole history', async () => {
    const calls = mockApi(() => json(200, listResponse(3)));
    const { root } = await donationsPage();
    await waitFor(() => byText(root, '3 Found'), 'the first answer');
    const first = listCalls(calls)[0];
    const day = (d: Date) =>
      `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    const today = new Date();
    const from = new Date(today.getFullYear(), today.getMonth(), today.getDate() - 90);
    assertEqual(param(first, 'filters[dateTo]'), day(today), 'up to today');
    assertEqual(param(first, 'filters[dateFrom]'), day(from), 'from 90 days back');
    assertEqual(param(first, 'per_page'), '50', '50 a page');
    assertEqual(field(root, 'From').value, day(from), 'the From field shows it');
    const clear = button(root, 'Clear filters');
    assert(clear && !clear.disabled, 'Clear filters is offered');
    tile(root, 'No Response').click();
    await waitFor(
      () => param(listCalls(calls).at(-1), 'filters[status_group]') === 'no_response',
      'the tile',
    );
    clear.click();
    await waitFor(
      () =>
        param(listCalls(calls).at(-1), 'filters[dateFrom]') === null &&
        param(listCalls(calls).at(-1), 'filters[status_group]') === null,
      'the unfiltered call',
    );
    assertEqual(field(root, 'From').value, '', 'the dates are cleared');
    await waitFor(() => button(root, 'Clear filters')?.disabled === true, 'nothing left to clear');
  });

  it('debounces filter typing (one call after the pause) and resets the page to 1', async () => {
    const calls = mockApi((call) =>
      json(200, param(call, 'filters[donor]') ? listResponse(4) : listResponse(120)),
    );
    const { root } = await donationsPage();
    await waitFor(() => byText(root, '120 Found'), 'the first page');
    button(root, 'Next')?.click();
    await waitFor(() => byText(root, 'Page 2 of 3'), 'page 2');
    const before = listCalls(calls).length;
    const donor = field(root, 'Donor name or email');
    fill(donor, 'a');
    fill(donor, 'an');
    fill(donor, 'ann');
    assertEqual(listCalls(calls).length, before, 'no call while typing');
    await waitFor(() => byText(root, '4 Found'), 'the filtered count');
    const sent = listCalls(calls).slice(before);
    assertEqual(sent.length, 1, 'one call for the three keystrokes');
    assertEqual(param(sent[0], 'filters[donor]'), 'ann', 'the donor filter');
    assertEqual(param(sent[0], 'page'), '1', 'back to page 1');
    assert(!root.querySelector('.donations__pager'), 'one page now');
  });

  it('a column header sorts by it (aria-sort) and a second click flips the order', async () => {
    const calls = mockApi(() => json(200, listResponse(3)));
    const { root } = await donationsPage();
    await waitFor(() => byText(root, 'Donor 1'), 'the rows');
    const donated = column(root, 'Donated').th;
    assertEqual(donated.getAttribute('aria-sort'), 'descending', 'the default sort');
    assertEqual(param(listCalls(calls)[0], 'sort_field'), 'donated_at', 'sent');
    const amount = column(root, 'Amount');
    amount.sort.click();
    await waitFor(() => param(listCalls(calls).at(-1), 'sort_field') === 'amount', 'sorted by amount');
    assertEqual(param(listCalls(calls).at(-1), 'ascending'), 'false', 'largest first');
    await waitFor(() => amount.th.getAttribute('aria-sort') === 'descending', 'announced');
    assertEqual(donated.hasAttribute('aria-sort'), false, 'only one sorted column');
    amount.sort.click();
    await waitFor(() => amount.th.getAttribute('aria-sort') === 'ascending', 'flipped');
    assertEqual(param(listCalls(calls).at(-1), 'ascending'), 'true', 'smallest first');
  });

  it('a minimum amount that is not dollars is explained and not sent', async () => {
    const calls = mockApi(() => json(200, listResponse(3)));
    const { root } = await donationsPage();
    await waitFor(() => byText(root, 'Donor 1'), 'the rows');
    const minimum = field(root, 'Minimum amount');
    fill(minimum, '12,5');
    await waitFor(() => byText(root, 'Enter an amount in dollars, such as 100 or 250.50'), 'the explanation');
    assertEqual(minimum.getAttribute('aria-invalid'), 'true', 'marked invalid');
    fill(minimum, '12.5');
    await waitFor(
      () => param(listCalls(calls).at(-1), 'filters[minAmount]') === '12.5',
      'the valid amount sent',
    );
    assert(
      listCalls(calls).every((c) => param(c, 'filters[minAmount]') !== '12,5'),
      'the invalid amount never sent',
    );
  });

  it('an older answer arriving after a newer one never replaces it', async () => {
    const pending: Array<() => void> = [];
    mockApi(
      (call) =>
        new Promise<Response>((resolve) => {
          const group = param(call, 'filters[status_group]');
          const total = group === 'npo_verify' ? 9 : group === 'no_response' ? 5 : 2;
          const answer = () => resolve(json(200, listResponse(total)));
          if (group === 'npo_verify') pending.push(answer);
          else answer();
        }),
    );
    const { root } = await donationsPage();
    const found = await waitFor(() => byText(root, '2 Found'), 'the first list');
    let staleShown = false;
    const watcher = new MutationObserver(() => {
      if (found.textContent === '9 Found') staleShown = true;
    });
    watcher.observe(found, { childList: true, characterData: true, subtree: true });
    tile(root, 'NPO to Verify').click();
    await waitFor(() => pending.length === 1, 'the slow request');
    tile(root, 'NPO to Verify').click();
    await waitFor(() => !byText(root, 'Loading donations...'), 'the newer answer');
    pending[0]?.();
    // A later request goes through the same steps as the stale answer's remaining ones, and more.
    tile(root, 'No Response').click();
    await waitFor(() => found.textContent === '5 Found', 'the next list');
    watcher.disconnect();
    assert(!staleShown, 'the stale count never showed');
  });

  it('shows each status as a badge coloured by its status group and a match without a company as a muted "No company"', async () => {
    const rows = [
      donation(1, {
        status: { id: 2, name: 'Match Request Under Review', billing_status: 'ineligible' },
        status_id: 2,
      }),
      donation(2, {
        status: { id: 3, name: 'NPO to Verify/Sign', billing_status: 'eligible' },
        status_id: 3,
      }),
      donation(3, { status: { id: 4, name: 'Submitted', billing_status: 'eligible' }, status_id: 4 }),
      donation(4, {
        status: { id: 20, name: 'Donor No Response', billing_status: 'ineligible' },
        status_id: 20,
      }),
      donation(5, {
        status: { id: 23, name: 'Missing Company Hold', billing_status: 'ineligible' },
        status_id: 23,
        company_name: null,
      }),
    ];
    mockApi(() => json(200, { ...listResponse(5, 0), donations: rows }));
    const { root, el } = await donationsPage();
    await waitFor(() => byText(root, 'Donor 5'), 'the rows');
    const badges = [...root.querySelectorAll<HTMLElement>('tbody td .badge')];
    assertEqual(
      badges.map((b) => `${b.textContent}:${b.dataset.group}:${b.className}`).join(' | '),
      [
        'Match Request Under Review:donor_contacted:badge badge--info',
        'NPO to Verify/Sign:npo_verify:badge badge--warning',
        'Submitted:engaged_submitted:badge badge--success',
        'Donor No Response:no_response:badge badge--danger',
        'Missing Company Hold:none:badge badge--neutral',
      ].join(' | '),
      'one badge per row, coloured by group',
    );
    const colours = new Set(badges.map((b) => getComputedStyle(b).backgroundColor));
    assertEqual(colours.size, 5, 'five groups, five colours');
    const noCompany = byText(root, 'No company');
    assert(noCompany?.classList.contains('placeholder'), 'the empty company is said in words');
    assert(noCompany, 'the placeholder');
    assertEqual(getComputedStyle(noCompany).color, 'rgb(91, 102, 117)', 'in the muted colour');
    // One row height: a long name is cut, not wrapped.
    const heights = new Set(
      [...root.querySelectorAll('tbody tr')].map((r) => r.getBoundingClientRect().height),
    );
    assertEqual(heights.size, 1, 'every row is as tall as the others');
    const violations = await axeViolations(el);
    assertEqual(violations.join('\n'), '', 'axe violations');
  });

  it('keeps one row height when a name is too long for its column', async () => {
    const long = 'Bartholomew Fitzgerald-Montgomery of the Very Long Family Name Society';
    mockApi(() =>
      json(200, {
        ...listResponse(2, 0),
        donations: [
          donation(1),
          donation(2, { donor_name: long, donor: { id: 9, name: long, email: null } }),
        ],
      }),
    );
    const { root } = await donationsPage();
    await waitFor(() => byText(root, long), 'the long name');
    const [a, b] = [...root.querySelectorAll('tbody tr')].map((r) => r.getBoundingClientRect().height);
    assertEqual(a, b, 'the long name does not make its row taller');
  });

  it('an empty list says what to do next: clear the filters, or where matches come from', async () => {
    mockApi(() => json(200, listResponse(0)));
    const { root } = await donationsPage();
    await waitFor(() => byText(root, 'No donations found'), 'the empty state');
    // The list opens on the last 90 days, a filter: widening it is the next step.
    assert(byText(root, emptyTexts.filtered), 'the filtered empty state');
    button(root, 'Clear filters')?.click();
    await waitFor(() => byText(root, emptyTexts.upload), 'with no filter: upload a file (write level)');
  });

  it('dresses the date filters and the upload file input like the other fields', async () => {
    mockApi(() => json(200, listResponse(1)));
    const { root } = await donationsPage();
    await waitFor(() => byText(root, 'Donor 1'), 'the rows');
    const from = field(root, 'From');
    const company = field(root, 'Company');
    assertEqual(
      getComputedStyle(from).height,
      getComputedStyle(company).height,
      'a date is as tall as a text field',
    );
    assertEqual(getComputedStyle(from).borderRadius, getComputedStyle(company).borderRadius, 'same corners');
    button(root, 'Upload')?.click();
    const file = await waitFor(
      () => root.querySelector<HTMLInputElement>('input[type="file"]'),
      'the upload dialog',
    );
    const chooser = getComputedStyle(file, '::file-selector-button');
    assertEqual(chooser.backgroundColor, 'rgb(245, 247, 249)', 'the file button is our secondary button');
    assertEqual(chooser.borderTopStyle, 'solid', 'with our border');
    assertEqual(chooser.fontWeight, '600', 'and our weight');
    assertEqual(getComputedStyle(file).borderTopLeftRadius, '8px', 'inside a field box');
  });

  it('before the first answer it says Loading and claims no count', async () => {
    const pending: Array<() => void> = [];
    mockApi((call) =>
      // The Campaign filter's own list answers at once; the donations list waits.
      call.url.pathname.endsWith('/campaigns')
        ? json(200, { campaigns: [] })
        : new Promise<Response>((resolve) => {
            pending.push(() => resolve(json(200, listResponse(4))));
          }),
    );
    const { root } = await donationsPage();
    await waitFor(() => pending.length === 1, 'the first request');
    const loading = await waitFor(() => byText(root, 'Loading donations...'), 'the loading row');
    // Skeleton rows of grey bars as tall as real ones under the spec's text, which everyone reads
    // (issue #30: it was for screen readers only).
    assertEqual(loading.getAttribute('role'), 'status', 'announced');
    assertEqual(notVisibleBecause(loading), '', "'Loading donations...' is visible");
    assertEqual(root.querySelectorAll('tbody tr.skeleton-row').length, 5, 'placeholder rows');
    assert(root.querySelectorAll('tbody .skeleton__bar').length >= 5, 'with bars');
    assert(!byText(root, '0 Found'), 'no count before the answer');
    pending[0]?.();
    await waitFor(() => byText(root, '4 Found'), 'the count');
  });

  it('a failed load shows an empty list and a toast', async () => {
    mockApi(() => json(500, { message: 'Database unavailable' }));
    const { root, toasts } = await donationsPage();
    await waitFor(() => byText(root, 'No donations found'), 'the empty row');
    await waitFor(() => byText(toasts, 'Database unavailable'), "the server's message");
    assert(byText(root, '0 Found'), 'nothing found');
  });

  it('Enter on a focused row opens the match dialog for that donation', async () => {
    const calls = mockApi((call) =>
      call.url.pathname.startsWith('/api/donation/')
        ? json(404, { message: 'Donation not found' })
        : json(200, listResponse(3)),
    );
    const { root } = await donationsPage();
    const row = await waitFor(
      () => root.querySelectorAll<HTMLTableRowElement>('tbody tr.donations__row')[1],
      'the second row',
    );
    row.focus();
    await sendKeys({ press: 'Enter' });
    await waitFor(
      () => calls.some((c) => c.url.pathname === '/api/donation/2') || root.querySelector('dialog[open]'),
      'the match dialog for donation 2',
    );
  });

  it('Download CSV asks for a token with the current filters, tile and sort, and opens the url in a new tab', async () => {
    const opened: string[] = [];
    window.open = ((url?: string | URL) => {
      opened.push(String(url));
      return null;
    }) as typeof window.open;
    const calls = mockApi((call) =>
      call.url.pathname === `/api/donation/${orgId}/csv-token`
        ? json(200, { url: `/api/donation/${orgId}/csv?token=abc` })
        : json(200, listResponse(3)),
    );
    const { root } = await donationsPage();
    await waitFor(() => byText(root, 'Donor 1'), 'the rows');
    tile(root, 'Submitted').click();
    fill(field(root, 'Company'), 'Acme');
    await waitFor(() => param(listCalls(calls).at(-1), 'filters[company]') === 'Acme', 'the filter applied');
    // Sorted by amount, smallest first: the file follows the table's order too.
    column(root, 'Amount').sort.click();
    column(root, 'Amount').sort.click();
    await waitFor(() => param(listCalls(calls).at(-1), 'ascending') === 'true', 'the sort applied');
    button(root, 'Download CSV')?.click();
    await waitFor(() => opened.length === 1, 'a new tab');
    assertEqual(opened[0], `${location.origin}/api/donation/${orgId}/csv?token=abc`, 'the absolute url');
    const tokenCall = calls.find((c) => c.url.pathname === `/api/donation/${orgId}/csv-token`);
    assertEqual(param(tokenCall, 'filters[status_group]'), 'engaged_submitted', 'the tile');
    assertEqual(param(tokenCall, 'filters[company]'), 'Acme', 'the company filter');
    assertEqual(param(tokenCall, 'page'), null, 'every page');
    assertEqual(param(tokenCall, 'sort_field'), 'amount', 'the sort column');
    assertEqual(param(tokenCall, 'ascending'), 'true', 'the sort direction');
  });
});

describe('<twofold-donations> upload and field mapper', () => {
  async function openMapper(root: ShadowRoot) {
    button(root, 'Upload')?.click();
    const file = await waitFor(
      () => root.querySelector<HTMLInputElement>('dialog[open] input[type="file"]'),
      'the upload dialog',
    );
    assertEqual(file.accept, '.csv,.xlsx,.xls', 'accepted types');
    const transfer = new DataTransfer();
    transfer.items.add(new File(['Gift Amount,Date,Email,Employer\n'], 'gifts.csv', { type: 'text/csv' }));
    file.files = transfer.files;
    file.dispatchEvent(new Event('change', { bubbles: true }));
    button(root, 'Continue')?.click();
    await waitFor(() => root.querySelector('dialog[open] .mapper'), 'the field mapper');
  }

  function select(root: ShadowRoot, column: string): HTMLSelectElement {
    const found = root.querySelector<HTMLSelectElement>(`select[aria-label="Upload column ${column} as"]`);
    assert(found, `the ${column} select`);
    return found;
  }

  function choose(target: HTMLSelectElement, value: string) {
    target.value = value;
    target.dispatchEvent(new Event('change', { bubbles: true }));
  }

  it('proposes the map with samples and the rows ready; passes axe in both dialogs', async () => {
    const calls = mockApi((call) =>
      call.url.pathname.endsWith('/Test') ? json(200, importTest()) : json(200, listResponse(1)),
    );
    const { root, el } = await donationsPage();
    await waitFor(() => byText(root, 'Donor 1'), 'the rows');
    button(root, 'Upload')?.click();
    await waitFor(() => root.querySelector('dialog[open] input[type="file"]'), 'the upload dialog');
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe on the upload dialog');
    button(root, 'Cancel')?.click();
    await waitFor(() => !root.querySelector('dialog[open]'), 'closed');
    await openMapper(root);
    const test = calls.find((c) => c.url.pathname === `/api/organization/${orgId}/donation/import-file/Test`);
    assert(test?.body instanceof FormData && test.body.get('donations') instanceof File, 'the file was sent');
    assertEqual(select(root, 'Gift Amount').value, 'amount', 'the proposed target');
    assertEqual(select(root, 'Employer').value, 'company.name', 'the proposed target');
    assert(
      [...select(root, 'Email').options].some((o) => o.value === 'custom.email'),
      'custom.{column}',
    );
    assert(
      [...select(root, 'Email').options].some((o) => o.value === 'skip' && o.text === 'Do not upload'),
      'skip',
    );
    assert(byText(root, '$1,200.00'), 'a sample value');
    assert(byText(root, 'Row 4: Amount is not a number'), 'the unreadable row');
    assert(root.querySelector('.mapper__summary')?.textContent?.includes('2 rows ready'), 'rows ready');
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe on the mapper');
  });

  it('at 390 px each column of the file is a card whose "Upload as" choice is on screen', async () => {
    await atPhoneWidth(async () => {
      mockApi((call) =>
        call.url.pathname.endsWith('/Test') ? json(200, importTest()) : json(200, listResponse(1)),
      );
      const { root } = await donationsPage();
      await waitFor(() => byText(root, 'Donor 1'), 'the rows');
      await openMapper(root);
      const box = root.querySelector('.mapper .card-table-wrap')?.getBoundingClientRect();
      assert(box, 'the mapper table box');
      for (const column of ['Gift Amount', 'Date', 'Email', 'Employer']) {
        const choice = select(root, column);
        assertOnScreen(choice, 390, `${column}: its Upload as choice`);
        // Inside the mapper's own scrolling box too, not cut at its edge.
        const own = choice.getBoundingClientRect();
        assert(own.left >= box.left && own.right <= box.right, `${column}: its choice fits the box`);
      }
      const cell = select(root, 'Employer').closest('td');
      assertEqual(cell ? getComputedStyle(cell, '::before').content : '', '"Upload as"', 'named');
    });
  });

  it('two columns on one target mark both red and block Upload with the Mapping Error', async () => {
    mockApi((call) =>
      call.url.pathname.endsWith('/Test') ? json(200, importTest()) : json(200, listResponse(1)),
    );
    const { root } = await donationsPage();
    await waitFor(() => byText(root, 'Donor 1'), 'the rows');
    await openMapper(root);
    choose(select(root, 'Employer'), 'amount');
    await waitFor(() => byText(root, importMessages.duplicateTarget), 'the mapping error');
    assertEqual(select(root, 'Employer').getAttribute('aria-invalid'), 'true', 'Employer marked');
    assertEqual(select(root, 'Gift Amount').getAttribute('aria-invalid'), 'true', 'Gift Amount marked');
    assertEqual(select(root, 'Email').getAttribute('aria-invalid'), null, 'Email not marked');
    assert(
      getComputedStyle(select(root, 'Employer')).borderColor !==
        getComputedStyle(select(root, 'Email')).borderColor,
      'a visibly different border',
    );
    assert(button(root, 'Upload')?.disabled, 'Upload blocked');
    choose(select(root, 'Employer'), 'skip');
    await waitFor(() => !byText(root, importMessages.duplicateTarget), 'the error gone');
    assertEqual(select(root, 'Gift Amount').getAttribute('aria-invalid'), null, 'unmarked');
  });

  it('a parent with chapters must map Organization Name', async () => {
    mockApi((call) =>
      call.url.pathname.endsWith('/Test')
        ? json(
            200,
            importTest({
              organization: {
                id: orgId,
                name: 'Hope Harbor Foundation',
                children: [{ id: 8, name: 'North' }],
              },
            }),
          )
        : json(200, listResponse(1)),
    );
    const { root } = await donationsPage();
    await waitFor(() => byText(root, 'Donor 1'), 'the rows');
    await openMapper(root);
    await waitFor(() => byText(root, importMessages.organizationNameRequired), 'the missing field');
    assert(button(root, 'Upload')?.disabled, 'Upload blocked');
    choose(select(root, 'Employer'), 'organization_name');
    await waitFor(() => !byText(root, importMessages.organizationNameRequired), 'resolved');
  });

  it('a mapping change is checked again with the map, then Upload sends it and reloads the list', async () => {
    let created = false;
    const calls = mockApi((call) => {
      if (call.url.pathname.endsWith('/Test')) {
        const map = call.body instanceof FormData ? call.body.get('map') : null;
        return json(200, map ? importTest({ ready: 3, errors: [], duplicates: 1 }) : importTest());
      }
      if (call.url.pathname.endsWith('/Upload')) {
        created = true;
        return json(200, { message: 'Upload successful', created: 3, duplicates: 1, errors: [] });
      }
      return json(200, created ? listResponse(4) : listResponse(1));
    });
    const { root, toasts } = await donationsPage();
    await waitFor(() => byText(root, '1 Found'), 'the rows');
    await openMapper(root);
    choose(select(root, 'Employer'), 'custom.employer');
    await waitFor(
      () => root.querySelector('.mapper__summary')?.textContent?.includes('3 rows ready'),
      'rechecked',
    );
    assert(
      root.querySelector('.mapper__summary')?.textContent?.includes('1 duplicate will be skipped'),
      'duplicates',
    );
    const recheck = calls.filter((c) => c.url.pathname.endsWith('/Test')).at(-1);
    assertEqual(
      recheck?.body instanceof FormData ? recheck.body.get('map') : null,
      JSON.stringify({
        gift_amount: 'amount',
        date: 'donated_at',
        email: 'donor.email',
        employer: 'custom.employer',
      }),
      'the map sent to Test',
    );
    button(root, 'Upload')?.click();
    await waitFor(() => byText(toasts, 'Upload successful'), 'the success toast');
    assert(byText(toasts, 'Created 3 donations; 1 duplicate skipped.'), 'the summary');
    const upload = calls.find((c) => c.url.pathname.endsWith('/Upload'));
    assert(upload?.body instanceof FormData, 'multipart');
    assertEqual(upload.body.get('type'), 'Upload', 'type');
    assertEqual(upload.body.get('opt_in'), 'false', 'opt_in');
    assertEqual(upload.body.get('no_company'), 'false', 'no_company');
    assert(upload.body.get('donations') instanceof File, 'the file');
    await waitFor(() => byText(root, '4 Found'), 'the list reloaded');
    await waitFor(() => !root.querySelector('dialog[open]'), 'the mapper closed');
  });

  it('rows lacking only an employer are told apart from unreadable ones, with the option that takes them; Upload waits for a ready row', async () => {
    const calls = mockApi((call) => {
      if (!call.url.pathname.endsWith('/Test')) return json(200, listResponse(1));
      const body = call.body instanceof FormData ? call.body : null;
      return body?.get('emailForEmployer') === 'true'
        ? json(
            200,
            importTest({
              ready: 2,
              errors: [{ row: 5, reason: 'Amount is not a number', kind: 'unreadable' }],
            }),
          )
        : json(
            200,
            importTest({
              ready: 0,
              errors: [
                {
                  row: 2,
                  reason: 'Missing company: choose to import rows without a company',
                  kind: 'missing_company',
                },
                {
                  row: 3,
                  reason: 'Missing company: choose to import rows without a company',
                  kind: 'missing_company',
                },
                { row: 5, reason: 'Amount is not a number', kind: 'unreadable' },
              ],
            }),
          );
    });
    const { root } = await donationsPage();
    await waitFor(() => byText(root, 'Donor 1'), 'the rows');
    await openMapper(root);
    await waitFor(() => root.querySelector('.mapper__missing-company'), 'the employer notice');
    assert(
      root.querySelector('.mapper__missing-company')?.textContent?.includes('2 rows have no employer'),
      'the rows without an employer are counted apart',
    );
    assert(
      root.querySelector('.mapper__errors')?.textContent?.includes('1 row cannot be read'),
      'only the unreadable row is called unreadable',
    );
    const mapperUpload = () => button(root.querySelector('dialog[open] .mapper') as ParentNode, 'Upload');
    assertEqual(mapperUpload()?.disabled, true, 'no Upload with 0 rows ready');
    button(root, 'Import them without a company')?.click();
    await waitFor(() => {
      const last = calls.filter((c) => c.url.pathname.endsWith('/Test')).at(-1)?.body;
      return last instanceof FormData && last.get('emailForEmployer') === 'true';
    }, 'checked again with the option');
    const option = root.querySelector<HTMLInputElement>('.mapper input[name="no_company"]');
    assertEqual(option?.checked, true, 'the option is ticked');
    await waitFor(() => mapperUpload()?.disabled === false, 'Upload once rows are ready');
    assert(!root.querySelector('.mapper__missing-company'), 'the notice is gone');
  });

  it('ticking an option checks the rows again with it, and Upload sends it as opt_in / no_company', async () => {
    const calls = mockApi((call) => {
      if (call.url.pathname.endsWith('/Test')) return json(200, importTest());
      if (call.url.pathname.endsWith('/Upload'))
        return json(200, { message: 'Upload successful', created: 2, duplicates: 0, errors: [] });
      return json(200, listResponse(1));
    });
    const { root } = await donationsPage();
    await waitFor(() => byText(root, 'Donor 1'), 'the rows');
    await openMapper(root);
    const noCompany = root.querySelector<HTMLInputElement>('.mapper input[name="no_company"]');
    assert(noCompany && !noCompany.checked, 'no_company unticked, as in the upload dialog');
    noCompany.click();
    await waitFor(() => {
      const last = calls.filter((c) => c.url.pathname.endsWith('/Test')).at(-1)?.body;
      return last instanceof FormData && last.get('emailForEmployer') === 'true';
    }, 'a check with the option');
    await waitFor(() => !button(root, 'Upload')?.disabled, 'the check done');
    button(root, 'Upload')?.click();
    await waitFor(() => calls.some((c) => c.url.pathname.endsWith('/Upload')), 'the upload');
    const upload = calls.find((c) => c.url.pathname.endsWith('/Upload'))?.body;
    assert(upload instanceof FormData, 'multipart');
    assertEqual(upload.get('no_company'), 'true', 'no_company');
    assertEqual(upload.get('opt_in'), 'false', 'opt_in');
  });

  it("a refused upload toasts 'Upload failed' with the server's message and keeps the mapper open", async () => {
    mockApi((call) => {
      if (call.url.pathname.endsWith('/Test')) return json(200, importTest());
      if (call.url.pathname.endsWith('/Upload'))
        return json(400, { message: 'Upload is limited to 4000 rows' });
      return json(200, listResponse(1));
    });
    const { root, toasts } = await donationsPage();
    await waitFor(() => byText(root, 'Donor 1'), 'the rows');
    await openMapper(root);
    button(root, 'Upload')?.click();
    await waitFor(() => byText(toasts, 'Upload failed'), 'the failure toast');
    assert(byText(toasts, 'Upload is limited to 4000 rows'), "the server's message");
    assert(root.querySelector('dialog[open] .mapper'), 'still open');
  });

  it('a file the server cannot read keeps the upload dialog open with the reason', async () => {
    mockApi((call) =>
      call.url.pathname.endsWith('/Test')
        ? json(400, { message: 'Unsupported file type: use .csv, .xlsx or .xls' })
        : json(200, listResponse(1)),
    );
    const { root } = await donationsPage();
    await waitFor(() => byText(root, 'Donor 1'), 'the rows');
    button(root, 'Upload')?.click();
    const file = await waitFor(
      () => root.querySelector<HTMLInputElement>('dialog[open] input[type="file"]'),
      'dialog',
    );
    const transfer = new DataTransfer();
    transfer.items.add(new File(['x'], 'notes.txt'));
    file.files = transfer.files;
    file.dispatchEvent(new Event('change', { bubbles: true }));
    button(root, 'Continue')?.click();
    await waitFor(() => byText(root, 'Unsupported file type: use .csv, .xlsx or .xls'), 'the reason');
    assertEqual(file.getAttribute('aria-invalid'), 'true', 'the field marked');
    assert(!root.querySelector('dialog[open] .mapper'), 'no mapper');
  });
});
