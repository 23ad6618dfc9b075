import { describe, expect, it } from 'vitest';
import {
  defaultFilters,
  defaultSort,
  emptyFilters,
  filterProblems,
  formatAmount,
  formatDonated,
  linkedFilters,
  listQuery,
  nextSort,
  pageCount,
  statusTiles,
} from './donations-query.ts';

describe('the donations list query', () => {
  it('sends the default sort (donated_at descending), the page and 50 per page, and no blank filters', () => {
    expect(listQuery(emptyFilters, null, defaultSort, 1)).toEqual({
      sort_field: 'donated_at',
      ascending: 'false',
      page: '1',
      per_page: '50',
    });
  });

  it('opens on the last 90 days (spec: Listing options), as YYYY-MM-DD of the local calendar', () => {
    const filters = defaultFilters(new Date(2026, 10, 24, 23, 30));
    expect(filters).toEqual({ ...emptyFilters, dateFrom: '2026-08-26', dateTo: '2026-11-24' });
    expect(listQuery(filters, null, defaultSort, 1)).toMatchObject({
      'filters[dateFrom]': '2026-08-26',
      'filters[dateTo]': '2026-11-24',
      per_page: '50',
    });
  });

  it('sends every filter trimmed, and the tile as status_group', () => {
    const query = listQuery(
      {
        dateFrom: '2025-01-01',
        dateTo: '2025-02-01',
        company: ' Acme ',
        donor: ' ann@x.org',
        minAmount: '100.5',
        organization: '',
        expectedMonth: '',
        companyName: '',
        campaign: '4',
        paid: 'paid',
      },
      'npo_verify',
      { field: 'amount', ascending: true },
      3,
    );
    expect(query).toMatchObject({
      page: '3',
      sort_field: 'amount',
      ascending: 'true',
      'filters[dateFrom]': '2025-01-01',
      'filters[dateTo]': '2025-02-01',
      'filters[company]': 'Acme',
      'filters[donor]': 'ann@x.org',
      'filters[minAmount]': '100.5',
      'filters[campaign]': '4',
      'filters[paid]': 'paid',
      'filters[status_group]': 'npo_verify',
    });
  });

  it('the export query has the filters and sort but no page', () => {
    const query = listQuery({ ...emptyFilters, donor: 'ann' }, 'no_response', defaultSort);
    expect(query.page).toBeUndefined();
    expect(query.per_page).toBeUndefined();
    expect(query['filters[donor]']).toBe('ann');
    expect(query['filters[status_group]']).toBe('no_response');
  });

  it('leaves out a minimum amount that is not dollars and a date range that ends before it starts, naming the problem', () => {
    const filters = { ...emptyFilters, minAmount: '12,00', dateFrom: '2025-03-01', dateTo: '2025-02-01' };
    expect(filterProblems(filters)).toEqual({
      minAmount: 'Enter an amount in dollars, such as 100 or 250.50',
      dateTo: 'The end date must be on or after the start date',
    });
    const query = listQuery(filters, null, defaultSort, 1);
    expect(query['filters[minAmount]']).toBeUndefined();
    expect(query['filters[dateFrom]']).toBeUndefined();
    expect(query['filters[dateTo]']).toBeUndefined();
  });
});

describe('the donations list display', () => {
  it("shows the gift's UTC day as 'MMM dd, yyyy' whatever the local zone", () => {
    expect(formatDonated('2025-03-01T00:00:00.000Z')).toBe('Mar 01, 2025');
    expect(formatDonated('2024-12-31T23:30:00.000Z')).toBe('Dec 31, 2024');
  });

  it('shows amounts as dollars with thousands separators', () => {
    expect(formatAmount(1234567.5)).toBe('$1,234,567.50');
    expect(formatAmount(0)).toBe('$0.00');
  });

  it('has one tile per status group with the spec constants and the dashboard names', () => {
    expect(statusTiles.map((t) => `${t.constant}:${t.label}`)).toEqual([
      'DONOR_CONTACTED:Awaiting Submission',
      'NPO_TO_VERIFY:NPO to Verify',
      'SUBMITTED_ENGAGED:Submitted',
      'NO_RESPONSE:No Response',
    ]);
  });

  it('sorting the same column flips it; a new date or amount column starts descending, text ascending', () => {
    expect(nextSort(defaultSort, 'donated_at')).toEqual({ field: 'donated_at', ascending: true });
    expect(nextSort(defaultSort, 'amount')).toEqual({ field: 'amount', ascending: false });
    expect(nextSort(defaultSort, 'donor_name')).toEqual({ field: 'donor_name', ascending: true });
  });

  it('counts pages of 50, at least one', () => {
    expect(pageCount(0)).toBe(1);
    expect(pageCount(50)).toBe(1);
    expect(pageCount(51)).toBe(2);
  });
});

describe('a link into the donations list', () => {
  it('opens with the status group and the dates it names, and ignores an unknown group', () => {
    expect(linkedFilters('?status_group=npo_verify&dateFrom=2025-01-01&dateTo=2025-03-31&other=1')).toEqual({
      filters: {
        dateFrom: '2025-01-01',
        dateTo: '2025-03-31',
        company: '',
        donor: '',
        minAmount: '',
        organization: '',
        expectedMonth: '',
        companyName: '',
        campaign: '',
        paid: '',
      },
      group: 'npo_verify',
    });
    // The dashboard's received figures open the paid matches.
    expect(linkedFilters('?paid=paid').filters.paid).toBe('paid');
    expect(linkedFilters('?paid=everything').filters.paid).toBe('');
    expect(linkedFilters('?status_group=everything&company=Acme').group).toBeNull();
    expect(linkedFilters('?company=Acme').filters.company).toBe('Acme');
    // A campaign link names its id; anything else is ignored.
    expect(linkedFilters('?campaign=12').filters.campaign).toBe('12');
    expect(linkedFilters('?campaign=abc').filters.campaign).toBe('');
  });

  it('carries a chapter and an expected-payment month into the list call, and drops malformed ones', () => {
    const { filters } = linkedFilters('?organization=12&expectedMonth=2026-03');
    expect(filters.organization).toBe('12');
    expect(filters.expectedMonth).toBe('2026-03');
    const query = listQuery(filters, null, defaultSort);
    expect(query['filters[organization]']).toBe('12');
    expect(query['filters[expectedMonth]']).toBe('2026-03');
    const bad = linkedFilters('?organization=0x1&expectedMonth=2026-13').filters;
    expect(bad.organization).toBe('');
    expect(bad.expectedMonth).toBe('');
    expect(listQuery(bad, null, defaultSort)['filters[organization]']).toBeUndefined();
  });

  it("carries a top company's exact name into the list call as it is, not as 'company contains'", () => {
    const { filters } = linkedFilters(`?companyName=${encodeURIComponent('Acme & Sons "West"')}`);
    expect(filters.companyName).toBe('Acme & Sons "West"');
    expect(filters.company).toBe('');
    const query = listQuery(filters, null, defaultSort);
    expect(query['filters[companyName]']).toBe('Acme & Sons "West"');
    expect(query['filters[company]']).toBeUndefined();
    expect(linkedFilters(`?companyName=${'x'.repeat(600)}`).filters.companyName).toHaveLength(500);
    expect(listQuery(linkedFilters('').filters, null, defaultSort)['filters[companyName]']).toBeUndefined();
  });
});
