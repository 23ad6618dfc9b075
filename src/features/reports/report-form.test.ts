import { describe, expect, it } from 'vitest';
import type { Report } from '../../contract/reports.ts';
import { copyBody, draftOf, draftProblems, newDraft, toBody, toggleColumn } from './report-form.ts';

const saved: Report = {
  id: 7,
  name: 'Big gifts',
  scope: 'organization',
  columns: { 'users.name': 'Donor', 'donations.amount': 'Gift' },
  filters: {
    'donations.amount': '>200',
    include_inert: true,
    date_from: '2000-01-01',
    date_to: '2200-01-01',
  },
  sort_field: 'donations.amount',
  ascending: false,
  organization_id: 1,
  user_id: 2,
  author: 'Wren',
  downloads: 3,
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-01T00:00:00Z',
};

describe('the report form', () => {
  it("starts empty with the 'Any' dates and donations.id ascending, and says what is missing", () => {
    const draft = newDraft();
    expect([draft.date_from, draft.date_to, draft.sort_field, draft.ascending]).toEqual([
      '2000-01-01',
      '2200-01-01',
      'donations.id',
      true,
    ]);
    expect(draftProblems(draft)).toEqual({
      name: 'Report name is required',
      columns: 'You must select at least one column',
    });
  });

  it('refuses an amount filter it cannot read', () => {
    const draft = {
      ...newDraft(),
      name: 'x',
      filters: { ...newDraft().filters, 'donations.amount': 'lots' },
    };
    draft.columns = draft.columns.map((c, i) => ({ ...c, selected: i === 0 }));
    expect(draftProblems(draft)?.['filters.donations.amount']).toBe(
      'Amount filter must look like >200, <50, 100-500 or 250',
    );
  });

  it("round-trips a saved report, keeping its columns' order and names", () => {
    const body = toBody(draftOf(saved));
    expect(Object.entries(body.columns)).toEqual([
      ['users.name', 'Donor'],
      ['donations.amount', 'Gift'],
    ]);
    expect(body.filters).toEqual({
      'donations.amount': '>200',
      include_inert: true,
      date_from: '2000-01-01',
      date_to: '2200-01-01',
    });
    expect([body.id, body.sort_field, body.ascending]).toEqual([7, 'donations.amount', false]);
  });

  it('keeps the payment filter (received or not)', () => {
    const draft = draftOf({ ...saved, filters: { ...saved.filters, paid: 'paid' } });
    expect(draft.paid).toBe('paid');
    expect(toBody(draft).filters?.paid).toBe('paid');
    expect(toBody({ ...draft, paid: '' }).filters?.paid).toBeUndefined();
  });

  it("copies as a new report named with the '(Copy)' suffix", () => {
    const copy = copyBody(saved);
    expect([copy.id, copy.name]).toEqual([0, 'Big gifts (Copy)']);
    expect(copy.columns).toEqual(saved.columns);
  });
});

describe('choosing columns', () => {
  it('puts each newly checked column after the ones already chosen, in the order picked', () => {
    let columns = newDraft().columns;
    for (const id of ['users.name', 'companies.name', 'statuses.name', 'donations.amount'] as const)
      columns = toggleColumn(columns, id, true);
    expect(columns.filter((c) => c.selected).map((c) => c.id)).toEqual([
      'users.name',
      'companies.name',
      'statuses.name',
      'donations.amount',
    ]);
    columns = toggleColumn(columns, 'companies.name', false);
    expect(columns.filter((c) => c.selected).map((c) => c.id)).toEqual([
      'users.name',
      'statuses.name',
      'donations.amount',
    ]);
    // The spec's twelve, and the paid amount and date.
    expect(columns).toHaveLength(14);
  });
});
