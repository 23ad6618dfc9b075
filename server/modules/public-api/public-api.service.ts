import { createHash } from 'node:crypto';
import { and, asc, eq, gt, gte, inArray, lt, sql } from 'drizzle-orm';
import { type ConfirmStatus, donationMessages } from '../../../src/contract/donations.ts';
import { maxInt32 } from '../../../src/contract/fields.ts';
import { integrationMessages } from '../../../src/contract/integrations.ts';
import { organizationNotFound } from '../../../src/contract/organization.ts';
import {
  type ApiCompany,
  type ApiMatchCreate,
  type ApiMatchList,
  type ApiMatchListQuery,
  apiDefaultPageSize,
} from '../../../src/contract/public-api.ts';
import type { Config } from '../../config.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { companies, donations, idempotencyKeys } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import type { ApiKeyCaller } from '../../http/route.ts';
import {
  confirmDonations,
  createDonation,
  donationsInIdOrder,
  getDonation,
} from '../donations/donations.service.ts';
import { matchNotifier } from '../notifications/notifications.service.ts';
import { descendantIds } from '../permissions/permissions.service.ts';

/** The organizations a key reaches: its own and its chapters. */
async function reach(db: Queryable, caller: ApiKeyCaller): Promise<number[]> {
  return [caller.organizationId, ...(await descendantIds(db, caller.organizationId))];
}

/** `%`, `_` and `\` in a filter are literal characters, not LIKE wildcards. */
const like = (text: string) =>
  `%${text
    .trim()
    .toLowerCase()
    .replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/** How long an Idempotency-Key's first answer is kept. */
export const idempotencyLifetimeMs = 24 * 60 * 60 * 1000;

export type ApiAnswer = { status: 200 | 201; body: unknown; replayed: boolean };

/**
 * POST /api/v1/matches: a match created as a staff create would (the donations service, its
 * status resolution and donor email), for the key's organization or one of its chapters. With an
 * `Idempotency-Key`, the first answer is stored in the same transaction as the match, so a retry
 * (even a concurrent one, which waits on the key's row) gets that answer instead of a second match.
 */
export async function createMatch(
  db: Db,
  caller: ApiKeyCaller,
  body: ApiMatchCreate,
  idempotencyKey: string | undefined,
  config: Config,
): Promise<ApiAnswer> {
  const { organization_id, ...write } = body;
  const orgId = organization_id ?? caller.organizationId;
  if (!(await reach(db, caller)).includes(orgId)) throw new HttpError(404, organizationNotFound(orgId));
  if (idempotencyKey === undefined)
    return {
      status: 201,
      body: await createDonation(db, orgId, null, write, 'api', matchNotifier(config)),
      replayed: false,
    };
  if (!/^[\x21-\x7e]{1,255}$/.test(idempotencyKey))
    throw new HttpError(400, integrationMessages.idempotencyKeyInvalid);
  const requestHash = createHash('sha256').update(JSON.stringify(body)).digest('hex');
  return db.transaction(async (tx) => {
    // A key is remembered for a day (as payment APIs do): after that it may name a new request.
    await tx
      .delete(idempotencyKeys)
      .where(
        and(
          eq(idempotencyKeys.organization_id, caller.organizationId),
          eq(idempotencyKeys.key, idempotencyKey),
          lt(idempotencyKeys.created_at, new Date(Date.now() - idempotencyLifetimeMs)),
        ),
      );
    const claimed = await tx
      .insert(idempotencyKeys)
      .values({
        organization_id: caller.organizationId,
        key: idempotencyKey,
        request_hash: requestHash,
        status: 0,
        response: {},
      })
      .onConflictDoNothing()
      .returning({ id: idempotencyKeys.id });
    const mine = claimed[0];
    if (!mine) {
      const [first] = await tx
        .select()
        .from(idempotencyKeys)
        .where(
          and(
            eq(idempotencyKeys.organization_id, caller.organizationId),
            eq(idempotencyKeys.key, idempotencyKey),
          ),
        );
      if (!first) throw new Error('idempotency key vanished');
      if (first.request_hash !== requestHash)
        throw new HttpError(422, integrationMessages.idempotencyMismatch);
      return { status: first.status as 201, body: first.response, replayed: true };
    }
    // The match is written in a savepoint of this transaction: both commit together or neither.
    const created = await createDonation(
      tx as unknown as Db,
      orgId,
      null,
      write,
      'api',
      matchNotifier(config),
    );
    await tx
      .update(idempotencyKeys)
      .set({ status: 201, response: created })
      .where(eq(idempotencyKeys.id, mine.id));
    return { status: 201, body: created, replayed: false };
  });
}

function decodeCursor(cursor: string): number {
  const match = /^c([0-9]{1,10})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  const id = Number(match?.[1]);
  // Within the id column's range: a larger number would reach the database as an integer error.
  if (!match || !Number.isSafeInteger(id) || id < 0 || id > maxInt32)
    throw new HttpError(400, integrationMessages.cursorInvalid);
  return id;
}
const encodeCursor = (id: number) => Buffer.from(`c${id}`, 'latin1').toString('base64url');

/** GET /api/v1/matches: the key's matches in id order, a page at a time, filtered. */
export async function listMatches(
  db: Queryable,
  caller: ApiKeyCaller,
  query: ApiMatchListQuery,
): Promise<ApiMatchList> {
  const limit = query.limit === undefined ? apiDefaultPageSize : Number(query.limit);
  const after = query.cursor === undefined ? 0 : decodeCursor(query.cursor);
  const conditions = [inArray(donations.organization_id, await reach(db, caller)), gt(donations.id, after)];
  if (query.status !== undefined) conditions.push(eq(donations.status_id, Number(query.status)));
  if (query.company?.trim())
    conditions.push(sql`lower(coalesce(${donations.company_name}, '')) like ${like(query.company)}`);
  if (query.updated_since !== undefined)
    conditions.push(gte(donations.updated_at, new Date(query.updated_since)));
  const rows = await donationsInIdOrder(db, conditions, limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { data: page, next_cursor: rows.length > limit && last ? encodeCursor(last.id) : null };
}

/** GET /api/v1/matches/{id}: one of the key's matches; another organization's is 'Donation not found'. */
export async function getMatch(db: Queryable, caller: ApiKeyCaller, id: number) {
  const [row] = await db
    .select({ organization_id: donations.organization_id })
    .from(donations)
    .where(eq(donations.id, id));
  if (!row || !(await reach(db, caller)).includes(row.organization_id))
    throw new HttpError(404, donationMessages.notFound);
  return getDonation(db, id);
}

/**
 * POST /api/v1/matches/{id}/status: Submitted, No Charge or Refunded, as staff confirm them (the
 * history names the API as the source, the webhook event and the bill follow), for a match the
 * caller reaches.
 */
export async function updateMatchStatus(db: Db, caller: ApiKeyCaller, id: number, status: ConfirmStatus) {
  await getMatch(db, caller, id);
  await confirmDonations(db, null, { donation_ids: [id], status }, new Date(), 'api');
  return getDonation(db, id);
}

const dollarsOrNull = (cents: number | null) => (cents === null ? null : cents / 100);

/** GET /api/v1/companies?q=: employers whose name contains q, those starting with it first, at most 20. */
export async function searchCompanies(db: Queryable, q: string): Promise<{ data: ApiCompany[] }> {
  const lowered = q.trim().toLowerCase();
  const name = sql`lower(${companies.name})`;
  const rows = await db
    .select()
    .from(companies)
    .where(sql`${name} like ${like(lowered)}`)
    .orderBy(
      sql`case when ${name} like ${`${lowered.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`} then 0 else 1 end`,
      asc(name),
      asc(companies.id),
    )
    .limit(20);
  return {
    data: rows.map((c) => ({
      id: c.id,
      name: c.name,
      program: c.program as ApiCompany['program'],
      match_method: c.match_method as ApiCompany['match_method'],
      match_ratio: Number(c.match_ratio),
      minimum_match: dollarsOrNull(c.minimum_match_cents),
      maximum_match: dollarsOrNull(c.maximum_match_cents),
      deadline: { rule: c.deadline_rule as ApiCompany['deadline']['rule'], days: c.deadline_days },
      url: c.url,
    })),
  };
}
