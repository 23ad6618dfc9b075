import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { DeadlineRule, MatchMethod, VerifyMethod } from '../../../src/contract/companies.ts';
import { matchDeadline } from '../../../src/contract/donor.ts';
import { statusName } from '../../../src/contract/statuses.ts';
import {
  csrVendorOf,
  csrVendors,
  type DeclineRequest,
  declinedStatus,
  type VerificationGroup,
  type VerificationQueueResponse,
  type VerificationResult,
  type VerifyRequest,
  verificationMessages,
  verificationQueueLimit,
  verificationStatuses,
  verifiedStatus,
  whatToCheck,
} from '../../../src/contract/verification.ts';
import type { Db, Queryable, Tx } from '../../db/client.ts';
import { companies, donations, donors, esignDocuments, organizations } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { billingStateColumns } from '../billing/bills.ts';
import { moveMatches } from '../donations/donations.service.ts';
import { descendantIds } from '../permissions/permissions.service.ts';

const queue = [...verificationStatuses] as number[];

const familyOf = async (db: Queryable, orgId: number) => [orgId, ...(await descendantIds(db, orgId))];

/**
 * The matches waiting on the organization (and its chapters), oldest gift first, grouped by
 * company and CSR vendor; a group comes in the order of its oldest match.
 */
export async function verificationQueue(db: Db, orgId: number): Promise<VerificationQueueResponse> {
  const orgIds = await familyOf(db, orgId);
  const where = and(inArray(donations.organization_id, orgIds), inArray(donations.status_id, queue));
  const [rows, totals] = await Promise.all([
    db
      .select({
        id: donations.id,
        donated_at: donations.donated_at,
        amount_cents: donations.amount_cents,
        matched_cents: donations.matched_cents,
        status_id: donations.status_id,
        donor_name: donors.name,
        donor_email: donors.email,
        organization_name: organizations.name,
        company_id: donations.company_id,
        entered_company: donations.company_name,
        company_name: companies.name,
        match_method: companies.match_method,
        verify: companies.verify,
        url: companies.url,
        csr_vendor: companies.csr_vendor,
        deadline_rule: companies.deadline_rule,
        deadline_days: companies.deadline_days,
        awaiting_countersign: sql<boolean>`coalesce(${esignDocuments.donor_signed_at} is not null and ${esignDocuments.countersigned_at} is null, false)`,
      })
      .from(donations)
      .innerJoin(organizations, eq(organizations.id, donations.organization_id))
      .leftJoin(donors, eq(donors.id, donations.donor_id))
      .leftJoin(companies, eq(companies.id, donations.company_id))
      .leftJoin(esignDocuments, eq(esignDocuments.donation_id, donations.id))
      .where(where)
      .orderBy(asc(donations.donated_at), asc(donations.id))
      .limit(verificationQueueLimit),
    db.select({ n: count() }).from(donations).where(where),
  ]);
  const groups = new Map<string, VerificationGroup>();
  for (const row of rows) {
    const vendor = csrVendorOf(row.csr_vendor);
    const name = row.company_name ?? row.entered_company ?? 'No company';
    const key = `${row.company_id ?? `name:${name.toLowerCase()}`}|${vendor ?? ''}`;
    const deadline = row.deadline_rule
      ? matchDeadline(row.deadline_rule as DeadlineRule, row.deadline_days, row.donated_at.toISOString())
      : null;
    let group = groups.get(key);
    if (!group) {
      group = {
        company_id: row.company_id,
        company_name: name,
        vendor,
        portal_url: vendor ? csrVendors[vendor] : row.url,
        deadline: null,
        items: [],
      };
      groups.set(key, group);
    }
    if (deadline && (group.deadline === null || deadline < group.deadline)) group.deadline = deadline;
    group.items.push({
      id: row.id,
      donated_at: row.donated_at.toISOString(),
      amount: row.amount_cents / 100,
      matched: row.matched_cents / 100,
      status: { id: row.status_id, name: statusName(row.status_id) },
      donor_name: row.donor_name,
      donor_email: row.donor_email,
      organization_name: row.organization_name,
      deadline,
      check: whatToCheck({
        status_id: row.status_id,
        match_method: row.match_method as MatchMethod | null,
        verify: row.verify as VerifyMethod | null,
        vendor,
        awaiting_countersign: row.awaiting_countersign,
      }),
      awaiting_countersign: row.awaiting_countersign,
    });
  }
  return { groups: [...groups.values()], total: Number(totals[0]?.n ?? 0) };
}

/**
 * Locks the chosen matches, all of the organization's family and all still in the queue, or
 * refuses the whole call (a match verified or declined meanwhile by someone else is a 409).
 */
async function lockQueued(tx: Tx, orgId: number, ids: number[]) {
  const orgIds = await familyOf(tx, orgId);
  const rows = await tx
    .select(billingStateColumns)
    .from(donations)
    .where(and(inArray(donations.id, ids), inArray(donations.organization_id, orgIds)))
    .for('update');
  // Another organization's match is not found, as the dialog's calls answer.
  if (rows.length !== ids.length) throw new HttpError(404, 'Donation not found');
  if (rows.some((r) => !queue.includes(r.status_id)))
    throw new HttpError(409, verificationMessages.notInQueue);
  return rows;
}

/** Marks the chosen matches verified: they move on to Submitted, as the dialog's Submitted does. */
export async function verifyMatches(
  db: Db,
  orgId: number,
  userId: number,
  body: VerifyRequest,
  now: Date,
): Promise<VerificationResult> {
  const ids = [...new Set(body.donation_ids)];
  await db.transaction(async (tx) => {
    const rows = await lockQueued(tx, orgId, ids);
    await moveMatches(tx, userId, rows, verifiedStatus, now);
  });
  return { message: verificationMessages.verified(ids.length), donation_ids: ids };
}

/** Declines the chosen matches (override-declined) with the reason kept in each history row. */
export async function declineMatches(
  db: Db,
  orgId: number,
  userId: number,
  body: DeclineRequest,
  now: Date,
): Promise<VerificationResult> {
  const ids = [...new Set(body.donation_ids)];
  await db.transaction(async (tx) => {
    const rows = await lockQueued(tx, orgId, ids);
    await moveMatches(tx, userId, rows, declinedStatus, now, body.reason);
  });
  return { message: verificationMessages.declined(ids.length), donation_ids: ids };
}
