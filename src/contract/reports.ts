import * as z from 'zod/mini';
import { noNul } from './donations.ts';

/**
 * Custom reports (spec part 2, sections 2, 3, 5, 6, 7, 8 and 9). A report is a saved download:
 * which columns (in order, each with a display name), which filters, which order.
 */

/** spec section 3: "Available columns", with the display name a new report gives each. */
export const reportColumns = {
  'donations.id': 'ID',
  'donations.donated_at': 'Donated',
  'donations.transaction_id': 'Transaction ID',
  'donations.amount': 'Amount',
  'users.name': 'Donor Name',
  'users.email': 'Donor Email',
  'statuses.name': 'Status',
  'organizations.ein': 'Organization EIN',
  'organizations.name': 'Organization',
  'companies.name': 'Company',
  'addresses.city': 'City',
  'addresses.state': 'State',
  // Beyond the spec's list: what the company paid and when (payout reports, /portal/payouts).
  'donations.paid_amount': 'Paid Amount',
  'donations.paid_at': 'Paid Date',
  // Issue #31: how the company was found (domain, name, alias, history, person; empty: unknown).
  'donations.employer_method': 'Employer Found By',
} as const;
export type ReportColumn = keyof typeof reportColumns;
export const reportColumnIds = Object.keys(reportColumns) as [ReportColumn, ...ReportColumn[]];

/** spec: "Filterable: amount, donor name, donor email, organization EIN, company, city, state." */
export const filterableColumns = [
  'donations.amount',
  'users.name',
  'users.email',
  'organizations.ein',
  'companies.name',
  'addresses.city',
  'addresses.state',
  'donations.employer_method',
] as const satisfies readonly ReportColumn[];
export type FilterableColumn = (typeof filterableColumns)[number];

export const reportScopes = ['personal', 'organization', 'full_org'] as const;
export type ReportScope = (typeof reportScopes)[number];
/**
 * spec section 6: "Report scope: personal, organization, or organization and chapters (full_org)".
 * Our reading: personal is seen by its author only and covers the organization's own matches;
 * organization is shared with everyone on the organization and covers its own matches;
 * full_org is shared and covers the organization's matches and its chapters'.
 */
export const reportScopeLabels: Record<ReportScope, string> = {
  personal: 'Personal (only me)',
  organization: 'Organization (shared)',
  full_org: 'Organization and chapters (shared)',
};

/** spec section 9: "default dates 2000-01-01 to 2200-01-01 mean 'Any'". */
export const anyDateFrom = '2000-01-01';
export const anyDateTo = '2200-01-01';
/** spec section 9: "default sort_field donations.id ascending". */
export const defaultReportSort = { field: 'donations.id', ascending: true } as const;
/** spec section 9: "a copy gets the name suffix '(Copy)'". */
export const copySuffix = ' (Copy)';

/** spec sections 5 and 8, word for word. */
export const reportTexts = {
  nameRequired: 'Report name is required',
  columnRequired: 'You must select at least one column',
  amountPlaceholder: '>200',
  noOrganization: 'You must select an organization to use this section.',
  loadFailed: 'Failed to load reports',
  saveFailed: 'Failed to save report',
  deleteFailed: 'Failed to delete report',
  downloadFailed: 'Failed to download report',
  confirmDelete: 'Are you sure you want to delete this report?',
  saved: 'Report saved successfully',
  deleted: 'Report deleted successfully',
  downloadStarted: 'Report download started',
  notFound: 'Report not found',
  amountInvalid: 'Amount filter must look like >200, <50, 100-500 or 250',
  dateOrder: 'The start date must be on or before the end date',
} as const;

/** An amount filter, parsed: dollars bounds, each inclusive except the strict > and <. */
export type AmountFilter =
  | { kind: 'gt'; value: number }
  | { kind: 'lt'; value: number }
  | { kind: 'between'; min: number; max: number }
  | { kind: 'eq'; value: number };

const money = String.raw`\$?\s*(\d{1,9}(?:\.\d{1,2})?)`;
const amountForms: Array<[RegExp, (a: number, b: number) => AmountFilter]> = [
  [new RegExp(`^>\\s*${money}$`), (a) => ({ kind: 'gt', value: a })],
  [new RegExp(`^<\\s*${money}$`), (a) => ({ kind: 'lt', value: a })],
  [new RegExp(`^${money}\\s*-\\s*${money}$`), (a, b) => ({ kind: 'between', min: a, max: b })],
  [new RegExp(`^${money}$`), (a) => ({ kind: 'eq', value: a })],
];

/**
 * spec: "Amount filter placeholder example '>200'". Accepted forms: `>200` (more than), `<50`
 * (less than), `100-500` (from 100 to 500, both included) and `250` (exactly); a `$` and spaces
 * are allowed. Null for anything else (and for a range whose ends are reversed).
 */
export function parseAmountFilter(text: string): AmountFilter | null {
  const trimmed = text.trim().replaceAll(',', '');
  for (const [pattern, make] of amountForms) {
    const match = pattern.exec(trimmed);
    if (!match) continue;
    const filter = make(Number(match[1]), Number(match[2]));
    if (filter.kind === 'between' && filter.min > filter.max) return null;
    return filter;
  }
  return null;
}

const day = z.string().check(
  z.regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates must be YYYY-MM-DD'),
  z.refine((s) => new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), 'Dates must be real days'),
);
const text = z.string().check(z.maxLength(200), noNul);

const filterShape = Object.fromEntries(filterableColumns.map((c) => [c, z.optional(text)])) as Record<
  FilterableColumn,
  z.ZodMiniOptional<typeof text>
>;

/** spec: "filters (per-column filter, include_inert, date_from, date_to)". */
export const ReportFilters = z
  .object({
    ...filterShape,
    include_inert: z.optional(z.boolean()),
    /** Beyond the spec: only matches whose payment was received (paid) or not yet (unpaid). */
    paid: z.optional(z.enum(['paid', 'unpaid'], 'paid must be paid or unpaid')),
    date_from: z.optional(day),
    date_to: z.optional(day),
  })
  .check(
    z.refine(
      (f) =>
        f['donations.amount'] === undefined ||
        f['donations.amount'].trim() === '' ||
        parseAmountFilter(f['donations.amount']) !== null,
      { message: reportTexts.amountInvalid, path: ['donations.amount'] },
    ),
    z.refine((f) => !f.date_from || !f.date_to || f.date_from <= f.date_to, {
      message: reportTexts.dateOrder,
      path: ['date_to'],
    }),
  );
export type ReportFilters = z.infer<typeof ReportFilters>;

const displayName = z
  .string()
  .check(z.trim(), z.minLength(1, 'Column names cannot be empty'), z.maxLength(100), noNul);

/** The body of POST /api/organization/{id}/reports (spec: "body as the report entity"). */
export const ReportWrite = z.object({
  /** Absent or 0 creates a report; another id updates that report. */
  id: z.optional(z.number().check(z.int(), z.gte(0), z.lte(2_147_483_647))),
  name: z.string().check(z.trim(), z.minLength(1, reportTexts.nameRequired), z.maxLength(200), noNul),
  scope: z.enum(reportScopes, `scope must be one of ${reportScopes.join(', ')}`),
  columns: z
    .partialRecord(z.enum(reportColumnIds, 'Unknown column'), displayName)
    .check(z.refine((c) => Object.keys(c).length > 0, reportTexts.columnRequired)),
  filters: z.optional(ReportFilters),
  sort_field: z.optional(z.enum(reportColumnIds, 'sort_field must be one of the available columns')),
  ascending: z.optional(z.boolean()),
});
export type ReportWrite = z.infer<typeof ReportWrite>;

export const Report = z.object({
  id: z.number(),
  name: z.string(),
  scope: z.enum(reportScopes),
  /** Column id to display name, in the report's order. */
  columns: z.record(z.string(), z.string()),
  filters: z.record(z.string(), z.unknown()),
  sort_field: z.string(),
  ascending: z.boolean(),
  organization_id: z.number(),
  user_id: z.nullable(z.number()),
  /** Who made it, for the shared cards. */
  author: z.nullable(z.string()),
  downloads: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Report = z.infer<typeof Report>;

/** spec: "GET /api/organization/{id}/reports. Response: reports, sharedReports." */
export const ReportsResponse = z.object({ reports: z.array(Report), sharedReports: z.array(Report) });
export type ReportsResponse = z.infer<typeof ReportsResponse>;
export const ReportResponse = z.object({ report: Report });

export const reportFormats = ['csv', 'xlsx'] as const;
export type ReportFormat = (typeof reportFormats)[number];

export const reportsPath = (orgId: number) => `/api/organization/${orgId}/reports`;
export const reportPath = (reportId: number) => `/api/reports/${reportId}`;

/** A date shown on a card: the 'Any' defaults as 'Any'. */
export function reportDateLabel(day: string | undefined, which: 'from' | 'to'): string {
  if (!day || day === (which === 'from' ? anyDateFrom : anyDateTo)) return 'Any';
  return day;
}

/** The copy's name: spec "a copy gets the name suffix '(Copy)'" (kept within the name's 200 characters). */
export function copyName(name: string): string {
  return `${name.slice(0, 200 - copySuffix.length)}${copySuffix}`;
}
