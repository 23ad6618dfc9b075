import * as z from 'zod/mini';
import {
  anyDateFrom,
  anyDateTo,
  copyName,
  defaultReportSort,
  type FilterableColumn,
  filterableColumns,
  type Report,
  type ReportColumn,
  type ReportScope,
  ReportWrite,
  reportColumnIds,
  reportColumns,
} from '../../contract/reports.ts';

/** What the create/edit form holds: every column with its checkbox and display name, in order. */
export interface ReportDraft {
  id: number;
  name: string;
  scope: ReportScope;
  columns: Array<{ id: ReportColumn; name: string; selected: boolean }>;
  filters: Record<FilterableColumn, string>;
  include_inert: boolean;
  /** '' (any), 'paid' or 'unpaid'. */
  paid: string;
  date_from: string;
  date_to: string;
  sort_field: ReportColumn;
  ascending: boolean;
}

const noFilters = () =>
  Object.fromEntries(filterableColumns.map((c) => [c, ''])) as Record<FilterableColumn, string>;

/** A new report: no columns chosen, the 'Any' dates, sorted by donations.id ascending. */
export function newDraft(): ReportDraft {
  return {
    id: 0,
    name: '',
    scope: 'personal',
    columns: reportColumnIds.map((id) => ({ id, name: reportColumns[id], selected: false })),
    filters: noFilters(),
    include_inert: false,
    paid: '',
    date_from: anyDateFrom,
    date_to: anyDateTo,
    sort_field: defaultReportSort.field,
    ascending: defaultReportSort.ascending,
  };
}

/** The form for a saved report: its columns first in its order, then the others unchecked. */
export function draftOf(report: Report): ReportDraft {
  const chosen = Object.entries(report.columns).filter(([id]) => id in reportColumns) as Array<
    [ReportColumn, string]
  >;
  const rest = reportColumnIds.filter((id) => !(id in report.columns));
  const f = report.filters;
  const textOf = (v: unknown) => (typeof v === 'string' ? v : '');
  return {
    id: report.id,
    name: report.name,
    scope: report.scope,
    columns: [
      ...chosen.map(([id, name]) => ({ id, name, selected: true })),
      ...rest.map((id) => ({ id, name: reportColumns[id], selected: false })),
    ],
    filters: Object.fromEntries(filterableColumns.map((c) => [c, textOf(f[c])])) as Record<
      FilterableColumn,
      string
    >,
    include_inert: f.include_inert === true,
    paid: f.paid === 'paid' || f.paid === 'unpaid' ? f.paid : '',
    date_from: textOf(f.date_from) || anyDateFrom,
    date_to: textOf(f.date_to) || anyDateTo,
    sort_field: (reportColumnIds as string[]).includes(report.sort_field)
      ? (report.sort_field as ReportColumn)
      : defaultReportSort.field,
    ascending: report.ascending,
  };
}

/** spec: "a copy gets the name suffix '(Copy)'": the same report, new, named '… (Copy)'. */
export function copyBody(report: Report): ReportWrite {
  const body = toBody(draftOf(report));
  return { ...body, id: 0, name: copyName(report.name), scope: report.scope };
}

/** The body to send. */
export function toBody(draft: ReportDraft): ReportWrite {
  const filters: Record<string, unknown> = { include_inert: draft.include_inert };
  if (draft.paid === 'paid' || draft.paid === 'unpaid') filters.paid = draft.paid;
  for (const [column, value] of Object.entries(draft.filters))
    if (value.trim()) filters[column] = value.trim();
  if (draft.date_from) filters.date_from = draft.date_from;
  if (draft.date_to) filters.date_to = draft.date_to;
  return {
    id: draft.id,
    name: draft.name,
    scope: draft.scope,
    columns: Object.fromEntries(draft.columns.filter((c) => c.selected).map((c) => [c.id, c.name])),
    filters: filters as ReportWrite['filters'],
    sort_field: draft.sort_field,
    ascending: draft.ascending,
  };
}

/** The form's problems by field (the contract's own messages), or null when it can be saved. */
export function draftProblems(draft: ReportDraft): Record<string, string> | null {
  const result = z.safeParse(ReportWrite, toBody(draft));
  if (result.success) return null;
  const problems: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.map(String).join('.');
    problems[key] ??= issue.message;
  }
  return problems;
}

/**
 * Checks or unchecks a column where it stands. Ticking never moves a column (issue 30: a ticked
 * column jumped up the list, so the next click landed on another one); the file's order is the
 * list's order, changed only by `moveColumn`.
 */
export function toggleColumn(
  columns: ReportDraft['columns'],
  id: ReportColumn,
  selected: boolean,
): ReportDraft['columns'] {
  return columns.map((c) => (c.id === id ? { ...c, selected } : c));
}

/** The columns with the one at `index` moved one place up (-1) or down (1); unchanged at an end. */
export function moveColumn(
  columns: ReportDraft['columns'],
  index: number,
  by: -1 | 1,
): ReportDraft['columns'] {
  const to = index + by;
  if (index < 0 || index >= columns.length || to < 0 || to >= columns.length) return columns;
  const moved = [...columns];
  const [column] = moved.splice(index, 1);
  if (column) moved.splice(to, 0, column);
  return moved;
}
