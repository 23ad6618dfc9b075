import * as XLSX from '@e965/xlsx';
import {
  and,
  asc,
  desc,
  eq,
  gt,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  ne,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import * as z from 'zod/mini';
import {
  defaultReportSort,
  type FilterableColumn,
  parseAmountFilter,
  type Report,
  type ReportColumn,
  type ReportFilters,
  type ReportFormat,
  type ReportsResponse,
  type ReportWrite,
  reportColumnIds,
  reportTexts,
} from '../../../src/contract/reports.ts';
import { statusName } from '../../../src/contract/statuses.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { addresses, companies, donations, donors, organizations, reports, users } from '../../db/schema.ts';
import { attachment } from '../../http/attachment.ts';
import { HttpError } from '../../http/errors.ts';
import { type AuditBy, recordBy } from '../audit/audit.ts';
import { signToken, type VerifiedToken } from '../auth/tokens.ts';
import { batchedCsvStream, csvBatchSize, csvMessages, neutraliseCell } from '../donations/export.ts';
import { containsPattern } from '../organization/organization.service.ts';
import { descendantIds } from '../permissions/permissions.service.ts';

type ReportRow = typeof reports.$inferSelect;

/** spec section 6: personal reports are their author's alone; the other scopes are shared. */
function visibleTo(report: Pick<ReportRow, 'scope' | 'user_id'>, userId: number): boolean {
  return report.scope !== 'personal' || report.user_id === userId;
}

function toReport(row: ReportRow, author: string | null): Report {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope as Report['scope'],
    columns: Object.fromEntries(row.columns),
    filters: row.filters,
    sort_field: row.sort_field,
    ascending: row.ascending,
    organization_id: row.organization_id,
    user_id: row.user_id,
    author,
    downloads: row.downloads,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** spec: "The reports list returns the user's own reports and shared reports." */
export async function listReports(db: Queryable, orgId: number, userId: number): Promise<ReportsResponse> {
  const rows = await db
    .select({ report: reports, author: users.name })
    .from(reports)
    .leftJoin(users, eq(users.id, reports.user_id))
    .where(
      and(eq(reports.organization_id, orgId), or(eq(reports.user_id, userId), ne(reports.scope, 'personal'))),
    )
    .orderBy(desc(reports.id));
  const all = rows.map((r) => toReport(r.report, r.author));
  return {
    reports: all.filter((r) => r.user_id === userId),
    sharedReports: all.filter((r) => r.user_id !== userId),
  };
}

/** The organization a report belongs to (the guard's lookup), or 404. */
export async function reportOrganization(db: Queryable, reportId: number): Promise<number> {
  const [row] = await db
    .select({ organization_id: reports.organization_id })
    .from(reports)
    .where(eq(reports.id, reportId));
  if (!row) throw new HttpError(404, reportTexts.notFound);
  return row.organization_id;
}

/** A report of the organization the user may see; another's personal report answers as a missing one. */
async function visibleReport(
  db: Queryable,
  reportId: number,
  orgId: number,
  userId: number,
): Promise<ReportRow> {
  const [row] = await db
    .select()
    .from(reports)
    .where(and(eq(reports.id, reportId), eq(reports.organization_id, orgId)));
  if (!row || !visibleTo(row, userId)) throw new HttpError(404, reportTexts.notFound);
  return row;
}

/** The filters as stored: empty texts dropped, dates defaulting to the spec's 'Any' range. */
function cleanFilters(filters: ReportFilters | undefined): Record<string, unknown> {
  const clean: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filters ?? {})) {
    if (typeof value === 'string' && value.trim() === '') continue;
    clean[key] = typeof value === 'string' ? value.trim() : value;
  }
  return clean;
}

/**
 * spec: "POST /api/organization/{id}/reports saves a report (body as the report entity)". No id
 * (or 0) creates one owned by the caller; an id updates that report, which must be one the caller
 * can see in this organization. Only its author may make a shared report personal.
 */
export async function saveReport(
  db: Db,
  orgId: number,
  userId: number,
  body: ReportWrite,
): Promise<{ report: Report }> {
  const values = {
    name: body.name,
    scope: body.scope,
    columns: Object.entries(body.columns) as Array<[string, string]>,
    filters: cleanFilters(body.filters),
    sort_field: body.sort_field ?? defaultReportSort.field,
    ascending: body.ascending ?? defaultReportSort.ascending,
  };
  let row: ReportRow | undefined;
  if (body.id) {
    const existing = await visibleReport(db, body.id, orgId, userId);
    if (body.scope === 'personal' && existing.user_id !== userId)
      throw new HttpError(403, 'Only the author of a report can make it personal');
    [row] = await db.update(reports).set(values).where(eq(reports.id, body.id)).returning();
  } else {
    [row] = await db
      .insert(reports)
      .values({ ...values, organization_id: orgId, user_id: userId })
      .returning();
  }
  if (!row) throw new HttpError(404, reportTexts.notFound);
  const [author] =
    row.user_id === null
      ? []
      : await db.select({ name: users.name }).from(users).where(eq(users.id, row.user_id));
  return { report: toReport(row, author?.name ?? null) };
}

/** spec: "DELETE /api/reports/{id}". */
export async function removeReport(db: Db, reportId: number, orgId: number, userId: number) {
  await visibleReport(db, reportId, orgId, userId);
  await db.delete(reports).where(eq(reports.id, reportId));
  return { message: reportTexts.deleted };
}

// --- Download -------------------------------------------------------------------------------

/**
 * spec: "GET /api/donation/{orgId}/csv-token?report_id={id}. Response: url; the browser navigates
 * to it." Like the donations export, a five-minute signed link, checked again when opened.
 */
export async function reportLink(
  db: Queryable,
  secret: string,
  userId: number,
  orgId: number,
  reportId: number,
  format: ReportFormat,
): Promise<{ url: string }> {
  await visibleReport(db, reportId, orgId, userId);
  const token = await signToken(secret, 'csv-link', userId, {
    org: orgId,
    data: { report: reportId, format },
  });
  return { url: `/api/reports/${reportId}/download?token=${encodeURIComponent(token)}` };
}

/** What a verified report link stands for: this report, in a format, visible to its user. */
async function reportOfLink(
  db: Queryable,
  reportId: number,
  token: VerifiedToken | undefined,
  userId: number,
) {
  const claims = z.safeParse(ReportLinkData, token?.data ?? {});
  if (!token?.org || !claims.success || claims.data.report !== reportId)
    throw new HttpError(401, csvMessages.expired);
  const report = await visibleReport(db, reportId, token.org, userId);
  return { report, format: claims.data.format };
}

const ReportLinkData = z.object({ report: z.number(), format: z.enum(['csv', 'xlsx']) });

const money = (cents: number) => (cents / 100).toFixed(2);
const companyName = sql<string | null>`coalesce(${companies.name}, ${donations.company_name})`;

/** Each column: what it selects, how a cell shows it, and how it sorts. */
/**
 * Typed workbook cells (issue 30: every cell was text, so Excel could not sum amounts or sort
 * dates). Amounts are numbers in dollars under a currency format; dates are Excel date serials
 * (days since 1899-12-30) under a date format, which Excel shows and sorts as dates. The serial is
 * computed from the UTC day, as the CSV's day is, so the machine's time zone never shifts a date.
 */
const moneyFormat = '"$"#,##0.00';
const dateFormat = 'yyyy-mm-dd';
const excelEpochDays = 25_569; // 1970-01-01 as an Excel serial
const empty = (v: unknown) => v === null || v === undefined || v === '';
const moneyCell = (v: unknown): XLSX.CellObject =>
  empty(v) ? { t: 'z' } : { t: 'n', v: Number(v) / 100, z: moneyFormat };
const dateCell = (v: unknown): XLSX.CellObject => {
  if (empty(v)) return { t: 'z' };
  const day = v instanceof Date ? v.toISOString().slice(0, 10) : String(v).slice(0, 10);
  const [y, m, d] = day.split('-').map(Number);
  const serial = Date.UTC(y ?? 0, (m ?? 1) - 1, d ?? 1) / 86_400_000 + excelEpochDays;
  return Number.isFinite(serial) ? { t: 'n', v: serial, z: dateFormat } : { t: 's', v: text(v) };
};

const columnSql: Record<
  ReportColumn,
  {
    select: SQL | AnyPgColumn;
    sort: SQL;
    cell: (v: unknown) => string;
    /** The workbook cell, when it is not the CSV's text. */
    xlsx?: (v: unknown) => XLSX.CellObject;
  }
> = {
  'donations.id': {
    select: donations.id,
    sort: sql`${donations.id}`,
    cell: (v) => String(v),
    xlsx: (v) => ({ t: 'n', v: Number(v), z: '0' }),
  },
  'donations.donated_at': {
    select: donations.donated_at,
    sort: sql`${donations.donated_at}`,
    cell: (v) => (v instanceof Date ? v.toISOString().slice(0, 10) : String(v).slice(0, 10)),
    xlsx: dateCell,
  },
  'donations.transaction_id': {
    select: donations.transaction_id,
    sort: sql`coalesce(${donations.transaction_id}, '')`,
    cell: text,
  },
  'donations.amount': {
    select: donations.amount_cents,
    sort: sql`${donations.amount_cents}`,
    cell: (v) => money(Number(v)),
    xlsx: moneyCell,
  },
  'users.name': { select: donors.name, sort: sql`lower(coalesce(${donors.name}, ''))`, cell: text },
  'users.email': { select: donors.email, sort: sql`coalesce(${donors.email}, '')`, cell: text },
  // Statuses are a catalogue in code, not a table: they sort by their id.
  'statuses.name': {
    select: donations.status_id,
    sort: sql`${donations.status_id}`,
    cell: (v) => text(statusName(Number(v))),
  },
  'organizations.ein': {
    select: organizations.ein,
    sort: sql`coalesce(${organizations.ein}, '')`,
    cell: text,
  },
  'organizations.name': { select: organizations.name, sort: sql`lower(${organizations.name})`, cell: text },
  'companies.name': { select: companyName, sort: sql`lower(coalesce(${companyName}, ''))`, cell: text },
  'addresses.city': { select: addresses.city, sort: sql`lower(coalesce(${addresses.city}, ''))`, cell: text },
  'addresses.state': {
    select: addresses.state,
    sort: sql`lower(coalesce(${addresses.state}, ''))`,
    cell: text,
  },
  'donations.paid_amount': {
    select: donations.paid_cents,
    sort: sql`coalesce(${donations.paid_cents}, -1)`,
    cell: (v) => (v === null || v === undefined ? '' : money(Number(v))),
    xlsx: moneyCell,
  },
  'donations.paid_at': {
    select: donations.paid_at,
    sort: sql`coalesce(${donations.paid_at}, '0001-01-01'::date)`,
    cell: (v) => (v === null || v === undefined ? '' : String(v).slice(0, 10)),
    xlsx: dateCell,
  },
  'donations.employer_method': {
    select: donations.employer_method,
    sort: sql`coalesce(${donations.employer_method}, '')`,
    cell: text,
  },
};

function text(value: unknown): string {
  return neutraliseCell(value === null || value === undefined ? '' : String(value));
}

/** The text filters: a case-insensitive "contains" on the column. */
const filterSql: Record<Exclude<FilterableColumn, 'donations.amount'>, SQL> = {
  'users.name': sql`lower(${donors.name})`,
  'users.email': sql`lower(${donors.email})`,
  'organizations.ein': sql`lower(${organizations.ein})`,
  'companies.name': sql`lower(${companyName})`,
  'addresses.city': sql`lower(${addresses.city})`,
  'addresses.state': sql`lower(${addresses.state})`,
  'donations.employer_method': sql`${donations.employer_method}`,
};

function dayStart(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}

/**
 * The WHERE conditions of a report: its organizations (full_org adds the chapters), inert
 * (external) matches only with include_inert, the donation dates (inclusive days, UTC), the
 * amount form (`>200`, `<50`, `100-500`, `250`) and each text filter as "contains".
 */
export async function reportConditions(
  db: Queryable,
  report: Pick<ReportRow, 'organization_id' | 'scope' | 'filters'>,
): Promise<SQL[]> {
  const orgIds = [report.organization_id];
  if (report.scope === 'full_org') orgIds.push(...(await descendantIds(db, report.organization_id)));
  const f = report.filters as ReportFilters;
  const conditions: SQL[] = [inArray(donations.organization_id, orgIds)];
  if (!f.include_inert) conditions.push(eq(donations.inert, 0));
  if (f.paid === 'paid') conditions.push(isNotNull(donations.paid_cents));
  if (f.paid === 'unpaid') conditions.push(isNull(donations.paid_cents));
  if (f.date_from) conditions.push(gte(donations.donated_at, dayStart(f.date_from)));
  if (f.date_to)
    conditions.push(lt(donations.donated_at, new Date(dayStart(f.date_to).getTime() + 86_400_000)));
  const amount = f['donations.amount'] ? parseAmountFilter(f['donations.amount']) : null;
  const cents = (dollars: number) => Math.round(dollars * 100);
  if (amount?.kind === 'gt') conditions.push(gt(donations.amount_cents, cents(amount.value)));
  if (amount?.kind === 'lt') conditions.push(lt(donations.amount_cents, cents(amount.value)));
  if (amount?.kind === 'eq') conditions.push(eq(donations.amount_cents, cents(amount.value)));
  if (amount?.kind === 'between')
    conditions.push(sql`${donations.amount_cents} between ${cents(amount.min)} and ${cents(amount.max)}`);
  for (const [column, expression] of Object.entries(filterSql)) {
    const term = f[column as FilterableColumn];
    if (typeof term === 'string' && term.trim() !== '')
      conditions.push(sql`${expression} like ${containsPattern(term.trim().toLowerCase())}`);
  }
  return conditions;
}

type Row = Record<string, unknown> & { _id: number };

/**
 * The report's rows in batches. Sorted by id (the default), each batch continues after the last
 * id (an index walk). Sorted by another column, the ordered ids are read once (a single sort,
 * 4 bytes a row) and each batch fetches its rows by primary key, so a sort is never repeated
 * per batch however large the report.
 */
function reportBatches(
  db: Queryable,
  report: ReportRow,
): (last: Row | undefined, size: number) => Promise<Row[]> {
  const columns = report.columns
    .map(([id]) => id)
    .filter((id): id is ReportColumn => reportColumnIds.includes(id as ReportColumn));
  const selection = Object.fromEntries(columns.map((c, i) => [`c${i}`, columnSql[c].select]));
  const from = (fields: Record<string, unknown>) =>
    db
      .select(fields as Record<string, typeof donations.id>)
      .from(donations)
      .innerJoin(organizations, eq(organizations.id, donations.organization_id))
      .leftJoin(addresses, eq(addresses.id, organizations.address_id))
      .leftJoin(donors, eq(donors.id, donations.donor_id))
      .leftJoin(companies, eq(companies.id, donations.company_id));
  const order = report.ascending ? asc : desc;
  let conditions: SQL[] | undefined;
  if (report.sort_field === 'donations.id' || !(report.sort_field in columnSql)) {
    return async (last, size) => {
      conditions ??= await reportConditions(db, report);
      const after =
        last === undefined
          ? []
          : [report.ascending ? gt(donations.id, last._id) : lt(donations.id, last._id)];
      return (await from({ _id: donations.id, ...selection })
        .where(and(...conditions, ...after))
        .orderBy(order(donations.id))
        .limit(size)) as unknown as Row[];
    };
  }
  let ids: number[] | undefined;
  let position = 0;
  return async (_last, size) => {
    if (!ids) {
      conditions = await reportConditions(db, report);
      const sort = columnSql[report.sort_field as ReportColumn].sort;
      const rows = await from({ _id: donations.id })
        .where(and(...conditions))
        .orderBy(order(sort), order(donations.id));
      ids = rows.map((r) => Number(r._id));
    }
    const batch = ids.slice(position, position + size);
    position += batch.length;
    if (batch.length === 0) return [];
    const rows = (await from({ _id: donations.id, ...selection }).where(
      inArray(donations.id, batch),
    )) as unknown as Row[];
    const byId = new Map(rows.map((r) => [Number(r._id), r]));
    // A row deleted since the ids were read is left out.
    return batch.flatMap((id) => byId.get(id) ?? []);
  };
}

function recordOf(report: ReportRow): (row: Row) => string[] {
  const columns = report.columns.filter(([id]) => id in columnSql) as Array<[ReportColumn, string]>;
  return (row) => columns.map(([id], i) => columnSql[id].cell(row[`c${i}`]));
}

/** The report as a CSV stream: its columns in its order, under their display names. */
export function reportCsv(
  db: Queryable,
  report: ReportRow,
  batchSize = csvBatchSize,
): ReadableStream<Uint8Array> {
  const header = report.columns.filter(([id]) => id in columnSql).map(([, name]) => neutraliseCell(name));
  return batchedCsvStream(header, reportBatches(db, report), recordOf(report), batchSize);
}

/** An .xlsx workbook is built whole in memory, so it is limited to this many rows (CSV has no limit). */
export const maxXlsxRows = 100_000;

/** How many rows the report's filters select now. */
export async function reportRowCount(db: Queryable, report: ReportRow): Promise<number> {
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(donations)
    .innerJoin(organizations, eq(organizations.id, donations.organization_id))
    .leftJoin(addresses, eq(addresses.id, organizations.address_id))
    .leftJoin(donors, eq(donors.id, donations.donor_id))
    .leftJoin(companies, eq(companies.id, donations.company_id))
    .where(and(...(await reportConditions(db, report))));
  return Number(count?.n ?? 0);
}

/** The report as an .xlsx workbook (one sheet, the same header and cells as the CSV). */
export async function reportXlsx(
  db: Queryable,
  report: ReportRow,
  rows?: number,
): Promise<Uint8Array<ArrayBuffer>> {
  if ((rows ?? (await reportRowCount(db, report))) > maxXlsxRows)
    throw new HttpError(
      413,
      `This report has more than ${maxXlsxRows.toLocaleString('en-US')} rows; download it as CSV instead.`,
    );
  const columns = report.columns.filter(([id]) => id in columnSql) as Array<[ReportColumn, string]>;
  const header = columns.map(([, name]) => name);
  const next = reportBatches(db, report);
  const record = (row: Row): XLSX.CellObject[] =>
    columns.map(([id], i) => {
      const { cell, xlsx } = columnSql[id];
      const value = row[`c${i}`];
      return xlsx ? xlsx(value) : { t: 's', v: cell(value) };
    });
  const data: Array<Array<string | XLSX.CellObject>> = [header];
  let last: Row | undefined;
  for (;;) {
    const rows = await next(last, csvBatchSize);
    data.push(...rows.map(record));
    last = rows.at(-1);
    if (!last || rows.length < csvBatchSize) break;
  }
  const book = XLSX.utils.book_new();
  const sheet = XLSX.utils.aoa_to_sheet(data);
  // Wide enough for each header and a formatted amount or date, so nothing opens as ####.
  sheet['!cols'] = header.map((name) => ({ wch: Math.max(12, Math.min(40, name.length + 2)) }));
  XLSX.utils.book_append_sheet(book, sheet, 'Report');
  return new Uint8Array(XLSX.write(book, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer);
}

/** A file name from the report's name: letters, digits and dashes only. */
export function reportFileName(
  report: Pick<ReportRow, 'id' | 'name'>,
  format: ReportFormat,
  now = new Date(),
): string {
  // Letters and digits of every script are kept (the header carries them as filename*).
  const slug =
    report.name
      .normalize('NFC')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60) || `report-${report.id}`;
  return `${slug}-${now.toISOString().slice(0, 10)}.${format}`;
}

/**
 * The download a report link points at; each one counts in the report's `downloads` and is
 * recorded in the audit log (who, which report and filters, how many rows), together.
 */
export async function reportDownload(
  db: Db,
  reportId: number,
  token: VerifiedToken | undefined,
  userId: number,
  by: AuditBy,
): Promise<Response> {
  const { report, format } = await reportOfLink(db, reportId, token, userId);
  const headers = {
    'content-disposition': attachment(reportFileName(report, format)),
    'cache-control': 'no-store',
  };
  const rows = await reportRowCount(db, report);
  if (format === 'xlsx') {
    const body = await reportXlsx(db, report, rows);
    await countDownload(db, report, format, rows, by);
    return new Response(body, {
      headers: {
        ...headers,
        'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      },
    });
  }
  await countDownload(db, report, format, rows, by);
  return new Response(reportCsv(db, report), {
    headers: { ...headers, 'content-type': 'text/csv; charset=utf-8' },
  });
}

async function countDownload(db: Db, report: ReportRow, format: ReportFormat, rows: number, by: AuditBy) {
  await db.transaction(async (tx) => {
    await tx
      .update(reports)
      .set({ downloads: sql`${reports.downloads} + 1` })
      .where(eq(reports.id, report.id));
    await recordBy(tx, by, {
      kind: 'report.downloaded',
      organizationId: report.organization_id,
      summary: `Downloaded report "${report.name}" as ${format.toUpperCase()} (${rows} ${rows === 1 ? 'row' : 'rows'})`,
      details: {
        report_id: report.id,
        report: report.name,
        format,
        rows,
        scope: report.scope,
        filters: report.filters,
      },
    });
  });
}
