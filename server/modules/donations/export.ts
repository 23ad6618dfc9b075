import { stringify } from 'csv-stringify/sync';
import { and, asc, desc, eq, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import * as z from 'zod/mini';
import { DonationListQuery, defaultDonationSort } from '../../../src/contract/donations.ts';
import { billingStatusLabels, statuses, statusName } from '../../../src/contract/statuses.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { streamQueryLines } from '../../db/query-lines.ts';
import { campaigns, companies, donations, donors, organizations } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { csvTokenLifetimeSeconds, signToken, type VerifiedToken } from '../auth/tokens.ts';
import { donationFilterConditions, sortColumns } from './donations.service.ts';

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
 * A text cell as csv-stringify wrote it from neutraliseCell's output: null as empty, the
 * formula guard, then quoted (inner quotes doubled) when it holds a quote, a comma, a line feed
 * or a carriage return.
 */
function csvCell(value: SQLWrapper): SQL {
  const text = sql`coalesce(${value}, '')`;
  // Each branch names the text once more, so the database works out only what the row needs. A
  // search per character costs less than a regular expression (which converts the text first).
  const quoted = (cell: SQL) =>
    sql`(case when strpos(${cell}, '"') > 0 or strpos(${cell}, ',') > 0 or strpos(${cell}, chr(10)) > 0 or strpos(${cell}, chr(13)) > 0 then '"' || replace(${cell}, '"', '""') || '"' else ${cell} end)`;
  // = + - @ tab and carriage return, by code (no substring made per row).
  return sql`(case when ascii(${text}) in (9, 13, 43, 45, 61, 64) then ${quoted(sql`('''' || ${text})`)} else ${quoted(text)} end)`;
}

/** A fixed text as an SQL literal holding its CSV cell, formatted here once. */
const csvConstant = (text: string) =>
  sql.raw(
    `'${stringify([[neutraliseCell(text)]])
      .replace(/\n$/, '')
      .replaceAll("'", "''")}'`,
  );

/**
 * Every status's cell, and the one of an id the catalogue does not know ('Unknown status {id}'):
 * one array subscript per row (a CASE would compare the id with each status in turn).
 */
const statusIds = Object.keys(statuses).map(Number);
const statusCell = sql`coalesce((array[${sql.join(
  Array.from({ length: Math.max(...statusIds) }, (_, i) =>
    statusIds.includes(i + 1) ? csvConstant(statusName(i + 1)) : sql.raw('null'),
  ),
  sql`, `,
)}]::text[])[${donations.status_id}], 'Unknown status ' || ${donations.status_id})`;

/** (cents / 100).toFixed(2): integer arithmetic for the usual non-negative amounts. */
const money = (cents: SQLWrapper) =>
  sql`(case when ${cents} >= 0 then (${cents} / 100)::text || '.' || lpad((${cents} % 100)::text, 2, '0') else ((${cents})::numeric / 100)::numeric(20, 2)::text end)`;

/**
 * One CSV line per match, written by the database exactly as csv-stringify wrote each row before
 * (same cells, quoting and formula guard): the export then moves text, not rows, and runs near
 * the database's own COPY speed. concat_ws builds each line once (a chain of || copies the line
 * so far at every cell); every cell is non-NULL (concat_ws would leave a NULL out).
 */
const csvLine = sql`concat_ws(',', ${sql.join(
  [
    sql`${donations.id}::text`,
    csvCell(donations.transaction_id),
    sql`to_char(${donations.donated_at} at time zone 'UTC', 'YYYY-MM-DD')`,
    money(donations.amount_cents),
    money(donations.matched_cents),
    csvCell(donors.name),
    csvCell(donors.email),
    csvCell(sql`coalesce(${companies.name}, ${donations.company_name})`),
    csvCell(organizations.name),
    statusCell,
    sql`(case when ${donations.processed_bill_id} is not null then ${csvConstant(billingStatusLabels.processed)} when ${donations.eligible_bill_id} is not null then ${csvConstant(billingStatusLabels.eligible)} else ${csvConstant(billingStatusLabels.ineligible)} end)`,
    sql`(case when ${donations.silenced} then 'Yes' else 'No' end)`,
    sql`to_char(${donations.created_at} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
    csvCell(campaigns.name),
  ],
  sql`, `,
)})`;

/**
 * Every donation the list's filters select (the organization's and its chapters'), as CSV bytes:
 * a UTF-8 BOM (so spreadsheets read accents right), the header row, then the rows in the list's
 * order (its sort_field and ascending, default donated_at newest first; the id breaks ties), each
 * line written by the database (csvLine). The lines come from ONE query streamed by
 * streamQueryLines (server/db/query-lines.ts): on PostgreSQL its COPY, on PGlite a cursor read
 * `batchSize` rows at a time (COPY streams without batches). The database joins and sorts once
 * (the keyset batches this replaced each joined and sorted the whole selection again), the
 * server only passes bytes along, and memory stays flat however many rows there are, as the
 * client's pace sets the database's.
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
  const key = sortColumns[field];
  const lines = streamQueryLines(
    db,
    async () => {
      const { all } = await donationFilterConditions(db, orgId, filters);
      return db
        .select({ line: sql<string>`${csvLine}` })
        .from(donations)
        .innerJoin(organizations, eq(organizations.id, donations.organization_id))
        .leftJoin(donors, eq(donors.id, donations.donor_id))
        .leftJoin(companies, eq(companies.id, donations.company_id))
        .leftJoin(campaigns, eq(campaigns.id, donations.campaign_id))
        .where(and(...all))
        .orderBy(order(key), order(donations.id))
        .toSQL();
    },
    options.batchSize === undefined ? {} : { fetchRows: options.batchSize },
  );
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
export async function csvDownload(db: Db, orgId: number, link: VerifiedToken | undefined): Promise<Response> {
  const parsed = z.safeParse(DonationListQuery, link?.data.filters);
  if (!parsed.success) throw new HttpError(401, csvMessages.expired);
  const filters = parsed.data;
  // The filters are checked (dates, amounts) before the first byte is sent, so a bad one is a 400.
  await donationFilterConditions(db, orgId, filters);
  return new Response(exportDonationsCsv(db, orgId, filters), {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${csvFileName(orgId)}"`,
      'cache-control': 'no-store',
    },
  });
}
