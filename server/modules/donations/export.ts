import { stringify } from 'csv-stringify/sync';
import { and, asc, desc, eq, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import * as z from 'zod/mini';
import {
  DonationListQuery,
  type DonationSortField,
  defaultDonationSort,
} from '../../../src/contract/donations.ts';
import { billingStatusLabels, statuses, statusName } from '../../../src/contract/statuses.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { streamCopyCsv } from '../../db/copy-csv.ts';
import { campaigns, companies, donations, donors, organizations } from '../../db/schema.ts';
import { attachment } from '../../http/attachment.ts';
import { HttpError } from '../../http/errors.ts';
import { type AuditBy, recordBy } from '../audit/audit.ts';
import { csvTokenLifetimeSeconds, signToken, type VerifiedToken } from '../auth/tokens.ts';
import { donationFilterConditions, donationTotal, sortColumns } from './donations.service.ts';

/**
 * The CSV export of the donations list (spec: "GET /api/donation/{id}/csv-token with the same
 * query. Response: url, opened in a new tab"). The browser cannot send its bearer token when it
 * opens a tab, so the token call returns a short-lived signed link, and the link's handler checks
 * the signature, the organization and the user's permission again before streaming the rows.
 */

export { csvTokenLifetimeSeconds };
/** Rows read per query; the stream pulls the next batch only when the client has taken the last. */
export const csvBatchSize = 2000;

export const csvMessages = {
  expired: 'This download link has expired or is not valid. Start the download again.',
  xlsxNeedsReport: 'The donations list downloads as CSV; save a report to download an Excel (.xlsx) file.',
} as const;

export const csvColumns = [
  'ID',
  'Transaction ID',
  'Donated',
  'Amount',
  'Estimated Match',
  'Donor Name',
  'Donor Email',
  'Company',
  'Organization',
  'Status',
  'Billing Status',
  'Silenced',
  'Created',
  // Last, so the columns before it keep their places in spreadsheets built on earlier exports.
  'Campaign',
] as const;

const encoder = new TextEncoder();

/** The signed link for GET /api/donation/{org}/csv (the list's query travels inside the token). */
export async function csvLink(
  db: Queryable,
  secret: string,
  userId: number,
  orgId: number,
  query: DonationListQuery,
): Promise<{ url: string }> {
  // A bad filter (an impossible date) is refused now, as the list refuses it, not in the new tab.
  await donationFilterConditions(db, orgId, query);
  // Paging is the list's concern; the export covers every row the filters select.
  const { page: _page, per_page: _perPage, _token, ...filters } = query;
  const token = await signToken(secret, 'csv-link', userId, { org: orgId, data: { filters } });
  return { url: `/api/donation/${orgId}/csv?token=${encodeURIComponent(token)}` };
}

/**
 * OWASP CSV injection: a cell a spreadsheet would read as a formula (starting with = + - @, a
 * tab or a carriage return) gets a leading single quote, so it is shown as text.
 */
export function neutraliseCell(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/**
 * A text cell for COPY's CSV format, as csv-stringify wrote it from neutraliseCell's output:
 * the formula guard (by code: = + - @ tab and carriage return), and NULL for empty, which COPY
 * writes as nothing (an empty text would be written as ""). COPY quotes what holds a quote, a
 * comma, a line feed or a carriage return, as csv-stringify did.
 */
function csvCell(value: SQLWrapper): SQL {
  return sql`(case when ascii(${value}) in (9, 13, 43, 45, 61, 64) then '''' || ${value} else nullif(${value}, '') end)`;
}

/** A fixed text as an SQL literal (formula guard applied). */
const constant = (text: string) => sql.raw(`'${neutraliseCell(text).replaceAll("'", "''")}'`);

/**
 * Every status's name, and 'Unknown status {id}' for an id the catalogue does not know: one array
 * subscript per row.
 */
const statusIds = Object.keys(statuses).map(Number);
const statusCell = sql`coalesce((array[${sql.join(
  Array.from({ length: Math.max(...statusIds) }, (_, i) =>
    statusIds.includes(i + 1) ? constant(statusName(i + 1)) : sql.raw('null'),
  ),
  sql`, `,
)}]::text[])[${donations.status_id}], 'Unknown status ' || ${donations.status_id})`;

/** (cents / 100).toFixed(2): integer arithmetic for the usual non-negative amounts. */
const money = (cents: SQLWrapper) =>
  sql`(case when ${cents} >= 0 then (${cents} / 100)::text || '.' || lpad((${cents} % 100)::text, 2, '0') else ((${cents})::numeric / 100)::numeric(20, 2)::text end)`;

/**
 * The cells of one match's CSV row, in csvColumns' order, each written by the database as
 * csv-stringify wrote it before (same text, formula guard and quoting): COPY … (FORMAT csv)
 * then writes the file itself, at the database's own speed.
 */
const csvCells = {
  id: sql<string>`${donations.id}`,
  transaction_id: csvCell(donations.transaction_id),
  donated: sql<string>`to_char(${donations.donated_at} at time zone 'UTC', 'YYYY-MM-DD')`,
  amount: money(donations.amount_cents),
  matched: money(donations.matched_cents),
  donor_name: csvCell(donors.name),
  donor_email: csvCell(donors.email),
  company: csvCell(sql`coalesce(${companies.name}, ${donations.company_name})`),
  organization: csvCell(organizations.name),
  status: statusCell,
  billing: sql<string>`(case when ${donations.processed_bill_id} is not null then ${constant(billingStatusLabels.processed)} when ${donations.eligible_bill_id} is not null then ${constant(billingStatusLabels.eligible)} else ${constant(billingStatusLabels.ineligible)} end)`,
  silenced: sql<string>`(case when ${donations.silenced} then 'Yes' else 'No' end)`,
  created: sql<string>`to_char(${donations.created_at} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  // Last, so the columns before it keep their places in spreadsheets built on earlier exports.
  campaign: csvCell(campaigns.name),
};

/** Rows per COPY on PGlite (about 18 MB of CSV, held once in PGlite's memory and once here). */
const pgliteCsvBatchRows = 100_000;

/** The SQL type of each sort's key, to write a batch's bounds back as literals. */
const sortKeyTypes: Record<DonationSortField, string> = {
  donated_at: 'timestamptz',
  amount: 'int',
  matched: 'int',
  donor_name: 'text',
  company_name: 'text',
  organization_name: 'text',
  status_id: 'int',
  created_at: 'timestamptz',
  id: 'int',
};
/** The sorts whose key may be NULL (no donor, no typed employer). */
const nullableSorts: ReadonlySet<DonationSortField> = new Set(['donor_name', 'company_name']);

/**
 * The list's order as a tuple without NULLs, so `(tuple) < (bound)` finds the rows after a
 * batch's last: a key that may be NULL becomes (key is null, key or ''), which orders exactly as
 * the key does (NULLs first newest-first, last oldest-first: PostgreSQL's defaults); the id
 * breaks ties. Each part with its SQL type.
 */
function sortTuple(field: DonationSortField): Array<{ part: SQL; type: string }> {
  const key = sortColumns[field];
  const id = { part: sql`${donations.id}`, type: 'int' };
  if (field === 'id') return [id];
  if (nullableSorts.has(field))
    return [
      { part: sql`(${key} is null)`, type: 'boolean' },
      { part: sql`coalesce(${key}, '')`, type: 'text' },
      id,
    ];
  return [{ part: sql`${key}`, type: sortKeyTypes[field] }, id];
}

/**
 * Every donation the list's filters select (the organization's and its chapters'), as CSV bytes:
 * a UTF-8 BOM (so spreadsheets read accents right), the header row, then the rows in the list's
 * order (its sort_field and ascending, default donated_at newest first; the id breaks ties),
 * written by the database's COPY (streamCopyCsv, server/db/copy-csv.ts).
 * - PostgreSQL: one COPY of the whole selection (one scan, one sort, one snapshot).
 * - PGlite (COPY writes to memory there): a selection that fits one batch (the list's total is
 *   at most `batchSize`) is one COPY. A larger one is one COPY per `batchSize` rows, in order:
 *   one query first numbers the selection in the list's order and gives the sort key of every
 *   `batchSize`-th row; each batch is then the rows after the previous bound up to its own
 *   (keyset), so no batch sorts more than its rows and nothing stays open between two. Each
 *   batch reads the rows as they are when it runs: a match whose sort key changes during the
 *   download may be written twice or not at all.
 * The server only passes bytes along, and memory stays flat however many rows there are (one
 * batch at most on PGlite), as the client's pace sets the database's.
 */
export function exportDonationsCsv(
  db: Db,
  orgId: number,
  filters: DonationListQuery,
  options: { batchSize?: number } = {},
): ReadableStream<Uint8Array> {
  const field = filters.sort_field ?? defaultDonationSort.field;
  const ascending =
    filters.ascending === undefined
      ? defaultDonationSort.ascending
      : filters.ascending === 'true' || filters.ascending === '1';
  const order = ascending ? asc : desc;
  const tuple = sortTuple(field);
  // The list's order (the tuple orders as sort_field then id do).
  const ordered = tuple.map((t) => order(t.part));
  const batchSize = options.batchSize ?? pgliteCsvBatchRows;
  const selection = () =>
    db
      .select(csvCells)
      .from(donations)
      .innerJoin(organizations, eq(organizations.id, donations.organization_id))
      .leftJoin(donors, eq(donors.id, donations.donor_id))
      .leftJoin(companies, eq(companies.id, donations.company_id))
      .leftJoin(campaigns, eq(campaigns.id, donations.campaign_id));
  const row = (parts: SQL[]) => sql`(${sql.join(parts, sql`, `)})`;
  const tupleSql = row(tuple.map((t) => t.part));
  const bound = (values: string[]) => row(tuple.map((t, i) => sql`${values[i] ?? null}::${sql.raw(t.type)}`));
  /** The sort key of every batchSize-th row but the last, in order. */
  const batchBounds = async (all: SQL[]) => {
    // As text, so a timestamp keeps its microseconds and each batch holds exactly batchSize rows.
    // Only the joins the sort key needs (the filters read other tables through subqueries).
    const parts = Object.fromEntries(tuple.map((t, i) => [`k${i}`, sql`${t.part}`.as(`k${i}`)]));
    let numberedFrom = db
      .select({
        ...parts,
        n: sql<number>`row_number() over (order by ${sql.join(ordered, sql`, `)})`.as('n'),
        total: sql<number>`count(*) over ()`.as('total'),
      })
      .from(donations)
      .$dynamic();
    if (field === 'donor_name')
      numberedFrom = numberedFrom.leftJoin(donors, eq(donors.id, donations.donor_id));
    if (field === 'organization_name')
      numberedFrom = numberedFrom.innerJoin(organizations, eq(organizations.id, donations.organization_id));
    const numbered = numberedFrom.where(and(...all)).as('numbered');
    // Written as text only for the rows that bound a batch.
    const rows = await db
      .select({
        key: sql<string[]>`array[${sql.join(
          tuple.map((_, i) => sql`${sql.identifier(`k${i}`)}::text`),
          sql`, `,
        )}]`,
      })
      .from(numbered)
      .where(sql`${numbered.n} % ${batchSize}::int = 0 and ${numbered.n} < ${numbered.total}`)
      .orderBy(numbered.n);
    return rows.map((r) => r.key);
  };
  const lines = streamCopyCsv(db, {
    whole: async () => {
      const { all } = await donationFilterConditions(db, orgId, filters);
      return selection()
        .where(and(...all))
        .orderBy(...ordered)
        .toSQL();
    },
    batches: async function* () {
      const { base, all, orgIds } = await donationFilterConditions(db, orgId, filters);
      // A selection that fits one batch is one COPY, with no bounds to find. Its size is the
      // list's total (from the running counts where the filters allow, not a scan).
      const fits = (await donationTotal(db, orgIds, filters, base)) <= batchSize;
      const bounds = fits ? [] : await batchBounds(all);
      let after: string[] | undefined;
      for (const upTo of [...bounds, undefined]) {
        const range = [
          after && (ascending ? sql`${tupleSql} > ${bound(after)}` : sql`${tupleSql} < ${bound(after)}`),
          upTo && (ascending ? sql`${tupleSql} <= ${bound(upTo)}` : sql`${tupleSql} >= ${bound(upTo)}`),
        ];
        yield selection()
          .where(and(...all, ...range))
          .orderBy(...ordered)
          .toSQL();
        after = upTo;
      }
    },
  });
  const header = encoder.encode(`\uFEFF${stringify([[...csvColumns]])}`);
  const reader = lines.getReader();
  let headerSent = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!headerSent) {
          headerSent = true;
          controller.enqueue(header);
          return;
        }
        const next = await reader.read();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

/**
 * A CSV file streamed in keyset-paginated batches: a UTF-8 BOM and the header first, then one
 * batch per pull (`next` gets the previous batch's last row to continue after), so memory stays
 * flat however many rows there are and the next query waits for the client to read. Shared by
 * the donations export and the custom reports.
 */
export function batchedCsvStream<Row>(
  header: string[],
  next: (last: Row | undefined, batchSize: number) => Promise<Row[]>,
  record: (row: Row) => string[],
  batchSize = csvBatchSize,
): ReadableStream<Uint8Array> {
  let last: Row | undefined;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(`\uFEFF${stringify([header])}`));
      },
      async pull(controller) {
        const rows = await next(last, batchSize);
        if (rows.length > 0) controller.enqueue(encoder.encode(stringify(rows.map(record))));
        last = rows.at(-1);
        if (last === undefined || rows.length < batchSize) controller.close();
      },
    },
    // One batch is buffered ahead at most: the next query waits for the client to read.
    { highWaterMark: 1 },
  );
}

/** spec: the file is named for the organization and the day (UTC) it was made. */
export function csvFileName(orgId: number, now = new Date()): string {
  return `donations-${orgId}-${now.toISOString().slice(0, 10)}.csv`;
}

/**
 * The streamed download: GET /api/donation/{org}/csv?token=… The router has verified the link
 * (a 'csv-link' token for this organization whose user still reads it); its data holds the
 * list's filters as they were when the link was made.
 */
export async function csvDownload(
  db: Db,
  orgId: number,
  link: VerifiedToken | undefined,
  by: AuditBy,
): Promise<Response> {
  const parsed = z.safeParse(DonationListQuery, link?.data.filters);
  if (!parsed.success) throw new HttpError(401, csvMessages.expired);
  const filters = parsed.data;
  // The filters are checked (dates, amounts) before the first byte is sent, so a bad one is a 400.
  const { base, orgIds } = await donationFilterConditions(db, orgId, filters);
  // The audit log says who took which matches out: the filters and how many rows they selected
  // as the download started (the list's own total).
  const rows = await donationTotal(db, orgIds, filters, base);
  await recordBy(db, by, {
    kind: 'export.donations',
    organizationId: orgId,
    summary: `Exported ${rows} ${rows === 1 ? 'match' : 'matches'} as CSV`,
    details: { format: 'csv', rows, filters },
  });
  return new Response(exportDonationsCsv(db, orgId, filters), {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': attachment(csvFileName(orgId)),
      'cache-control': 'no-store',
    },
  });
}
