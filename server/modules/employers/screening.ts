import { and, asc, count, desc, eq, gt, gte, inArray, isNull, lt, lte, type SQL, sql } from 'drizzle-orm';
import type {
  EmployerMethod,
  EmployerReviewDecision,
  EmployerReviewDecisionResponse,
  EmployerReviewList,
  EmployerScreening,
  EmployerSummary,
  EmployerSummaryQuery,
} from '../../../src/contract/employers.ts';
import { type StatusId, statusIdOf } from '../../../src/contract/statuses.ts';
import type { Db, Queryable, Tx } from '../../db/client.ts';
import { arrayParam, insertUnnest, queryRows } from '../../db/rows.ts';
import {
  companies,
  donationEmployerDayStats,
  donationEmployerEvents,
  donationStatusHistory,
  donations,
  donors,
  employerReviews,
  employerScreenings,
  organizations,
} from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import type { Logger } from '../../http/logger.ts';
import { afterCommit } from '../../jobs/after-commit.ts';
import { type PollingLoop, pollingLoop } from '../../jobs/polling-loop.ts';
import { campaignTermsOf } from '../campaigns/campaigns.service.ts';
import { estimateOf, resolutionCompany } from '../donations/donations.service.ts';
import { resolveStatus } from '../donations/status-resolution.ts';
import * as webhookEvents from '../integrations/webhook-events.ts';
import { identifyEmployers } from './identify.ts';

/**
 * Screening what is already there (issue #31): "Find employers" runs the identification over an
 * organization's matches without a company at Missing Company Hold (23) as a durable background
 * job. Each batch is one transaction that locks the job's row (FOR UPDATE SKIP LOCKED, so several
 * processes never screen the same batch) and records how far it got: a restart resumes after the
 * last match screened. Answers at or above the organization's threshold are applied, the match
 * moving on as the status table says (status-resolution.ts) with its history; answers below it go
 * to the review list, where staff accept, correct or reject them.
 */

/** Matches screened per transaction. */
export const screeningBatch = 200;

type ScreeningRow = typeof employerScreenings.$inferSelect;

const toScreening = (row: ScreeningRow): EmployerScreening => ({
  id: row.id,
  status: row.status as EmployerScreening['status'],
  total: row.total,
  processed: row.processed,
  applied: row.applied,
  to_review: row.to_review,
  error: row.error,
  created_at: row.created_at.toISOString(),
  finished_at: row.finished_at?.toISOString() ?? null,
});

const onHold = (orgId: number) =>
  and(
    eq(donations.organization_id, orgId),
    eq(donations.status_id, statusIdOf.missingCompany),
    isNull(donations.company_id),
  );

/**
 * Starts "Find employers" for the organization, or answers the run already under way (one at a
 * time per organization). The job is run in the background right after, and by the worker loop.
 */
export async function startScreening(
  db: Db,
  orgId: number,
  userId: number,
  logger: Logger,
): Promise<{ screening: EmployerScreening }> {
  const row = await db.transaction(async (tx) => {
    // One organization's starts queue behind each other: never two open runs.
    await tx.execute(sql`select 1 from ${organizations} where id = ${orgId} for update`);
    const [open] = await tx
      .select()
      .from(employerScreenings)
      .where(
        and(
          eq(employerScreenings.organization_id, orgId),
          inArray(employerScreenings.status, ['queued', 'running']),
        ),
      );
    if (open) return open;
    const [held] = await tx.select({ n: count() }).from(donations).where(onHold(orgId));
    const [created] = await tx
      .insert(employerScreenings)
      .values({ organization_id: orgId, user_id: userId, total: held?.n ?? 0 })
      .returning();
    if (!created) throw new Error('screening insert returned nothing');
    return created;
  });
  afterCommit(db, 'finding employers', () => runScreenings(db).then(() => undefined), logger);
  return { screening: toScreening(row) };
}

/** The organization's latest run, or null. */
export async function latestScreening(
  db: Queryable,
  orgId: number,
): Promise<{ screening: EmployerScreening | null }> {
  const [row] = await db
    .select()
    .from(employerScreenings)
    .where(eq(employerScreenings.organization_id, orgId))
    .orderBy(desc(employerScreenings.id))
    .limit(1);
  return { screening: row ? toScreening(row) : null };
}

/** Runs open screenings a batch at a time until none is left; answers the batches run. */
export async function runScreenings(db: Db): Promise<number> {
  let batches = 0;
  for (;;) {
    const progressed = await db.transaction((tx) => screenOneBatch(tx));
    if (!progressed) return batches;
    batches += 1;
  }
}

/** One batch of one open screening (locked, so another process takes another). False: none open. */
async function screenOneBatch(tx: Tx): Promise<boolean> {
  const [job] = await queryRows<{ id: number }>(
    tx,
    sql`select id from ${employerScreenings} where status in ('queued', 'running')
        order by id limit 1 for update skip locked`,
  );
  if (!job) return false;
  const [screening] = await tx.select().from(employerScreenings).where(eq(employerScreenings.id, job.id));
  if (!screening) return false;
  const orgId = screening.organization_id;
  const [org] = await tx.select().from(organizations).where(eq(organizations.id, orgId));
  if (!org) {
    await tx
      .update(employerScreenings)
      .set({ status: 'failed', error: 'The organization is gone', finished_at: new Date() })
      .where(eq(employerScreenings.id, job.id));
    return true;
  }
  const batch = await tx
    .select({
      id: donations.id,
      typed: donations.company_name,
      email: donors.email,
    })
    .from(donations)
    .leftJoin(donors, eq(donors.id, donations.donor_id))
    .where(and(onHold(orgId), gt(donations.id, screening.last_donation_id)))
    .orderBy(asc(donations.id))
    .limit(screeningBatch);
  const answers = await identifyEmployers(
    tx,
    batch.map((m) => ({ employer: m.typed, email: m.email })),
    { organizationId: orgId },
  );
  const apply: Applying[] = [];
  const reviews: Array<{
    donation: number;
    company: number;
    method: string;
    confidence: number;
    reason: string;
  }> = [];
  batch.forEach((m, i) => {
    const a = answers[i];
    if (!a || a.company_id === null || a.method === null) return;
    if (a.confidence >= org.employer_threshold)
      apply.push({
        donationId: m.id,
        companyId: a.company_id,
        method: a.method,
        confidence: a.confidence,
        reason: a.reason,
      });
    else
      reviews.push({
        donation: m.id,
        company: a.company_id,
        method: a.method,
        confidence: a.confidence,
        reason: a.reason,
      });
  });
  const applied = (await applyCompanies(tx, orgId, apply, screening.user_id, 'identified')).length;
  if (reviews.length > 0)
    await tx.execute(
      sql`${insertUnnest(employerReviews, [
        { column: employerReviews.organization_id, type: 'int', values: reviews.map(() => orgId) },
        { column: employerReviews.donation_id, type: 'int', values: reviews.map((r) => r.donation) },
        { column: employerReviews.screening_id, type: 'int', values: reviews.map(() => screening.id) },
        { column: employerReviews.company_id, type: 'int', values: reviews.map((r) => r.company) },
        { column: employerReviews.method, type: 'text', values: reviews.map((r) => r.method) },
        { column: employerReviews.confidence, type: 'int', values: reviews.map((r) => r.confidence) },
        { column: employerReviews.reason, type: 'text', values: reviews.map((r) => r.reason) },
      ])} on conflict do nothing`,
    );
  const last = batch[batch.length - 1]?.id ?? screening.last_donation_id;
  const done = batch.length < screeningBatch;
  await tx
    .update(employerScreenings)
    .set({
      status: done ? 'done' : 'running',
      processed: screening.processed + batch.length,
      applied: screening.applied + applied,
      to_review: screening.to_review + reviews.length,
      last_donation_id: last,
      ...(done ? { finished_at: new Date() } : {}),
    })
    .where(eq(employerScreenings.id, screening.id));
  return true;
}

type Applying = {
  donationId: number;
  companyId: number;
  method: EmployerMethod;
  confidence: number;
  reason: string;
};

/**
 * Gives matches at Missing Company Hold their company: the status resolved again from the
 * organization and the company (status-resolution.ts), the estimate with it, a status-history row
 * and an employer-history row each. Matches that have a company meanwhile are left alone. Answers
 * the matches changed.
 */
export async function applyCompanies(
  tx: Tx,
  orgId: number,
  items: readonly Applying[],
  userId: number | null,
  kind: 'identified' | 'accepted' | 'corrected',
): Promise<number[]> {
  if (items.length === 0) return [];
  const matches = await tx
    .select()
    .from(donations)
    .where(
      and(
        inArray(
          donations.id,
          items.map((i) => i.donationId),
        ),
        onHold(orgId),
      ),
    )
    .for('update');
  const held = new Map(matches.map((m) => [m.id, m]));
  const todo = items.filter((i) => held.has(i.donationId));
  if (todo.length === 0) return [];
  const [org] = await tx.select().from(organizations).where(eq(organizations.id, orgId));
  if (!org) throw new HttpError(404, `Organization with id ${orgId} not found`);
  const rows = await tx
    .select()
    .from(companies)
    .where(inArray(companies.id, [...new Set(todo.map((i) => i.companyId))]));
  const companyOf = new Map(rows.map((c) => [c.id, c]));
  const terms = await campaignTermsOf(tx, [orgId], [...companyOf.keys()]);
  const planned = todo.flatMap((item) => {
    const match = held.get(item.donationId);
    const company = companyOf.get(item.companyId);
    if (!match || !company) return [];
    const status: StatusId = resolveStatus({
      organization: { deactivated: org.rule_deactivated, complete: org.complete, type: org.type },
      company: resolutionCompany(company),
      amount_cents: match.amount_cents,
      recurring: match.recurring_id !== null,
    });
    const estimate = estimateOf(status, match, company, terms);
    return [{ item, match, company, status, estimate }];
  });
  await tx.execute(
    sql`update ${donations} set company_id = v.company_id, company_name = v.company_name,
          status_id = v.status_id, matched_cents = v.matched_cents, campaign_id = v.campaign_id,
          employer_method = v.method, employer_confidence = v.confidence, employer_reason = v.reason,
          updated_at = now()
        from unnest(${arrayParam(
          planned.map((p) => p.match.id),
          'int',
        )}, ${arrayParam(
          planned.map((p) => p.company.id),
          'int',
        )}, ${arrayParam(
          planned.map((p) => p.company.name),
          'text',
        )}, ${arrayParam(
          planned.map((p) => p.status),
          'int',
        )}, ${arrayParam(
          planned.map((p) => p.estimate.matched_cents),
          'int',
        )}, ${arrayParam(
          planned.map((p) => p.estimate.campaign_id),
          'int',
        )}, ${arrayParam(
          planned.map((p) => p.item.method),
          'text',
        )}, ${arrayParam(
          planned.map((p) => p.item.confidence),
          'int',
        )}, ${arrayParam(
          planned.map((p) => p.item.reason),
          'text',
        )}) as v(id, company_id, company_name, status_id, matched_cents, campaign_id, method, confidence, reason)
        where ${donations.id} = v.id`,
  );
  await tx.execute(
    insertUnnest(donationStatusHistory, [
      { column: donationStatusHistory.donation_id, type: 'int', values: planned.map((p) => p.match.id) },
      {
        column: donationStatusHistory.from_status_id,
        type: 'int',
        values: planned.map((p) => p.match.status_id),
      },
      { column: donationStatusHistory.to_status_id, type: 'int', values: planned.map((p) => p.status) },
      { column: donationStatusHistory.user_id, type: 'int', values: planned.map(() => userId) },
      {
        column: donationStatusHistory.source,
        type: 'text',
        values: planned.map(() => (userId ? 'staff' : 'system')),
      },
    ]),
  );
  await tx.execute(
    insertUnnest(donationEmployerEvents, [
      { column: donationEmployerEvents.donation_id, type: 'int', values: planned.map((p) => p.match.id) },
      { column: donationEmployerEvents.kind, type: 'text', values: planned.map(() => kind) },
      { column: donationEmployerEvents.company_id, type: 'int', values: planned.map((p) => p.company.id) },
      { column: donationEmployerEvents.method, type: 'text', values: planned.map((p) => p.item.method) },
      {
        column: donationEmployerEvents.confidence,
        type: 'int',
        values: planned.map((p) => p.item.confidence),
      },
      { column: donationEmployerEvents.reason, type: 'text', values: planned.map((p) => p.item.reason) },
      { column: donationEmployerEvents.user_id, type: 'int', values: planned.map(() => userId) },
      {
        column: donationEmployerEvents.source,
        type: 'text',
        values: planned.map(() => (userId ? 'staff' : 'system')),
      },
    ]),
  );
  const changed = planned.map((p) => p.match.id);
  await webhookEvents.statusChanged(tx, changed);
  return changed;
}

/** The organization's review list (pending first by default), a page at a time. */
export async function listReviews(
  db: Queryable,
  orgId: number,
  query: { status?: string; page?: number },
): Promise<EmployerReviewList> {
  const status = query.status ?? 'pending';
  if (!['pending', 'accepted', 'corrected', 'rejected'].includes(status))
    throw new HttpError(400, "status must be 'pending', 'accepted', 'corrected' or 'rejected'");
  const page = Math.max(1, query.page ?? 1);
  const where = and(eq(employerReviews.organization_id, orgId), eq(employerReviews.status, status));
  const [total] = await db.select({ n: count() }).from(employerReviews).where(where);
  const rows = await db
    .select({
      id: employerReviews.id,
      donation_id: employerReviews.donation_id,
      donor_name: donors.name,
      donor_email: donors.email,
      typed: donations.company_name,
      amount_cents: donations.amount_cents,
      company_id: employerReviews.company_id,
      company_name: companies.name,
      method: employerReviews.method,
      confidence: employerReviews.confidence,
      reason: employerReviews.reason,
      status: employerReviews.status,
    })
    .from(employerReviews)
    .innerJoin(donations, eq(donations.id, employerReviews.donation_id))
    .innerJoin(companies, eq(companies.id, employerReviews.company_id))
    .leftJoin(donors, eq(donors.id, donations.donor_id))
    .where(where)
    .orderBy(asc(employerReviews.confidence), asc(employerReviews.id))
    .limit(50)
    .offset((page - 1) * 50);
  return {
    total: total?.n ?? 0,
    reviews: rows.map((r) => ({
      ...r,
      method: r.method as EmployerMethod,
      status: r.status as EmployerReviewList['reviews'][number]['status'],
    })),
  };
}

/**
 * Staff decide reviews of the organization: accept (the proposed company), correct (another
 * catalogue company: one review at a time) or reject (the match stays at Missing Company Hold).
 * All in one transaction. A review not pending, another organization's, or whose match has a
 * company meanwhile is skipped, never changed.
 */
export async function decideReviews(
  db: Db,
  orgId: number,
  userId: number,
  body: EmployerReviewDecision,
): Promise<EmployerReviewDecisionResponse> {
  if (body.action === 'correct') {
    if (body.company_id === undefined) throw new HttpError(400, 'company_id is required to correct a review');
    if (body.ids.length !== 1) throw new HttpError(400, 'Correct one review at a time');
  } else if (body.company_id !== undefined) throw new HttpError(400, 'company_id is only for correct');
  return db.transaction(async (tx) => {
    let correctTo: { id: number; name: string } | null = null;
    if (body.action === 'correct') {
      const [company] = await tx
        .select({ id: companies.id, name: companies.name })
        .from(companies)
        .where(eq(companies.id, body.company_id ?? 0));
      if (!company) throw new HttpError(400, 'Company not found');
      correctTo = company;
    }
    const pending = await tx
      .select()
      .from(employerReviews)
      .where(
        and(
          inArray(employerReviews.id, [...new Set(body.ids)]),
          eq(employerReviews.organization_id, orgId),
          eq(employerReviews.status, 'pending'),
        ),
      )
      .for('update');
    const result = { accepted: 0, corrected: 0, rejected: 0, skipped: body.ids.length - pending.length };
    if (pending.length === 0) return result;
    const decided = new Date();
    if (body.action === 'reject') {
      await tx
        .update(employerReviews)
        .set({ status: 'rejected', reviewed_by: userId, reviewed_at: decided })
        .where(
          inArray(
            employerReviews.id,
            pending.map((r) => r.id),
          ),
        );
      await tx.insert(donationEmployerEvents).values(
        pending.map((r) => ({
          donation_id: r.donation_id,
          kind: 'rejected' as const,
          company_id: r.company_id,
          method: r.method,
          confidence: r.confidence,
          reason: `rejected by staff: ${r.reason}`,
          user_id: userId,
        })),
      );
      result.rejected = pending.length;
      return result;
    }
    const items = pending.map((r) => ({
      donationId: r.donation_id,
      companyId: correctTo?.id ?? r.company_id,
      method: 'person' as const,
      confidence: 100,
      reason: correctTo
        ? `corrected by staff to ${correctTo.name} (proposed: ${r.reason})`
        : `accepted by staff: ${r.reason}`,
    }));
    const kind = correctTo ? 'corrected' : 'accepted';
    // The reviews whose match still waited are applied; the others' matches moved on meanwhile.
    const appliedIds = new Set(await applyCompanies(tx, orgId, items, userId, kind));
    const changed = appliedIds.size;
    const done = pending.filter((r) => appliedIds.has(r.donation_id));
    if (done.length > 0)
      await tx
        .update(employerReviews)
        .set({ status: kind, reviewed_by: userId, reviewed_at: decided })
        .where(
          inArray(
            employerReviews.id,
            done.map((r) => r.id),
          ),
        );
    result.skipped += pending.length - changed;
    if (correctTo) result.corrected = changed;
    else result.accepted = changed;
    return result;
  });
}

/** How many of the organization's matches have a company, by how it was found. */
/**
 * The counts by how the company was found; with from and/or to (inclusive UTC days), only the
 * matches donated in that range (the dashboard's card follows its range).
 */
export async function employerSummary(
  db: Queryable,
  orgId: number,
  range: EmployerSummaryQuery = {},
): Promise<EmployerSummary> {
  if (range.from && range.to && range.from > range.to)
    throw new HttpError(400, 'from must be on or before to');
  // The found and missing figures from the per-day totals (donation_employer_day_stats, kept by
  // triggers): a few rows a day of the range, however many matches the organization holds.
  const rows = await db
    .select({
      kind: donationEmployerDayStats.kind,
      n: sql<number>`sum(${donationEmployerDayStats.count})::int`,
    })
    .from(donationEmployerDayStats)
    .where(
      and(
        eq(donationEmployerDayStats.organization_id, orgId),
        range.from ? gte(donationEmployerDayStats.day, range.from) : undefined,
        range.to ? lte(donationEmployerDayStats.day, range.to) : undefined,
      ),
    )
    .groupBy(donationEmployerDayStats.kind);
  const found = { domain: 0, name: 0, alias: 0, history: 0, person: 0, unrecorded: 0 };
  let missing = 0;
  for (const r of rows) {
    if (r.kind === 'missing') missing = Number(r.n);
    else if (r.kind in found) found[r.kind as keyof typeof found] += Number(r.n);
  }
  const inRange: SQL[] = [];
  if (range.from) inRange.push(gte(donations.donated_at, new Date(`${range.from}T00:00:00Z`)));
  if (range.to)
    inRange.push(lt(donations.donated_at, new Date(Date.parse(`${range.to}T00:00:00Z`) + 86_400_000)));
  const [review] = await db
    .select({ n: count() })
    .from(employerReviews)
    .innerJoin(donations, eq(donations.id, employerReviews.donation_id))
    .where(
      and(eq(employerReviews.organization_id, orgId), eq(employerReviews.status, 'pending'), ...inRange),
    );
  return { found, missing, to_review: review?.n ?? 0 };
}

/** The worker loop: open screenings (a crash or restart left, or a start's kick missed) are run. */
export function createScreeningWorker(options: { db: Db; logger: Logger; pollMs?: number }): PollingLoop {
  return pollingLoop({
    name: 'employer screening',
    pollMs: options.pollMs ?? 5000,
    logger: options.logger,
    round: () => runScreenings(options.db),
  });
}
