import { type SQL, sql } from 'drizzle-orm';
import * as z from 'zod/mini';
import {
  type AuditEvent,
  AuditFilters,
  type AuditListQuery,
  type AuditPage,
  auditKindLabel,
  auditMessages,
  auditPageSize,
  platformAuditKinds,
} from '../../../src/contract/audit.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { arrayParam, queryRows } from '../../db/rows.ts';
import { attachment } from '../../http/attachment.ts';
import { HttpError } from '../../http/errors.ts';
import { signToken, type VerifiedToken } from '../auth/tokens.ts';
import { batchedCsvStream, csvMessages, neutraliseCell } from '../donations/export.ts';
import { type AuditBy, recordBy } from './audit.ts';

/**
 * The audit log's read side (issue #24). What an organization's log holds:
 * - the entries recorded for the organization (its `organization_id`);
 * - its members' account-wide entries (no organization: sign-ins, failed sign-ins, their second
 *   factors), a member being a person with a permission on the organization today, and the
 *   person an entry is about its subject, or its actor when it names none;
 * - for super users only, the platform's entries (no organization, `platformAuditKinds`: the
 *   shared company catalogue's edits).
 * Nothing else: another organization's entries, and the account events of people who are not
 * members, never appear. Newest first, by a keyset cursor on (occurred_at, id).
 */

export type AuditScope = { orgId: number; superUser: boolean };

type Cursor = { at: string; id: number };

const CursorShape = z.tuple([
  z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/)),
  z.number().check(z.int(), z.gte(1)),
]);

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.at, cursor.id])).toString('base64url');
}

/** The cursor a page handed out, or a 400 for anything else (never a database error). */
export function decodeCursor(text: string): Cursor {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw new HttpError(400, auditMessages.badCursor);
  }
  const parsed = z.safeParse(CursorShape, value);
  if (!parsed.success || Number.isNaN(Date.parse(parsed.data[0])))
    throw new HttpError(400, auditMessages.badCursor);
  return { at: parsed.data[0], id: parsed.data[1] };
}

const dayMs = 86_400_000;

/** The filters' conditions (person, kind, inclusive UTC days); a reversed range is a 400. */
function filterConditions(filters: AuditFilters): SQL[] {
  if (filters.from && filters.to && filters.from > filters.to)
    throw new HttpError(400, auditMessages.dateOrder);
  const conditions: SQL[] = [];
  if (filters.person !== undefined) {
    const person = Number(filters.person);
    conditions.push(sql`(actor_user_id = ${person} or subject_user_id = ${person})`);
  }
  if (filters.kind !== undefined) conditions.push(sql`kind = ${filters.kind}`);
  if (filters.from) conditions.push(sql`occurred_at >= ${`${filters.from}T00:00:00Z`}::timestamptz`);
  if (filters.to) {
    const end = new Date(Date.parse(`${filters.to}T00:00:00Z`) + dayMs).toISOString();
    conditions.push(sql`occurred_at < ${end}::timestamptz`);
  }
  return conditions;
}

/** Which entries the organization's log holds, as separate conditions (each one an index's range). */
function scopeBranches(scope: AuditScope): SQL[] {
  const platform = arrayParam(platformAuditKinds, 'text');
  const members = sql`(select user_id from permissions where org_id = ${scope.orgId})`;
  const account = sql`organization_id is null and kind <> all(${platform})`;
  // The person an account-wide entry is about is its subject, else its actor: two branches, so
  // each reads its own index (subject's, actor's) for the members rather than every account event.
  const branches = [
    sql`organization_id = ${scope.orgId}`,
    sql`${account} and subject_user_id in ${members}`,
    sql`${account} and subject_user_id is null and actor_user_id in ${members}`,
  ];
  if (scope.superUser) branches.push(sql`organization_id is null and kind = any(${platform})`);
  return branches;
}

type Row = {
  id: string;
  at: string;
  kind: string;
  organization_id: number | null;
  actor_kind: 'user' | 'api' | 'system';
  actor_user_id: number | null;
  actor_label: string | null;
  subject_user_id: number | null;
  subject_email: string | null;
  summary: string;
  details: Record<string, unknown> | null;
  ip_address: string | null;
};

/**
 * One page of entries, newest first, after `cursor`: one ordered, limited select per branch of
 * the scope (so each walks its own index and stops early), merged and limited again.
 */
async function readPage(
  db: Queryable,
  scope: AuditScope,
  filters: AuditFilters,
  cursor: Cursor | undefined,
  limit: number,
): Promise<Row[]> {
  const conditions = filterConditions(filters);
  if (cursor) conditions.push(sql`(occurred_at, id) < (${cursor.at}::timestamptz, ${cursor.id}::bigint)`);
  const branches = scopeBranches(scope).map(
    (branch) =>
      sql`(select * from audit_events where ${sql.join([branch, ...conditions], sql` and `)} order by occurred_at desc, id desc limit ${limit})`,
  );
  return queryRows<Row>(
    db,
    sql`
    select e.id::text as id,
      to_char(e.occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at,
      e.kind, e.organization_id, e.actor_kind, e.actor_user_id, e.actor_label, e.subject_user_id,
      s.email as subject_email, e.summary, e.details, e.ip_address
    from (${sql.join(branches, sql` union all `)}) e
    left join users s on s.id = e.subject_user_id
    order by e.occurred_at desc, e.id desc
    limit ${limit}`,
  );
}

function toEvent(row: Row): AuditEvent {
  return {
    id: Number(row.id),
    occurred_at: row.at,
    kind: row.kind,
    organization_id: row.organization_id,
    actor: { kind: row.actor_kind, user_id: row.actor_user_id, label: row.actor_label },
    subject: row.subject_user_id === null ? null : { user_id: row.subject_user_id, email: row.subject_email },
    summary: row.summary,
    details: row.details ?? {},
    ip_address: row.ip_address,
  };
}

const cursorOf = (row: Row): Cursor => ({ at: row.at, id: Number(row.id) });

/** `GET /api/organization/{id}/audit-events`: one page of the log and the next page's cursor. */
export async function listAuditEvents(
  db: Queryable,
  scope: AuditScope,
  query: AuditListQuery,
): Promise<AuditPage> {
  const { cursor, limit, ...filters } = query;
  const size = limit === undefined ? auditPageSize : Number(limit);
  const rows = await readPage(db, scope, filters, cursor ? decodeCursor(cursor) : undefined, size + 1);
  const page = rows.slice(0, size);
  const last = page.at(-1);
  return {
    events: page.map(toEvent),
    next_cursor: rows.length > size && last ? encodeCursor(cursorOf(last)) : null,
  };
}

/** How many entries the filters select in the organization's log. */
async function countEntries(db: Queryable, scope: AuditScope, filters: AuditFilters): Promise<number> {
  const conditions = filterConditions(filters);
  const branches = scopeBranches(scope).map(
    (branch) =>
      sql`(select count(*) as n from audit_events where ${sql.join([branch, ...conditions], sql` and `)})`,
  );
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select coalesce(sum(n), 0)::int as n from (${sql.join(branches, sql` union all `)}) c`,
  );
  return Number(row?.n ?? 0);
}

// --- CSV ---------------------------------------------------------------------------------------

export const auditCsvColumns = [
  'Time (UTC)',
  'Event',
  'Kind',
  'By',
  'About',
  'Summary',
  'Details',
  'IP Address',
] as const;

/** The filters as the link carries them (only those given). */
function definedFilters(filters: AuditFilters): AuditFilters {
  return Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined)) as AuditFilters;
}

/**
 * A five-minute signed link to the CSV of the log for these filters (the browser opens it without
 * its bearer token, as the donations export does). Its data says it is the audit log's, so no
 * other download accepts it.
 */
export async function auditCsvLink(
  secret: string,
  userId: number,
  orgId: number,
  filters: AuditFilters,
): Promise<{ url: string }> {
  // A bad filter is refused now, not in the new tab.
  filterConditions(filters);
  const token = await signToken(secret, 'csv-link', userId, {
    org: orgId,
    data: { audit: definedFilters(filters) },
  });
  return { url: `/api/organization/${orgId}/audit-events/csv?token=${encodeURIComponent(token)}` };
}

const LinkData = z.object({ audit: AuditFilters });

/** The filters a verified link stands for, or the expired-link 401 (a link of another download). */
function filtersOfLink(token: VerifiedToken | undefined): AuditFilters {
  const data = z.safeParse(LinkData, token?.data ?? {});
  if (!data.success) throw new HttpError(401, csvMessages.expired);
  return data.data.audit;
}

export function auditCsvFileName(orgId: number, now = new Date()): string {
  return `audit-log-${orgId}-${now.toISOString().slice(0, 10)}.csv`;
}

/**
 * The CSV download: every entry the filters select, newest first, streamed in keyset batches
 * (the list's own query), each cell guarded against formula injection. The download is itself
 * recorded (who, which filters, how many rows) before the first byte leaves.
 */
export async function auditCsvDownload(
  db: Db,
  scope: AuditScope,
  token: VerifiedToken | undefined,
  by: AuditBy,
): Promise<Response> {
  const filters = filtersOfLink(token);
  filterConditions(filters);
  // The file holds what the log held when it was asked for: entries before this export's own.
  const start = await db.transaction(async (tx) => {
    const n = await countEntries(tx, scope, filters);
    return recordBy(tx, by, {
      kind: 'export.audit',
      organizationId: scope.orgId,
      summary: `Exported ${n} audit log ${n === 1 ? 'entry' : 'entries'} as CSV`,
      details: { filters, rows: n },
    });
  });
  const text = (value: string | null | undefined) => neutraliseCell(value ?? '');
  const stream = batchedCsvStream<Row>(
    [...auditCsvColumns],
    (last, size) => readPage(db, scope, filters, last ? cursorOf(last) : start, size),
    (row) => [
      row.at,
      text(auditKindLabel(row.kind)),
      text(row.kind),
      text(row.actor_label),
      text(row.subject_email),
      text(row.summary),
      text(row.details && Object.keys(row.details).length > 0 ? JSON.stringify(row.details) : ''),
      text(row.ip_address),
    ],
  );
  return new Response(stream, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': attachment(auditCsvFileName(scope.orgId)),
      'cache-control': 'no-store',
    },
  });
}
