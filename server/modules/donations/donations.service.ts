import {
  and,
  asc,
  desc,
  eq,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  ne,
  type SQL,
  type SQLWrapper,
  sql,
} from 'drizzle-orm';
import type { MatchMethod, ProgramState, VerifyMethod } from '../../../src/contract/companies.ts';
import {
  type ConfirmRequest,
  type ConfirmStatus,
  type Donation,
  type DonationCounts,
  type DonationListQuery,
  type DonationListResponse,
  type DonationSortField,
  type DonationWrite,
  defaultDonationSort,
  defaultDonationsPerPage,
  donationMessages,
  hiddenCustomKeys,
  maxDonationsPerPage,
} from '../../../src/contract/donations.ts';
import {
  billingStatusOf,
  type StatusGroup,
  type StatusId,
  statusGroupIds,
  statusGroups,
  statusIdOf,
  statusName,
} from '../../../src/contract/statuses.ts';
import type { Db, Queryable, Tx } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import {
  campaigns,
  companies,
  donationCompanyStats,
  donationDayStats,
  donationEmployerEvents,
  donationNotifications,
  donationStatusHistory,
  donationStatusTotals,
  donations,
  donors,
  organizations,
  type StatusChangeSource,
} from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import {
  billingConflict,
  billingStateColumns,
  countSubmitted,
  creditRefunds,
  perMatchRateOf,
  releaseIfUnchargeable,
} from '../billing/bills.ts';
import { campaignTermsOf } from '../campaigns/campaigns.service.ts';
import { employerColumns, employerForMatch, recordMatchEmployer } from '../employers/employer-for-match.ts';
import * as webhookEvents from '../integrations/webhook-events.ts';
import { descendantIds } from '../permissions/permissions.service.ts';
import { expectedPayments } from './expected-payment.ts';
import type { MatchNotifier } from './match-notifier.ts';
import {
  type CampaignTerms,
  coveringCampaign,
  estimatedMatchCents,
  resolveStatus,
} from './status-resolution.ts';

const columns = {
  id: donations.id,
  transaction_id: donations.transaction_id,
  donated_at: donations.donated_at,
  amount_cents: donations.amount_cents,
  matched_cents: donations.matched_cents,
  status_id: donations.status_id,
  donor_id: donations.donor_id,
  donor_name: donors.name,
  donor_email: donors.email,
  company_id: donations.company_id,
  company_name: donations.company_name,
  catalogue_name: companies.name,
  campaign_id: donations.campaign_id,
  campaign_name: campaigns.name,
  match_method: companies.match_method,
  guide: companies.guide,
  url: companies.url,
  verify: companies.verify,
  organization_id: donations.organization_id,
  organization_name: organizations.name,
  custom: donations.custom,
  recurring_id: donations.recurring_id,
  inert: donations.inert,
  silenced: donations.silenced,
  refunded_bill_id: donations.refunded_bill_id,
  eligible_bill_id: donations.eligible_bill_id,
  processed_bill_id: donations.processed_bill_id,
  adobe_sign_signing_url: donations.adobe_sign_signing_url,
  paid_cents: donations.paid_cents,
  paid_at: donations.paid_at,
  employer_method: donations.employer_method,
  employer_confidence: donations.employer_confidence,
  employer_reason: donations.employer_reason,
  created_at: donations.created_at,
  updated_at: donations.updated_at,
};

function selectDonations(db: Queryable) {
  return db
    .select(columns)
    .from(donations)
    .innerJoin(organizations, eq(organizations.id, donations.organization_id))
    .leftJoin(donors, eq(donors.id, donations.donor_id))
    .leftJoin(companies, eq(companies.id, donations.company_id))
    .leftJoin(campaigns, eq(campaigns.id, donations.campaign_id));
}
type Row = Awaited<ReturnType<typeof selectDonations>>[number];

const dollars = (cents: number) => cents / 100;
const toCents = (amount: number) => Math.round(amount * 100);

function toDonation(
  row: Row,
  children?: Array<{ id: number; name: string }>,
  notifications: Donation['notifications'] = [],
  recurringHistory: Donation['recurring_history'] = [],
): Donation {
  return {
    id: row.id,
    transaction_id: row.transaction_id,
    donated_at: row.donated_at.toISOString(),
    amount: dollars(row.amount_cents),
    matched: dollars(row.matched_cents),
    status: { id: row.status_id, name: statusName(row.status_id), billing_status: billingStatusOf(row) },
    status_id: row.status_id,
    donor: row.donor_id === null ? null : { id: row.donor_id, name: row.donor_name, email: row.donor_email },
    donor_id: row.donor_id,
    donor_name: row.donor_name,
    company:
      row.company_id === null || row.catalogue_name === null
        ? null
        : {
            id: row.company_id,
            name: row.catalogue_name,
            match_method: row.match_method as MatchMethod | null,
            guide: row.guide,
            url: row.url,
            verify: row.verify as VerifyMethod | null,
          },
    company_id: row.company_id,
    company_name: row.company_name,
    campaign:
      row.campaign_id === null || row.campaign_name === null
        ? null
        : { id: row.campaign_id, name: row.campaign_name },
    organization: {
      id: row.organization_id,
      name: row.organization_name,
      ...(children ? { children } : {}),
    },
    organization_id: row.organization_id,
    custom: row.custom,
    recurring_id: row.recurring_id,
    recurring_history: recurringHistory,
    inert: row.inert,
    silenced: row.silenced,
    refunded_bill_id: row.refunded_bill_id,
    eligible_bill_id: row.eligible_bill_id,
    processed_bill_id: row.processed_bill_id,
    adobe_sign_signingUrl: row.adobe_sign_signing_url,
    paid_amount: row.paid_cents === null ? null : dollars(row.paid_cents),
    paid_at: row.paid_at,
    employer:
      row.employer_method === null
        ? null
        : { method: row.employer_method, confidence: row.employer_confidence, reason: row.employer_reason },
    // The list leaves them out (one more query per row); GET /api/donation/{id} reads them.
    notifications,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** `%`, `_` and `\` typed by a person are literal characters, not LIKE wildcards. */
const contains = (text: string) =>
  `%${text
    .trim()
    .toLowerCase()
    .replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/** The list's sort expressions (the CSV export orders by the same ones). */
export const sortColumns: Record<DonationSortField, SQL | typeof donations.id> = {
  donated_at: sql`${donations.donated_at}`,
  amount: sql`${donations.amount_cents}`,
  matched: sql`${donations.matched_cents}`,
  donor_name: sql`lower(${donors.name})`,
  company_name: sql`lower(${donations.company_name})`,
  organization_name: sql`lower(${organizations.name})`,
  status_id: sql`${donations.status_id}`,
  created_at: sql`${donations.created_at}`,
  id: donations.id,
};

function positiveInt(text: string | undefined, fallback: number, max: number, name: string): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 1 || n > max)
    throw new HttpError(
      400,
      `${name} must be a whole number from 1${max === maxDonationsPerPage ? ` to ${max}` : ''}`,
    );
  return n;
}

function dayStart(day: string, name: string): Date {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== day)
    throw new HttpError(400, `${name} is not a valid date`);
  return date;
}

/**
 * The WHERE conditions of the list's filters, shared by the list and the CSV export (which must
 * honour exactly the same filters): `base` without the status group (the tile counts), `all`
 * with it. A parent's conditions cover its chapters.
 */
export async function donationFilterConditions(
  db: Queryable,
  orgId: number,
  query: DonationListQuery,
  now = new Date(),
): Promise<{ base: SQL[]; all: SQL[]; orgIds: number[] }> {
  const family = [orgId, ...(await descendantIds(db, orgId))];
  const only = query['filters[organization]'];
  // One organization of the family: the organization itself or one of its chapters, never another.
  if (only !== undefined && !family.includes(Number(only)))
    throw new HttpError(400, 'organization must be this organization or one of its chapters');
  const orgIds = only === undefined ? family : [Number(only)];
  const filters: SQL[] = [inArray(donations.organization_id, orgIds)];
  const from = query['filters[dateFrom]'];
  const to = query['filters[dateTo]'];
  if (from) filters.push(gte(donations.donated_at, dayStart(from, 'dateFrom')));
  if (to) filters.push(lt(donations.donated_at, new Date(dayStart(to, 'dateTo').getTime() + 86_400_000)));
  const company = query['filters[company]']?.trim();
  if (company) filters.push(sql`lower(${donations.company_name}) like ${contains(company)}`);
  const companyName = query['filters[companyName]'];
  // The dashboard's grouping (its top companies): the catalogue company's name, else the typed one.
  if (companyName)
    filters.push(
      sql`(${donations.company_id} in (select ${companies.id} from ${companies} where ${companies.name} = ${companyName}) or (${donations.company_id} is null and trim(${donations.company_name}) = ${companyName}))`,
    );
  const donor = query['filters[donor]']?.trim();
  // A subquery rather than a join, so the counts read the donations table alone.
  if (donor)
    filters.push(
      sql`${donations.donor_id} in (select ${donors.id} from ${donors} where ${inArray(donors.organization_id, orgIds)} and (lower(${donors.name}) like ${contains(donor)} or ${donors.email} like ${contains(donor)}))`,
    );
  const campaign = query['filters[campaign]'];
  if (campaign) filters.push(eq(donations.campaign_id, Number(campaign)));
  const minAmount = query['filters[minAmount]'];
  if (minAmount) filters.push(gte(donations.amount_cents, toCents(Number(minAmount))));
  const expectedMonth = query['filters[expectedMonth]'];
  if (expectedMonth)
    filters.push(
      sql`${donations.id} in (select id from (${expectedPayments([inArray(donations.organization_id, orgIds)], now)}) expected where month = ${expectedMonth})`,
    );
  const paid = query['filters[paid]'];
  if (paid) filters.push(paid === 'paid' ? isNotNull(donations.paid_cents) : isNull(donations.paid_cents));
  const group = query['filters[status_group]'];
  const all = group ? [...filters, inArray(donations.status_id, [...statusGroups[group].statuses])] : filters;
  return { base: filters, all, orgIds };
}

/**
 * spec: "GET /api/organization/{id}/donation … Response: donations, total" (default sort
 * donated_at descending). A parent's list includes its chapters' matches. Filtering, sorting and
 * paging happen in SQL; each tile counts the same filters without the status group.
 */
export async function listDonations(
  db: Db,
  orgId: number,
  query: DonationListQuery,
): Promise<DonationListResponse> {
  const page = positiveInt(query.page, 1, 1_000_000, 'page');
  const perPage = positiveInt(query.per_page, defaultDonationsPerPage, maxDonationsPerPage, 'per_page');
  const { base: filters, all: listFilters, orgIds } = await donationFilterConditions(db, orgId, query);

  const sortField = query.sort_field ?? defaultDonationSort.field;
  const ascending =
    query.ascending === undefined
      ? defaultDonationSort.ascending
      : query.ascending === 'true' || query.ascending === '1';
  const order = ascending ? asc : desc;

  // The tiles count the filters without the status group; the total is all of them, or the
  // chosen tile's count. Both come from one per-status count (statusCounts), asked beside the page.
  const [rows, countRows] = await Promise.all([
    orgIds.length > 1 && (sortField === 'donated_at' || sortField === 'amount')
      ? selectDonations(db)
          .where(
            inArray(
              donations.id,
              pageInIndexOrder(mergeableSorts[sortField], orgIds, listFilters, ascending, page, perPage),
            ),
          )
          .orderBy(order(mergeableSorts[sortField]), order(donations.id))
      : selectDonations(db)
          .where(and(...listFilters))
          .orderBy(order(sortColumns[sortField]), order(donations.id))
          .limit(perPage)
          .offset((page - 1) * perPage),
    statusCounts(db, orgIds, query, filters),
  ]);
  const counts = Object.fromEntries(statusGroupIds.map((g) => [g, countIn(countRows, g)])) as DonationCounts;
  const total = countIn(countRows, query['filters[status_group]']);
  return { donations: rows.map((row) => toDonation(row)), total, counts };
}

/** The matches of a tile (a status group) among per-status counts, or of every status. */
function countIn(counts: Map<number, number>, group: StatusGroup | undefined): number {
  const chosen: readonly number[] = group ? statusGroups[group].statuses : [...counts.keys()];
  return chosen.reduce((sum, status) => sum + (counts.get(status) ?? 0), 0);
}

/**
 * How many matches the list's filters select (the list's total, as listDonations gives it).
 * `base` is donationFilterConditions' `base`.
 */
export async function donationTotal(
  db: Db,
  orgIds: number[],
  query: DonationListQuery,
  base: SQL[],
): Promise<number> {
  return countIn(await statusCounts(db, orgIds, query, base), query['filters[status_group]']);
}

/**
 * How many matches the list's filters (without the status group) select, per status. The
 * triggers' running counts answer the common cases without reading the gifts: no filter
 * (donation_status_totals), dates only (donation_day_stats: the filters' days are UTC days, as
 * its are) and 'company contains' alone (donation_company_stats, whose names a trigram index
 * finds). Any other mix counts the gifts themselves (the donor filter's through an index that
 * carries organization and status, so the table is not read).
 */
async function statusCounts(
  db: Db,
  orgIds: number[],
  query: DonationListQuery,
  filters: SQL[],
): Promise<Map<number, number>> {
  const from = query['filters[dateFrom]'];
  const to = query['filters[dateTo]'];
  const company = query['filters[company]']?.trim();
  // Any other filter (donor, minimum, and any added later) counts the gifts themselves: the
  // running counts know only organization, day, company name and status.
  const countedByStats = new Set([
    'filters[dateFrom]',
    'filters[dateTo]',
    'filters[company]',
    'filters[status_group]',
  ]);
  const others = Object.entries(query).some(
    ([key, value]) =>
      key.startsWith('filters[') &&
      !countedByStats.has(key) &&
      typeof value === 'string' &&
      value.trim() !== '',
  );
  const orgs = (column: SQLWrapper) => sql`${column} in ${orgIds}`;
  const n = (count: SQLWrapper) => sql<number>`coalesce(sum(${count}), 0)::int`;
  let rows: Array<{ status_id: number; n: number }>;
  if (!others && !company && !from && !to)
    rows = await db
      .select({ status_id: donationStatusTotals.status_id, n: n(donationStatusTotals.count) })
      .from(donationStatusTotals)
      .where(orgs(donationStatusTotals.organization_id))
      .groupBy(donationStatusTotals.status_id);
  else if (!others && !company)
    rows = await db
      .select({ status_id: donationDayStats.status_id, n: n(donationDayStats.count) })
      .from(donationDayStats)
      .where(
        and(
          orgs(donationDayStats.organization_id),
          from ? gte(donationDayStats.day, from) : undefined,
          to ? lte(donationDayStats.day, to) : undefined,
        ),
      )
      .groupBy(donationDayStats.status_id);
  else if (!others && company && !from && !to)
    rows = await db
      .select({ status_id: donationCompanyStats.status_id, n: n(donationCompanyStats.count) })
      .from(donationCompanyStats)
      .where(
        and(
          orgs(donationCompanyStats.organization_id),
          sql`${donationCompanyStats.company} like ${contains(company)}`,
        ),
      )
      .groupBy(donationCompanyStats.status_id);
  else
    rows = await db
      .select({ status_id: donations.status_id, n: sql<number>`count(*)::int` })
      .from(donations)
      .where(and(...filters))
      .groupBy(donations.status_id);
  return new Map(rows.map((r) => [r.status_id, Number(r.n)]));
}

/** The sorts with an (organization_id, column, id) index, which pageInIndexOrder can merge. */
const mergeableSorts = { donated_at: donations.donated_at, amount: donations.amount_cents } as const;

/**
 * The ids of one page across a parent and its chapters, in the order of an indexed column.
 * `organization_id in (...)` cannot walk the (organization_id, column, id) index in order, so
 * PostgreSQL would sort every row of the family for each page (100 ms and more at 333,000
 * matches). Instead each organization gives its first offset + per_page rows in index order and a
 * merge keeps the page: a few milliseconds however large the family. The filters apply inside
 * each branch (the organization condition is repeated there and is harmless).
 */
function pageInIndexOrder(
  column: (typeof mergeableSorts)[keyof typeof mergeableSorts],
  orgIds: number[],
  conditions: SQL[],
  ascending: boolean,
  page: number,
  perPage: number,
): SQL {
  const direction = ascending ? sql`asc` : sql`desc`;
  const enough = page * perPage;
  const branches = orgIds.map(
    (id) =>
      sql`(select ${donations.id}, ${column} as sort_key from ${donations} where ${and(eq(donations.organization_id, id), ...conditions)} order by ${column} ${direction}, ${donations.id} ${direction} limit ${enough})`,
  );
  return sql`(select merged.id from (${sql.join(branches, sql` union all `)}) as merged order by merged.sort_key ${direction}, merged.id ${direction} limit ${perPage} offset ${(page - 1) * perPage})`;
}

/** Matches meeting the conditions, in id order (the public API's cursor pages). */
export async function donationsInIdOrder(
  db: Queryable,
  conditions: SQL[],
  limit: number,
): Promise<Donation[]> {
  const rows = await selectDonations(db)
    .where(and(...conditions))
    .orderBy(asc(donations.id))
    .limit(limit);
  return rows.map((row) => toDonation(row));
}

/** The organization a donation belongs to (the guard's lookup), or 404. */
export async function donationOrganization(db: Queryable, donationId: number): Promise<number> {
  const [row] = await db
    .select({ organization_id: donations.organization_id })
    .from(donations)
    .where(eq(donations.id, donationId));
  if (!row) throw new HttpError(404, donationMessages.notFound);
  return row.organization_id;
}

/** The organizations of several donations; 404 (for all) when any does not exist. */
export async function donationsOrganizations(
  db: Queryable,
  donationIds: readonly number[],
): Promise<number[]> {
  const ids = [...new Set(donationIds)];
  const rows = await db
    .select({ id: donations.id, organization_id: donations.organization_id })
    .from(donations)
    .where(inArray(donations.id, ids));
  if (rows.length !== ids.length) throw new HttpError(404, donationMessages.notFound);
  return [...new Set(rows.map((r) => r.organization_id))];
}

export async function getDonation(db: Queryable, donationId: number): Promise<{ donation: Donation }> {
  const [row] = await selectDonations(db).where(eq(donations.id, donationId));
  if (!row) throw new HttpError(404, donationMessages.notFound);
  // The match's three dependent reads are independent of each other: ask for them together.
  const [children, notifications, recurringHistory, billingRate, emailCorrection] = await Promise.all([
    db
      .select({ id: organizations.id, name: organizations.name })
      .from(organizations)
      .where(eq(organizations.parent_id, row.organization_id))
      .orderBy(asc(organizations.name), asc(organizations.id)),
    notificationsOf(db, donationId),
    recurringHistoryOf(db, row),
    perMatchRateOf(db, row.organization_id),
    emailCorrectionOf(db, donationId),
  ]);
  return {
    donation: {
      ...toDonation(row, children, notifications, recurringHistory),
      billing_rate: billingRate,
      email_correction: emailCorrection,
    },
  };
}

/** The latest misspelt-domain correction of the donor's email, from the employer history. */
async function emailCorrectionOf(db: Queryable, donationId: number): Promise<Donation['email_correction']> {
  const [r] = await db
    .select({
      from: donationEmployerEvents.email_from,
      to: donationEmployerEvents.email_to,
      at: donationEmployerEvents.at,
    })
    .from(donationEmployerEvents)
    .where(
      and(
        eq(donationEmployerEvents.donation_id, donationId),
        eq(donationEmployerEvents.kind, 'email_corrected'),
      ),
    )
    .orderBy(desc(donationEmployerEvents.at), desc(donationEmployerEvents.id))
    .limit(1);
  return r?.from && r.to ? { from: r.from, to: r.to, at: r.at.toISOString() } : null;
}

/** spec: "notifications (id, created_at, subject, first_open)" of one match, newest first. */
async function notificationsOf(db: Queryable, donationId: number): Promise<Donation['notifications']> {
  const rows = await db
    .select({
      id: donationNotifications.id,
      created_at: donationNotifications.created_at,
      subject: donationNotifications.subject,
      first_open: donationNotifications.first_open,
      kind: donationNotifications.kind,
      stage: donationNotifications.stage,
    })
    .from(donationNotifications)
    // A queued email (an import's, rendered once it committed) is listed once it is made.
    .where(and(eq(donationNotifications.donation_id, donationId), eq(donationNotifications.queued, false)))
    .orderBy(desc(donationNotifications.created_at), desc(donationNotifications.id));
  return rows.map((r) => ({
    id: r.id,
    created_at: r.created_at.toISOString(),
    subject: r.subject ?? '',
    first_open: r.first_open?.toISOString() ?? null,
    kind: r.kind as NonNullable<Donation['notifications'][number]['kind']>,
    stage: r.stage,
  }));
}

/**
 * spec: "recurring_history rows (created_at, donated_at, amount, id)": the other gifts of the same
 * recurring series (same recurring_id, same organization), newest first. The list leaves them out.
 */
async function recurringHistoryOf(db: Queryable, row: Row): Promise<Donation['recurring_history']> {
  if (!row.recurring_id) return [];
  const gifts = await db
    .select({
      id: donations.id,
      created_at: donations.created_at,
      donated_at: donations.donated_at,
      amount_cents: donations.amount_cents,
    })
    .from(donations)
    .where(
      and(
        eq(donations.organization_id, row.organization_id),
        eq(donations.recurring_id, row.recurring_id),
        ne(donations.id, row.id),
      ),
    )
    .orderBy(desc(donations.donated_at), desc(donations.id))
    .limit(500);
  return gifts.map((g) => ({
    id: g.id,
    created_at: g.created_at.toISOString(),
    donated_at: g.donated_at.toISOString(),
    amount: dollars(g.amount_cents),
  }));
}

export type CompanyRow = typeof companies.$inferSelect;

/** A catalogue company as the status resolution table reads it. */
export const resolutionCompany = (company: CompanyRow | null) =>
  company && {
    program: company.program as ProgramState,
    match_method: company.match_method as MatchMethod | null,
    minimum_match_cents: company.minimum_match_cents,
    excluded_organization_types: company.excluded_organization_types,
  };

/** The catalogue company of a match: the id given, else an exact (any case) match of the name typed. */
async function findCompany(tx: Tx, body: DonationWrite): Promise<CompanyRow | null> {
  if (body.company_id) {
    const [company] = await tx.select().from(companies).where(eq(companies.id, body.company_id));
    if (!company) throw new HttpError(400, donationMessages.companyNotFound);
    return company;
  }
  const name = body.company_name?.trim();
  if (!name) return null;
  const [company] = await tx
    .select()
    .from(companies)
    .where(sql`lower(${companies.name}) = ${name.toLowerCase()}`);
  return company ?? null;
}

async function resolveFor(
  tx: Tx,
  orgId: number,
  company: CompanyRow | null,
  amountCents: number,
  recurring: boolean,
) {
  const [org] = await tx
    .select({
      deactivated: organizations.rule_deactivated,
      complete: organizations.complete,
      type: organizations.type,
    })
    .from(organizations)
    .where(eq(organizations.id, orgId));
  if (!org) throw new HttpError(404, donationMessages.notFound);
  const status = resolveStatus({
    organization: org,
    company: resolutionCompany(company),
    amount_cents: amountCents,
    recurring,
  });
  return status;
}

/**
 * The organization's matches held by its own state (NPO Registration Incomplete, NPO Disabled)
 * resolved again, after that state changed (setup marked complete): each gets the status its
 * company calls for, a history row and, where that status asks the donor to act, the donor email.
 * Without this they would wait at a status no tile counts and no action moves.
 */
export async function resolveHeldMatches(
  tx: Tx,
  orgId: number,
  userId: number | null,
  notifier: MatchNotifier,
): Promise<number[]> {
  const [organization] = await tx
    .select({
      deactivated: organizations.rule_deactivated,
      complete: organizations.complete,
      type: organizations.type,
    })
    .from(organizations)
    .where(eq(organizations.id, orgId));
  if (!organization) return [];
  const held = await tx
    .select({ match: donations, company: companies })
    .from(donations)
    .leftJoin(companies, eq(companies.id, donations.company_id))
    .where(
      and(
        eq(donations.organization_id, orgId),
        inArray(donations.status_id, [statusIdOf.registrationIncomplete, statusIdOf.npoDisabled]),
      ),
    )
    .for('update', { of: donations });
  const terms = await campaignTermsOf(
    tx,
    [orgId],
    held.flatMap((h) => (h.company ? [h.company.id] : [])),
  );
  const moved: {
    donation_id: number;
    from_status_id: number;
    to_status_id: number;
    user_id: number | null;
  }[] = [];
  for (const { match, company } of held) {
    const status = resolveStatus({
      organization,
      company: resolutionCompany(company),
      amount_cents: match.amount_cents,
      recurring: match.recurring_id !== null,
    });
    if (status === match.status_id) continue;
    await tx
      .update(donations)
      .set({ status_id: status, ...estimateOf(status, match, company, terms) })
      .where(eq(donations.id, match.id));
    moved.push({
      donation_id: match.id,
      from_status_id: match.status_id,
      to_status_id: status,
      user_id: userId,
    });
  }
  if (moved.length === 0) return [];
  await tx.insert(donationStatusHistory).values(moved);
  const ids = moved.map((m) => m.donation_id);
  await notifier.notify(tx, ids);
  return ids;
}

/**
 * spec (FAQ): "below-minimum donations: give again to the same nonprofit; the system merges
 * below-minimum donations". When a donor's below-minimum gifts to this organization through the
 * same company (the new one included) add up to the company's minimum, the new match becomes one
 * request for their sum, resolved again (and so emailed as that status asks); the earlier gifts
 * stay as they were, pointing to it (custom.history.merged_into), and the request lists them
 * (custom.history.merged_from), so the history is kept. Runs in the new match's transaction,
 * with the donor's matches locked, so two gifts arriving together merge once.
 */
export async function mergeBelowMinimum(
  tx: Tx,
  orgId: number,
  newId: number,
  donorId: number,
  company: CompanyRow,
  userId: number | null,
  source: StatusChangeSource,
) {
  if (company.minimum_match_cents === null) return;
  const open = await tx
    .select({
      id: donations.id,
      amount_cents: donations.amount_cents,
      donated_at: donations.donated_at,
      custom: donations.custom,
    })
    .from(donations)
    .where(
      and(
        eq(donations.organization_id, orgId),
        eq(donations.donor_id, donorId),
        eq(donations.company_id, company.id),
        eq(donations.status_id, statusIdOf.belowMinimum),
        sql`${donations.custom} -> 'history' -> 'merged_into' is null`,
      ),
    )
    .orderBy(asc(donations.donated_at), asc(donations.id))
    .for('update');
  const total = open.reduce((sum, d) => sum + d.amount_cents, 0);
  if (open.length < 2 || total < company.minimum_match_cents) return;
  const status = await resolveFor(tx, orgId, company, total, false);
  const mergedFrom = open.map((d) => ({
    id: d.id,
    amount: d.amount_cents / 100,
    donated_at: d.donated_at.toISOString(),
  }));
  const [target] = open.filter((d) => d.id === newId);
  if (!target) return;
  const terms = await campaignsFor(tx, orgId, company);
  await tx
    .update(donations)
    .set({
      amount_cents: total,
      ...estimateOf(
        status,
        { organization_id: orgId, amount_cents: total, donated_at: target.donated_at },
        company,
        terms,
      ),
      status_id: status,
      custom: { ...target.custom, history: { ...historyOf(target.custom), merged_from: mergedFrom } },
    })
    .where(eq(donations.id, newId));
  await tx.insert(donationStatusHistory).values({
    donation_id: newId,
    from_status_id: statusIdOf.belowMinimum,
    to_status_id: status,
    user_id: userId,
    source,
  });
  for (const d of open.filter((o) => o.id !== newId))
    await tx
      .update(donations)
      .set({ custom: { ...d.custom, history: { ...historyOf(d.custom), merged_into: newId } } })
      .where(eq(donations.id, d.id));
}

const historyOf = (custom: Record<string, unknown>): Record<string, unknown> =>
  custom.history && typeof custom.history === 'object' ? (custom.history as Record<string, unknown>) : {};

/**
 * The estimated match of a gift through a catalogue company and the campaign whose terms it took
 * (status-resolution.ts: coveringCampaign, estimatedMatchCents), given the campaigns that might
 * cover it (`campaignTermsOf`).
 */
export function estimateOf(
  status: StatusId | number,
  gift: { organization_id: number; amount_cents: number; donated_at: Date },
  company: CompanyRow | null,
  terms: readonly CampaignTerms[],
): { matched_cents: number; campaign_id: number | null } {
  const campaign = company ? coveringCampaign(terms, { ...gift, company_id: company.id }) : null;
  return {
    matched_cents: estimatedMatchCents(
      status as StatusId,
      gift.amount_cents,
      company && {
        match_ratio: Number(company.match_ratio),
        maximum_match_cents: company.maximum_match_cents,
      },
      campaign && { ratio: campaign.ratio, max_cents: campaign.max_cents },
    ),
    campaign_id: campaign?.id ?? null,
  };
}

/** The campaigns of an organization that might cover a gift at this company. */
export const campaignsFor = (db: Queryable, orgId: number, company: CompanyRow | null) =>
  company ? campaignTermsOf(db, [orgId], [company.id]) : Promise.resolve([]);

function donatedAt(text: string): Date {
  const date = new Date(text);
  const year = date.getUTCFullYear();
  if (Number.isNaN(date.getTime()) || year < 1900 || year > 2200)
    throw new HttpError(400, 'donated_at must be a date and time between 1900 and 2200');
  return date;
}

function cleanCustom(custom: Record<string, unknown> | undefined, kept: Record<string, unknown> = {}) {
  const editable = Object.fromEntries(
    Object.entries(custom ?? {}).filter(([key]) => !(hiddenCustomKeys as readonly string[]).includes(key)),
  );
  const hidden = Object.fromEntries(
    Object.entries(kept).filter(([key]) => (hiddenCustomKeys as readonly string[]).includes(key)),
  );
  const merged = { ...editable, ...hidden };
  if (JSON.stringify(merged).includes('\\u0000'))
    throw new HttpError(400, 'custom: Text cannot contain NUL characters');
  return merged;
}

/**
 * A match write in one transaction. Its transaction id is checked first (assertTransactionFree);
 * a concurrent write that took the id meanwhile meets the unique index, answered the same way.
 */
async function writeMatch<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  try {
    return await db.transaction(work);
  } catch (error) {
    if (isUniqueViolation(error, 'donations_org_transaction_unique'))
      throw new HttpError(409, donationMessages.duplicateTransaction);
    throw error;
  }
}

async function assertTransactionFree(tx: Tx, orgId: number, transactionId: string | null, exceptId?: number) {
  if (!transactionId) return;
  const [clash] = await tx
    .select({ id: donations.id })
    .from(donations)
    .where(and(eq(donations.organization_id, orgId), eq(donations.transaction_id, transactionId)));
  if (clash && clash.id !== exceptId) throw new HttpError(409, donationMessages.duplicateTransaction);
}

/** The donor of the organization with this email (their name updated), or a new donor. */
async function donorFor(tx: Tx, orgId: number, donor: DonationWrite['donor'], currentId: number | null) {
  const email = donor.email?.trim().toLowerCase() || null;
  const name = donor.name.trim();
  if (currentId !== null) {
    const [current] = await tx.select().from(donors).where(eq(donors.id, currentId));
    if (current && current.email === email) {
      await tx.update(donors).set({ name }).where(eq(donors.id, current.id));
      return current.id;
    }
  }
  if (email) {
    const [known] = await tx
      .select({ id: donors.id })
      .from(donors)
      .where(and(eq(donors.organization_id, orgId), eq(donors.email, email)))
      .limit(1);
    if (known) {
      await tx.update(donors).set({ name }).where(eq(donors.id, known.id));
      return known.id;
    }
  }
  const [created] = await tx.insert(donors).values({ organization_id: orgId, name, email }).returning();
  if (!created) throw new Error('donor insert returned nothing');
  return created.id;
}

/** spec: "POST /api/organization/{id}/donation (create, id 0) … Response includes donation." */
/**
 * `userId` is the staff member acting, or null with `source` naming who else did (a donor's request
 * on the public matching page).
 */
export async function createDonation(
  db: Db,
  orgId: number,
  userId: number | null,
  body: DonationWrite,
  source: StatusChangeSource = 'staff',
  /** Given, the donor is emailed when the new match's status calls for it (not by the seed). */
  notifier?: MatchNotifier,
) {
  if (body.id !== undefined && body.id !== 0)
    throw new HttpError(400, 'id must be 0 (or left out) to create a match');
  const when = donatedAt(body.donated_at);
  const amountCents = toCents(body.amount);
  const transactionId = body.transaction_id?.trim() || null;
  const id = await writeMatch(db, async (tx) => {
    await assertTransactionFree(tx, orgId, transactionId);
    // The employer identification (issue #31): a typed employer or the donor's email may name a
    // catalogue company in any spelling; a misspelt common email domain is corrected.
    const employer = await employerForMatch(tx, orgId, body);
    if (body.company_id && !employer) throw new HttpError(400, donationMessages.companyNotFound);
    const company = employer?.company ?? null;
    const recurringId = body.recurring_id?.trim() || null;
    const status = await resolveFor(tx, orgId, company, amountCents, recurringId !== null);
    const donorId = await donorFor(
      tx,
      orgId,
      { ...body.donor, email: employer?.email ?? body.donor.email },
      null,
    );
    const estimate = estimateOf(
      status,
      { organization_id: orgId, amount_cents: amountCents, donated_at: when },
      company,
      await campaignsFor(tx, orgId, company),
    );
    const [row] = await tx
      .insert(donations)
      .values({
        organization_id: orgId,
        donor_id: donorId,
        company_id: company?.id ?? null,
        company_name: company?.name ?? (body.company_name?.trim() || null),
        amount_cents: amountCents,
        ...estimate,
        donated_at: when,
        transaction_id: transactionId,
        status_id: status,
        custom: cleanCustom(body.custom),
        recurring_id: recurringId,
        silenced: body.silenced ?? false,
        ...employerColumns(employer),
      })
      .returning({ id: donations.id });
    if (!row) throw new Error('donation insert returned nothing');
    await tx
      .insert(donationStatusHistory)
      .values({ donation_id: row.id, from_status_id: null, to_status_id: status, user_id: userId, source });
    await recordMatchEmployer(tx, orgId, row.id, employer, userId, source);
    if (status === statusIdOf.belowMinimum && company && donorId !== null)
      await mergeBelowMinimum(tx, orgId, row.id, donorId, company, userId, source);
    await webhookEvents.statusChanged(tx, [row.id]);
    if (notifier) await notifier.notify(tx, [row.id]);
    return row.id;
  });
  return getDonation(db, id);
}

/**
 * spec: "PUT /api/donation/{id} … reprocess true for Save & Re-Email". The status is resolved
 * again when the company changes or reprocess is asked for; otherwise it stays as it is.
 */
/** `userId` is the staff member acting, or null with `source` naming who else did (the donor). */
export async function updateDonation(
  db: Db,
  donationId: number,
  userId: number | null,
  body: DonationWrite,
  source: StatusChangeSource = 'staff',
  /** Given, a resolved status (reprocess, Save & Re-Email, or a new company) emails the donor. */
  notifier?: MatchNotifier,
) {
  if (body.id !== undefined && body.id !== donationId) throw new HttpError(400, 'id does not match the URL');
  const when = donatedAt(body.donated_at);
  const amountCents = toCents(body.amount);
  await writeMatch(db, async (tx) => {
    const [current] = await tx.select().from(donations).where(eq(donations.id, donationId)).for('update');
    if (!current) throw new HttpError(404, donationMessages.notFound);
    const orgId = current.organization_id;
    const transactionId =
      body.transaction_id === undefined ? current.transaction_id : body.transaction_id?.trim() || null;
    await assertTransactionFree(tx, orgId, transactionId, donationId);
    const company =
      body.company_id === undefined && body.company_name === undefined
        ? current.company_id === null
          ? null
          : ((await tx.select().from(companies).where(eq(companies.id, current.company_id)))[0] ?? null)
        : await findCompany(tx, body);
    const companyName =
      company?.name ??
      (body.company_name === undefined ? current.company_name : body.company_name?.trim() || null);
    const recurringId =
      body.recurring_id === undefined ? current.recurring_id : body.recurring_id?.trim() || null;
    const companyChanged = (company?.id ?? null) !== current.company_id;
    const status =
      body.reprocess || companyChanged
        ? await resolveFor(tx, orgId, company, amountCents, recurringId !== null)
        : current.status_id;
    const donorId = await donorFor(tx, orgId, body.donor, current.donor_id);
    const estimate = estimateOf(
      status,
      { organization_id: orgId, amount_cents: amountCents, donated_at: when },
      company,
      await campaignsFor(tx, orgId, company),
    );
    await tx
      .update(donations)
      .set({
        donor_id: donorId,
        company_id: company?.id ?? null,
        company_name: companyName,
        amount_cents: amountCents,
        ...estimate,
        donated_at: when,
        transaction_id: transactionId,
        status_id: status,
        custom: body.custom === undefined ? current.custom : cleanCustom(body.custom, current.custom),
        recurring_id: recurringId,
        silenced: body.silenced ?? current.silenced,
      })
      .where(eq(donations.id, donationId));
    if (status !== current.status_id) {
      await tx.insert(donationStatusHistory).values({
        donation_id: donationId,
        from_status_id: current.status_id,
        to_status_id: status,
        user_id: userId,
        source,
      });
      // A billed match that is no longer a chargeable request leaves its open bill (bills.ts).
      await releaseIfUnchargeable(tx, current, status);
      await webhookEvents.statusChanged(tx, [donationId]);
    }
    if (notifier && (body.reprocess || companyChanged)) await notifier.notify(tx, [donationId]);
  });
  return getDonation(db, donationId);
}

export async function removeDonation(db: Db, donationId: number) {
  const deleted = await db
    .delete(donations)
    .where(eq(donations.id, donationId))
    .returning({ id: donations.id });
  if (deleted.length === 0) throw new HttpError(404, donationMessages.notFound);
  return { message: donationMessages.deleted };
}

const confirmedStatus: Record<ConfirmStatus, StatusId> = {
  submitted: statusIdOf.submitted,
  'no-charge': statusIdOf.noCharge,
  refunded: statusIdOf.refunded,
};

/**
 * spec: "POST /api/donation/confirm, body donation_ids, status": each match moves to Submitted,
 * No Charge or Refunded, with a history row, all or none (the guard has checked every one).
 */
/** `userId` is the staff member acting, or null with `source` naming who else did (a partner's API call). */
export async function confirmDonations(
  db: Db,
  userId: number | null,
  body: ConfirmRequest,
  now = new Date(),
  source: StatusChangeSource = 'staff',
) {
  const to = confirmedStatus[body.status];
  const ids = [...new Set(body.donation_ids)];
  await db.transaction(async (tx) => {
    const rows = await tx
      .select(billingStateColumns)
      .from(donations)
      .where(inArray(donations.id, ids))
      .for('update');
    if (rows.length !== ids.length) throw new HttpError(404, donationMessages.notFound);
    // No Charge and Refund are for unbilled and billed matches respectively (server/modules/billing/bills.ts).
    const conflict = billingConflict(body.status, rows);
    if (conflict) throw new HttpError(400, conflict);
    const changing = rows.filter((r) => r.status_id !== to);
    await moveMatches(tx, userId, changing, to, now, null, source);
  });
  return { message: donationMessages.confirmed, donation_ids: ids, status_id: to };
}

/** A match row as moveMatches reads it (locked by the caller). */
export type MovableMatch = {
  id: number;
  organization_id: number;
  status_id: number;
  eligible_bill_id: number | null;
  processed_bill_id: number | null;
  refunded_bill_id: number | null;
};

/**
 * Moves matches to a status as the dialog's actions do, inside the caller's transaction: the new
 * status, one history row each (with the staff member and, when given, the reason), the webhook
 * event, and the bill (Submitted counts on this month's bill, Refunded is credited, any other
 * unchargeable status leaves an open bill). The verification queue and payouts use it too.
 */
export async function moveMatches(
  tx: Tx,
  userId: number | null,
  rows: readonly MovableMatch[],
  to: StatusId,
  now: Date,
  reason: string | null = null,
  source: StatusChangeSource = 'staff',
) {
  if (rows.length === 0) return;
  const ids = rows.map((r) => r.id);
  await tx.update(donations).set({ status_id: to }).where(inArray(donations.id, ids));
  await tx.insert(donationStatusHistory).values(
    rows.map((r) => ({
      donation_id: r.id,
      from_status_id: r.status_id,
      to_status_id: to,
      user_id: userId,
      reason,
      source,
    })),
  );
  await webhookEvents.statusChanged(tx, ids);
  if (to === statusIdOf.submitted) await countSubmitted(tx, [...rows], now);
  else if (to === statusIdOf.refunded) await creditRefunds(tx, [...rows], now);
  else for (const row of rows) await releaseIfUnchargeable(tx, row, to);
}
