import { describe, expect, it } from 'vitest';
import type { Report } from '../../contract/reports.ts';
import {
  copyBody,
  draftOf,
  draftProblems,
  moveColumn,
  newDraft,
  toBody,
  toggleColumn,
} from './report-form.ts';

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
  it('checks and unchecks a column where it stands: the list never reorders itself', () => {
    const start = newDraft().columns;
    let columns = start;
    for (const id of ['users.name', 'companies.name', 'statuses.name', 'donations.amount'] as const)
      columns = toggleColumn(columns, id, true);
    // The same order as before any tick: a second click lands on the column the user aimed at.
    expect(columns.map((c) => c.id)).toEqual(start.map((c) => c.id));
    expect(columns.filter((c) => c.selected).map((c) => c.id)).toEqual([
      'donations.amount',
      'users.name',
      'statuses.name',
      'companies.name',
    ]);
    columns = toggleColumn(columns, 'companies.name', false);
    expect(columns.map((c) => c.id)).toEqual(start.map((c) => c.id));
    expect(columns.filter((c) => c.selected).map((c) => c.id)).toEqual([
      'donations.amount',
      'users.name',
      'statuses.name',
    ]);
    // The spec's twelve, the paid amount and date, and how the employer was found (issue #31).
    expect(columns).toHaveLength(15);
  });

  it('moves a column one place only when asked, and not past either end', () => {
    const start = newDraft().columns;
    const ids = (columns: typeof start) => columns.map((c) => c.id).slice(0, 5);
    const down = moveColumn(start, 0, 1);
    expect(ids(down)).toEqual([
      'donations.donated_at',
      'donations.id',
      'donations.transaction_id',
      'donations.amount',
      'users.name',
    ]);
    expect(ids(moveColumn(down, 1, -1))).toEqual(ids(start));
    expect(moveColumn(start, 0, -1)).toBe(start);
    expect(moveColumn(start, start.length - 1, 1)).toBe(start);
  });
});
