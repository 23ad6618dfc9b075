/**
 * Per-match billing: the ledger behind a match's eligible, processed and refunded bill ids.
 *
 * spec: "elig_5 = 5% of eligible match requests (Full Price); elig_3 = 3% (Growing)"; a match's
 * billing status is "eligible, processed, otherwise shown as Ineligible"; "No Charge … when …
 * there is no eligible or processed bill"; "Refund … when a bill exists and no refund". The spec
 * is silent on when a match becomes billable and how bills are cut; the choices:
 *
 * | event                                         | effect                                                      |
 * |-----------------------------------------------|-------------------------------------------------------------|
 * | staff confirm a match Submitted, per-match plan | it counts on its payer's bill for the month (eligible)    |
 * | the month ends (issueBills, hourly)           | the bill is issued; its matches become processed            |
 * | staff refund a billed match                   | status Refunded; credited on the payer's bill for the month |
 * | No Charge on a billed match, Refund on an unbilled one | refused (400): the two never overlap                |
 * | a match on an open bill is re-resolved (company change, Save & Re-Email) to a status outside the chargeable ones (Below Company Minimum, No Program, ...) | it leaves the open bill (billing Ineligible): it is no longer a request the company can match, and nothing was charged yet; Submitted puts it back |
 * | a match on an issued bill is re-resolved the same way | it stays processed and Refund stays offered, whatever its status: the fee was charged, so staff can always credit it |
 *
 * Submitted is the moment the request goes to the company: what a nonprofit pays a share for.
 * Flat plans and the free plan bill nothing per match, so their matches stay ineligible and keep
 * No Charge. The payer is the organization itself, or its parent when a chapter's billing is the
 * parent's (is_premium 'parent'). Each match put on a bill, and each taken off again, is reported
 * to Stripe as usage in the same transaction (usage.ts, issue #27).
 */
import { and, desc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import { type Bill, perMatchRates } from '../../../src/contract/billing.ts';
import { chargeableStatuses } from '../../../src/contract/statuses.ts';
import type { Db, Queryable, Tx } from '../../db/client.ts';
import { bills, donations, organizations } from '../../db/schema.ts';
import { reportCharges, reportCorrections } from './usage.ts';

export const billMessages = {
  noChargeBilled: 'A match already on a bill cannot be marked No Charge; refund it instead.',
  refundUnbilled: 'Only a billed match that has not been refunded can be refunded.',
} as const;

/** The calendar month (UTC) holding `now`: its first instant and the first instant after it. */
export function monthOf(now: Date): { start: Date; end: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end };
}

/** The share of a request's estimated match the organization's payer bills, or null (bills.ts table). */
export async function perMatchRateOf(db: Queryable, organizationId: number): Promise<number | null> {
  return perMatchRates[(await payerOf(db, organizationId)).plan] ?? null;
}

/** Who pays for an organization's matches, and on which plan. */
async function payerOf(tx: Queryable, organizationId: number): Promise<{ id: number; plan: string }> {
  const [org] = await tx
    .select({
      id: organizations.id,
      plan: organizations.plan,
      parent_id: organizations.parent_id,
      is_premium: organizations.is_premium,
    })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  if (!org) throw new Error(`organization ${organizationId} vanished inside its own transaction`);
  if (org.is_premium === 'parent' && org.parent_id !== null) return payerOf(tx, org.parent_id);
  return { id: org.id, plan: org.plan ?? '' };
}

/**
 * The payer's bill for the month of `now` on `plan`, opened when it has none yet. The bill row is
 * locked (FOR SHARE) until the caller commits, so the issuer cannot issue it between our read and
 * the matches we put on it; a bill the issuer has already issued takes nothing more, and the
 * matches go on the following month's bill instead.
 */
async function openBill(tx: Tx, payerId: number, plan: string, now: Date): Promise<number> {
  const { start, end } = monthOf(now);
  // Concurrent first matches of a month meet on the unique (organization, period) index.
  await tx
    .insert(bills)
    .values({ organization_id: payerId, plan, period_start: start, period_end: end })
    .onConflictDoNothing();
  const [bill] = await tx
    .select({ id: bills.id, issued_at: bills.issued_at })
    .from(bills)
    .where(and(eq(bills.organization_id, payerId), eq(bills.period_start, start)))
    .for('share');
  if (!bill) throw new Error('the month’s bill was neither inserted nor found');
  if (bill.issued_at !== null) return openBill(tx, payerId, plan, end);
  return bill.id;
}

type BilledRow = { id: number; organization_id: number };

function byOrganization(rows: BilledRow[]): Map<number, BilledRow[]> {
  const groups = new Map<number, BilledRow[]>();
  for (const row of rows) groups.set(row.organization_id, [...(groups.get(row.organization_id) ?? []), row]);
  return groups;
}

/** Submitted matches of per-match payers count on this month's bill (once: a bill is never moved). */
export async function countSubmitted(tx: Tx, rows: BilledRow[], now: Date): Promise<void> {
  for (const [organizationId, matches] of byOrganization(rows)) {
    const payer = await payerOf(tx, organizationId);
    const rate = perMatchRates[payer.plan];
    if (rate === undefined) continue;
    const billId = await openBill(tx, payer.id, payer.plan, now);
    const counted = await tx
      .update(donations)
      .set({ eligible_bill_id: billId })
      .where(
        and(
          inArray(
            donations.id,
            matches.map((m) => m.id),
          ),
          isNull(donations.eligible_bill_id),
          isNull(donations.processed_bill_id),
          isNull(donations.refunded_bill_id),
        ),
      )
      .returning({ id: donations.id, matched_cents: donations.matched_cents });
    await reportCharges(tx, payer.id, billId, rate, counted);
  }
}

/**
 * A match whose status was resolved again: on a bill still open, and now at a status that is no
 * longer a chargeable request, it leaves that bill (see the table above). Issued bills are never
 * changed; a refund credits them.
 */
export async function releaseIfUnchargeable(
  tx: Tx,
  match: {
    id: number;
    eligible_bill_id: number | null;
    processed_bill_id: number | null;
    refunded_bill_id: number | null;
  },
  statusId: number,
): Promise<void> {
  const onOpenBill =
    match.eligible_bill_id !== null && match.processed_bill_id === null && match.refunded_bill_id === null;
  if (!onOpenBill || (chargeableStatuses as readonly number[]).includes(statusId)) return;
  const released = await tx
    .update(donations)
    .set({ eligible_bill_id: null })
    .where(and(eq(donations.id, match.id), isNull(donations.processed_bill_id)))
    .returning({ id: donations.id });
  await reportCorrections(
    tx,
    released.map((r) => r.id),
    'release',
  );
}

/**
 * Refunds are credited on the payer's bill for this month (one per payer and month, at the plan
 * it was opened with). A payer that has left per-match billing gets the month's credit bill at
 * the rate the refunded match was billed at.
 */
export async function creditRefunds(tx: Tx, rows: BilledRow[], now: Date): Promise<void> {
  for (const [organizationId, matches] of byOrganization(rows)) {
    const payer = await payerOf(tx, organizationId);
    let plan = payer.plan;
    if (perMatchRates[plan] === undefined && matches[0]) {
      const [billed] = await tx
        .select({ plan: bills.plan })
        .from(donations)
        .innerJoin(
          bills,
          sql`${bills.id} = coalesce(${donations.processed_bill_id}, ${donations.eligible_bill_id})`,
        )
        .where(eq(donations.id, matches[0].id));
      plan = billed?.plan ?? plan;
    }
    const billId = await openBill(tx, payer.id, plan, now);
    const ids = matches.map((m) => m.id);
    await tx.update(donations).set({ refunded_bill_id: billId }).where(inArray(donations.id, ids));
    await reportCorrections(tx, ids, 'refund', billId);
  }
}

/** The advisory lock key of bill issuing: one issuer at a time across every server process. */
export const issueBillsLock = 7_305_126_001;

/**
 * Issues every bill whose month is over: it is closed, and its matches become processed. Safe to
 * run at any time, from several processes: a transaction-scoped advisory lock lets one process
 * issue while the others skip the round (they find nothing left next time), and the
 * `issued_at IS NULL` condition issues each bill once even without it.
 */
export async function issueBills(db: Db, now: Date): Promise<number[]> {
  return db.transaction(async (tx) => {
    // Both drivers (node-postgres, PGlite) answer with { rows }.
    const result = (await tx.execute(
      sql`select pg_try_advisory_xact_lock(${issueBillsLock}::bigint) as locked`,
    )) as unknown as { rows: { locked: boolean }[] };
    const [lock] = result.rows;
    if (!lock?.locked) return [];
    const issued = await tx
      .update(bills)
      .set({ issued_at: now })
      .where(and(isNull(bills.issued_at), lte(bills.period_end, now)))
      .returning({ id: bills.id });
    const ids = issued.map((b) => b.id);
    if (ids.length > 0)
      await tx
        .update(donations)
        .set({ processed_bill_id: donations.eligible_bill_id })
        .where(inArray(donations.eligible_bill_id, ids));
    return ids;
  });
}

/**
 * A match's status and bills, as a status change selects (and locks) them before it checks
 * billingConflict or moves the bills along: the confirm call, the verification queue, payouts.
 */
export const billingStateColumns = {
  id: donations.id,
  organization_id: donations.organization_id,
  status_id: donations.status_id,
  eligible_bill_id: donations.eligible_bill_id,
  processed_bill_id: donations.processed_bill_id,
  refunded_bill_id: donations.refunded_bill_id,
};

/** Checks a confirm is allowed for these matches' bills, before anything changes. */
export function billingConflict(
  to: 'submitted' | 'no-charge' | 'refunded',
  rows: {
    eligible_bill_id: number | null;
    processed_bill_id: number | null;
    refunded_bill_id: number | null;
  }[],
): string | null {
  const billed = (r: (typeof rows)[number]) => r.eligible_bill_id !== null || r.processed_bill_id !== null;
  if (to === 'no-charge' && rows.some(billed)) return billMessages.noChargeBilled;
  if (to === 'refunded' && rows.some((r) => !billed(r) || r.refunded_bill_id !== null))
    return billMessages.refundUnbilled;
  return null;
}

/** The organization's bills, newest month first (the last 24), with what each comes to. */
export async function billsOf(db: Queryable, organizationId: number): Promise<Bill[]> {
  const rows = await db
    .select({
      id: bills.id,
      plan: bills.plan,
      period_start: bills.period_start,
      period_end: bills.period_end,
      issued_at: bills.issued_at,
      // Written out: drizzle leaves columns unqualified in a one-table select, and inside these
      // subqueries an unqualified "id" would be the match's, not the bill's.
      requests: sql<number>`(select count(*)::int from donations d where d.eligible_bill_id = bills.id)`,
      matched_cents: sql<string>`(select coalesce(sum(d.matched_cents), 0)::bigint from donations d where d.eligible_bill_id = bills.id)`,
      refunds: sql<number>`(select count(*)::int from donations d where d.refunded_bill_id = bills.id)`,
      refunded_cents: sql<string>`(select coalesce(sum(d.matched_cents), 0)::bigint from donations d where d.refunded_bill_id = bills.id)`,
      reported: sql<number>`(select count(*)::int from stripe_usage_reports r where r.bill_id = bills.id and r.status = 'reported')`,
      pending: sql<number>`(select count(*)::int from stripe_usage_reports r where r.bill_id = bills.id and r.status = 'pending')`,
      failed: sql<number>`(select count(*)::int from stripe_usage_reports r where r.bill_id = bills.id and r.status = 'failed')`,
      last_error: sql<
        string | null
      >`(select r.last_error from stripe_usage_reports r where r.bill_id = bills.id and r.status <> 'reported' and r.last_error is not null order by r.id desc limit 1)`,
    })
    .from(bills)
    .where(eq(bills.organization_id, organizationId))
    .orderBy(desc(bills.period_start))
    .limit(24);
  return rows.map((r) => {
    const matched = Number(r.matched_cents);
    const refunded = Number(r.refunded_cents);
    const rate = perMatchRates[r.plan] ?? 0;
    return {
      id: r.id,
      plan: r.plan,
      period_start: r.period_start.toISOString(),
      period_end: r.period_end.toISOString(),
      issued_at: r.issued_at?.toISOString() ?? null,
      requests: r.requests,
      matched: matched / 100,
      refunds: r.refunds,
      refunded: refunded / 100,
      amount: Math.round(rate * (matched - refunded)) / 100,
      usage: { reported: r.reported, pending: r.pending, failed: r.failed, last_error: r.last_error },
    };
  });
}
