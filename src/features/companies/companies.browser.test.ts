import '../donations/donations-test-session.ts';
// The signed-in session (a writer, not a super user) is stored before the bundle loads.
import '../../../dist/elements/twofold-companies.js';
import { setViewport } from '@web/test-runner-commands';
import {
  assert,
  assertEqual,
  axeViolations,
  button,
  control,
  deepElements,
  mount,
  setValue,
  waitFor,
} from '../../../elements/browser-test-support.ts';
import type { CompanyDetail } from '../../contract/company-admin.ts';
import { json, mockApi } from '../donations/donations-test-support.ts';

const company = (id: number, name: string): CompanyDetail => ({
  id,
  name,
  match_method: 'form',
  guide: 'Ask HR for the form.',
  url: 'https://example.com/giving',
  verify: 'email',
  program: 'matching',
  minimum_match_cents: 2500,
  maximum_match_cents: 100_000,
  match_ratio: 2,
  deadline_rule: 'year-end',
  deadline_days: null,
  csr_vendor: null,
  forms_email: null,
  forms_address: null,
  categories: [1, 44],
});

const all = Array.from({ length: 30 }, (_, i) => company(i + 1, `Company ${String(i + 1).padStart(2, '0')}`));
// Issue 30: an e-sign company and a CSR-portal one, whose codes the dialog showed as is.
all[2] = {
  ...company(3, 'Company 03'),
  match_method: 'esign',
  verify: 'both',
  deadline_rule: 'days-after-gift',
};
all[3] = { ...company(4, 'Company 04'), match_method: 'csr', verify: 'phone', csr_vendor: 'Benevity' };

function server() {
  return mockApi((call) => {
    if (call.path === '/api/companies') {
      const q = (call.search.get('q') ?? '').toLowerCase();
      const page = Number(call.search.get('page') ?? '1');
      const found = all.filter((c) => c.name.toLowerCase().includes(q));
      return json(200, {
        companies: found.slice((page - 1) * 25, page * 25),
        total: found.length,
        page,
        per_page: 25,
      });
    }
    const one = /^\/api\/companies\/(\d+)$/.exec(call.path);
    if (one && call.method === 'GET')
      return json(200, {
        company: all[Number(one[1]) - 1],
        history: [
          {
            id: 1,
            created_at: '2026-01-05T10:00:00.000Z',
            user: { id: 9, name: 'Sasha Patel', email: 'super@twofold.test' },
            changes: [
              { field: 'match_ratio', from: 1, to: 2 },
              ...(Number(one[1]) === 4
                ? [
                    { field: 'match_method', from: 'esign', to: 'csr' },
                    { field: 'verify', from: 'both', to: 'phone' },
                  ]
                : []),
            ],
            suggestion_id: null,
          },
        ],
      });
    return json(404, { message: 'Not found' });
  });
}

const text = (r: ShadowRoot) => r.textContent ?? '';

describe('<twofold-companies> for staff who are not super users', () => {
  it('pages and searches the catalogue, and shows a company read-only with its history, axe-clean', async () => {
    const calls = server();
    const el = await mount('twofold-companies');
    const root = el.shadowRoot as ShadowRoot;
    await waitFor(
      () => text(root).includes('30 Found') && text(root).includes('Company 01'),
      'the first page',
    );
    assert(!text(root).includes('Suggested corrections'), 'no review queue for staff');
    assert(text(root).includes('Page 1 of 2'), 'two pages');
    button(root, 'Next')?.click();
    await waitFor(
      () => text(root).includes('Company 26') && text(root).includes('Page 2 of 2'),
      'the second page',
    );
    setValue(control(root, 'Search companies'), '07');
    await waitFor(() => text(root).includes('1 Found'), 'the search');
    assertEqual(
      calls
        .filter((c) => c.path === '/api/companies')
        .at(-1)
        ?.search.get('page'),
      '1',
      'a search starts on page 1',
    );
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe violations on the list');

    button(root, 'Company 07')?.click();
    await waitFor(() => text(root).includes('Sasha Patel'), 'the dialog and its history');
    const ratio = control(root, 'Ratio');
    assertEqual(ratio.value, '2', 'the ratio');
    assert(ratio.readOnly, 'the ratio is read-only');
    assert(control<HTMLSelectElement>(root, 'Method').disabled, 'the method cannot change');
    assert(!button(root, 'Save'), 'no Save for staff');
    assert(text(root).includes('Ratio: 1:1 → 2:1'), 'the history names the field, before and after');
    const checked = deepElements(root).filter(
      (e): e is HTMLInputElement => e instanceof HTMLInputElement && e.type === 'checkbox' && e.checked,
    );
    assertEqual(checked.length, 2, 'the two categories of the 42');
    assertEqual((await axeViolations(el)).join('\n'), '', 'axe violations in the dialog');
  });

  it('names the method and the verification in words, not codes, in the dialog and its history, twice', async () => {
    server();
    const el = await mount('twofold-companies');
    const root = el.shadowRoot as ShadowRoot;
    await waitFor(() => text(root).includes('Company 03'), 'the list');
    const dialogText = () => root.querySelector('dialog')?.textContent ?? '';
    const chosen = (label: string) => {
      const select = control<HTMLSelectElement>(root, label);
      return select.selectedOptions[0]?.textContent ?? '';
    };
    for (const round of [1, 2]) {
      button(root, 'Company 03')?.click();
      await waitFor(() => dialogText().includes('Sasha Patel'), `company 3, round ${round}`);
      assertEqual(chosen('Method'), 'Electronic signature', 'the e-sign method');
      assertEqual(chosen('Verify'), 'By email and phone', 'both ways of verifying');
      const methods = [...control<HTMLSelectElement>(root, 'Method').options].map((o) => o.textContent);
      for (const code of ['form', 'mail', 'esign', 'paper', 'contact', 'csr'])
        assert(!methods.includes(code), `no '${code}' among the method options`);
      assert(methods.includes("The company's giving portal"), 'the CSR method in words');
      button(root, 'Close')?.click();
      await waitFor(() => !root.querySelector('dialog'), 'closed');

      button(root, 'Company 04')?.click();
      await waitFor(() => dialogText().includes('Sasha Patel'), `company 4, round ${round}`);
      assertEqual(chosen('Method'), "The company's giving portal", 'the CSR method');
      assertEqual(chosen('Verify'), 'By phone', 'by phone');
      assert(
        dialogText().includes("Method: Electronic signature → The company's giving portal"),
        'the history in words',
      );
      assert(dialogText().includes('Verify: By email and phone → By phone'), 'the verify change in words');
      assert(!/\b(esign|csr)\b/.test(dialogText()), 'no raw code anywhere in the dialog');
      assertEqual((await axeViolations(el)).join('\n'), '', 'axe violations in the dialog');
      button(root, 'Close')?.click();
      await waitFor(() => !root.querySelector('dialog'), 'closed');
    }
    el.remove();
  });

  it('at 390 px each company is a card: its Ratio and Min/Max on screen, not scrolled away', async () => {
    await setViewport({ width: 390, height: 844 });
    try {
      server();
      const el = await mount('twofold-companies');
      const root = el.shadowRoot as ShadowRoot;
      await waitFor(() => button(root, 'Company 01'), 'the list');
      for (const label of ['Company', 'Ratio', 'Min/Max']) {
        const cell = root.querySelector(`tbody td[data-label="${label}"]`);
        assert(cell, `a ${label} cell`);
        const box = cell.getBoundingClientRect();
        assert(box.left >= 0 && box.right <= 390, `${label} within 390 px (${box.left}–${box.right})`);
      }
      const page = document.scrollingElement as HTMLElement;
      assert(page.scrollWidth <= 390, `no sideways scroll (${page.scrollWidth} px)`);
      assertEqual((await axeViolations(el)).join('\n'), '', 'axe on the cards');
      el.remove();
    } finally {
      await setViewport({ width: 800, height: 600 });
    }
  });
});
