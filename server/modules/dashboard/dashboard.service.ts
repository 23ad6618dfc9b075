import { format, startOfYear } from 'date-fns';
import { and, eq, gte, inArray, isNotNull, lt, type SQL, sql } from 'drizzle-orm';
import {
  ageingBuckets,
  type DashboardVisitResponse,
  type FeatureRequestBody,
  type FeatureRequestCounts,
  featureOptions,
  type GroupStats,
  giftTiers,
  type InsightsResponse,
  type StatisticsQuery,
  type StatisticsResponse,
  type TiersResponse,
} from '../../../src/contract/dashboard.ts';
import { type StatusGroup, statusGroupIds, statusGroups } from '../../../src/contract/statuses.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { queryRows } from '../../db/rows.ts';
import {
  companies,
  dashboardVisits,
  donationAwaitingPaymentStats,
  donationCompanyMonthStats,
  donationDayStats,
  donationMonthStats,
  donations,
  organizations,
} from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { donationFilterConditions } from '../donations/donations.service.ts';
import { awaitingPaymentDays, expectedMonth, payoutDelays } from '../donations/expected-payment.ts';
import { descendantIds } from '../permissions/permissions.service.ts';

const emptyGroups = (): GroupStats =>
  Object.fromEntries(statusGroupIds.map((g) => [g, { sum: 0, count: 0, matched: 0 }])) as GroupStats;

/**
 * spec: "Organization stats: reads stats for organization {id} with from and to (yyyy-MM-dd) and
 * grouping by_status; response donor_contacted, npo_verify, engaged_submitted, no_response, each
 * with sum and count." The range and the organizations are the donations list's own filter
 * conditions (dateFrom/dateTo, the organization and its chapters), and the groups its tiles'
 * table, so the overview and the list's tiles always agree on the same dates. Without dates the
 * range is the spec's default, Jan 1 of this year to today (UTC).
 */
export async function statistics(
  db: Queryable,
  orgId: number,
  query: StatisticsQuery,
  now = new Date(),
): Promise<StatisticsResponse> {
  const from = query.from ?? format(startOfYear(now), 'yyyy-MM-dd');
  const to = query.to ?? now.toISOString().slice(0, 10);
  if (from > to) throw new HttpError(400, 'from must be on or before to');
  // The donations list's own check of the dates and its organizations (the parent and its chapters).
  const { orgIds } = await donationFilterConditions(db, orgId, {
    'filters[dateFrom]': from,
    'filters[dateTo]': to,
  });
  const aggregates: SQL[] = statusGroupIds.map((g) => {
    const inGroup = sql`status_id in (${sql.join(
      statusGroups[g].statuses.map((id) => sql`${id}`),
      sql`, `,
    )})`;
    return sql`coalesce(sum(count) filter (where ${inGroup}), 0)::bigint as ${sql.raw(`${g}_count`)},
               coalesce(sum(amount_cents) filter (where ${inGroup}), 0)::bigint as ${sql.raw(`${g}_sum`)},
               coalesce(sum(matched_cents) filter (where ${inGroup}), 0)::bigint as ${sql.raw(`${g}_matched`)}`;
  });
  // The running totals (kept by triggers on donations) cover the same UTC days the list's
  // dateFrom/dateTo filter covers: the whole months of the range from the monthly totals, the
  // partial months at its edges from the daily ones.
  const [rows, names] = await Promise.all([
    queryRows<Record<string, unknown> & { organization_id: number }>(
      db,
      sql`select organization_id, ${sql.join(aggregates, sql`, `)}
            from (${statusTotals(orgIds, from, to)}) totals
           group by organization_id`,
    ),
    db
      .select({ id: organizations.id, name: organizations.name })
      .from(organizations)
      .where(inArray(organizations.id, orgIds)),
  ]);
  const total = emptyGroups();
  const perOrg = new Map<number, GroupStats>(orgIds.map((id) => [id, emptyGroups()]));
  for (const row of rows) {
    const groups = perOrg.get(Number(row.organization_id));
    if (!groups) continue;
    for (const g of statusGroupIds) add(groups, total, g, row);
  }
  const nameOf = new Map(names.map((n) => [n.id, n.name]));
  const dollars = (groups: GroupStats): GroupStats =>
    Object.fromEntries(
      statusGroupIds.map((g) => [
        g,
        { count: groups[g].count, sum: groups[g].sum / 100, matched: groups[g].matched / 100 },
      ]),
    ) as GroupStats;
  return {
    ...dollars(total),
    from,
    to,
    organizations: orgIds.map((id) => ({
      id,
      name: nameOf.get(id) ?? '',
      groups: dollars(perOrg.get(id) ?? emptyGroups()),
    })),
  };
}

/** Adds one organization's row (cents) to its own figures and to the total. */
function add(groups: GroupStats, total: GroupStats, g: StatusGroup, row: Record<string, unknown>) {
  const count = Number(row[`${g}_count`] ?? 0);
  const sum = Number(row[`${g}_sum`] ?? 0);
  const matched = Number(row[`${g}_matched`] ?? 0);
  for (const target of [groups[g], total[g]]) {
    target.count += count;
    target.sum += sum;
    target.matched += matched;
  }
}

/**
 * spec: "Feature request save: sends the whole organization with custom.amply.feature set". We
 * send only the choice and set that one key in SQL, so a feature request can never overwrite the
 * organization's other settings (or need the admin level that editing the organization needs).
 */
export async function saveFeatureRequest(
  db: Db,
  orgId: number,
  body: FeatureRequestBody,
): Promise<{ feature: string }> {
  const amply = sql`case when jsonb_typeof(${organizations.custom} -> 'amply') = 'object' then ${organizations.custom} -> 'amply' else '{}'::jsonb end`;
  await db
    .update(organizations)
    .set({
      custom: sql`jsonb_set(${organizations.custom}, '{amply}', ${amply} || jsonb_build_object('feature', ${body.feature}::text))`,
    })
    .where(eq(organizations.id, orgId));
  return { feature: body.feature };
}

/** For super users: how many organizations chose each option (every option listed, most chosen first). */
export async function featureRequestCounts(db: Queryable): Promise<FeatureRequestCounts> {
  const feature = sql<string>`${organizations.custom} -> 'amply' ->> 'feature'`;
  const rows = await db
    .select({ value: feature, count: sql<number>`count(*)::int` })
    .from(organizations)
    .where(sql`${feature} is not null`)
    .groupBy(feature);
  const counted = new Map<string, number>(rows.map((r) => [r.value, Number(r.count)]));
  const counts: Array<{ value: string; count: number }> = featureOptions.map((o) => ({
    value: o.value,
    count: counted.get(o.value) ?? 0,
  }));
  // Values no longer offered still count: they were someone's request.
  for (const [value, count] of counted)
    if (!featureOptions.some((o) => o.value === value)) counts.push({ value, count });
  counts.sort((a, b) => b.count - a.count);
  return { counts, total: counts.reduce((n, c) => n + c.count, 0) };
}

/**
 * The unseen summary: the gifts recorded (created) since `since` for the organization with its
 * chapters, counted and summed by gift tier. A future `since` or one before 2000 is refused.
 */
export async function tiers(
  db: Queryable,
  orgId: number,
  sinceText: string,
  now = new Date(),
): Promise<TiersResponse> {
  const since = new Date(sinceText);
  if (Number.isNaN(since.getTime()) || since > now || since.getUTCFullYear() < 2000)
    throw new HttpError(400, 'since must be a time in the past');
  const orgIds = [orgId, ...(await descendantIds(db, orgId))];
  const aggregates: Record<string, SQL<number>> = {};
  for (const tier of giftTiers) {
    const inTier =
      tier.max === null
        ? sql`${donations.amount_cents} >= ${tier.min * 100}`
        : sql`${donations.amount_cents} >= ${tier.min * 100} and ${donations.amount_cents} < ${tier.max * 100}`;
    aggregates[`${tier.id}_count`] = sql<number>`count(*) filter (where ${inTier})::int`;
    aggregates[`${tier.id}_sum`] =
      sql<number>`coalesce(sum(${donations.amount_cents}) filter (where ${inTier}), 0)::bigint`;
  }
  const [row] = await db
    .select(aggregates)
    .from(donations)
    .where(and(inArray(donations.organization_id, orgIds), gte(donations.created_at, since)));
  const value = (key: string) => Number((row as Record<string, unknown> | undefined)?.[key] ?? 0);
  return {
    since: since.toISOString(),
    tiers: giftTiers.map((t) => ({
      id: t.id,
      count: value(`${t.id}_count`),
      sum: value(`${t.id}_sum`) / 100,
    })),
  };
}

/**
 * The figures below the tiles: a monthly trend of requested and submitted match dollars, the
 * ageing of open requests (days from the gift to `to`), and the ten companies with the most
 * requested match dollars with the part that reached Submitted. Same organizations and dates as
 * the overview (the donations list's own conditions), so each figure's link shows its matches.
 */
export async function insights(
  db: Queryable,
  orgId: number,
  query: StatisticsQuery,
  now = new Date(),
): Promise<InsightsResponse> {
  const from = query.from ?? format(startOfYear(now), 'yyyy-MM-dd');
  const to = query.to ?? now.toISOString().slice(0, 10);
  if (from > to) throw new HttpError(400, 'from must be on or before to');
  const { base, orgIds } = await donationFilterConditions(db, orgId, {
    'filters[dateFrom]': from,
    'filters[dateTo]': to,
  });
  // The trend and the ageing read the running totals (whole months by month, the partial months
  // at the edges by day); only the forecast and the edges of the top companies read matches.
  const submitted = sql.join(
    statusGroups.engaged_submitted.statuses.map((id) => sql`${id}`),
    sql`, `,
  );
  const open = sql.join(
    [...statusGroups.donor_contacted.statuses, ...statusGroups.npo_verify.statuses].map((id) => sql`${id}`),
    sql`, `,
  );
  // Ageing: days since the gift as of `to`; each bucket is a range of donation days within the range.
  const bucketRanges = ageingBuckets
    .map((b) => {
      const last = addDays(to, -b.minDays);
      const first = b.maxDays === null ? from : addDays(to, -b.maxDays);
      // Days as yyyy-MM-dd text: the later of the two.
      return { bucket: b.bucket, from: first.localeCompare(from) < 0 ? from : first, to: last };
    })
    .filter((b) => b.from <= b.to);
  const giftMonth = sql<string>`to_char(${donations.donated_at} at time zone 'UTC', 'YYYY-MM')`;
  // The trend, the top companies and the forecast count gifts up to `to`; when none of these
  // organizations' gifts is dated after it in its month (the usual case: `to` is today), the
  // month's running totals are exactly those gifts, so they read it whole instead of its matches.
  const readTo = await throughMonthEnd(db, orgIds, to);
  const [months, ageing, top, forecast, received] = await Promise.all([
    queryRows<{ month: string; requested: string; submitted: string; count: string }>(
      db,
      sql`select to_char(month, 'YYYY-MM') as month, coalesce(sum(matched_cents), 0) as requested,
                 coalesce(sum(matched_cents) filter (where status_id in (${submitted})), 0) as submitted,
                 coalesce(sum(count), 0) as count
            from (${statusTotals(orgIds, from, readTo)}) totals
           group by 1
          having sum(count) > 0
           order by 1`,
    ),
    bucketRanges.length === 0
      ? Promise.resolve([])
      : queryRows<{ bucket: string; status_id: number; count: string; matched: string }>(
          db,
          sql.join(
            bucketRanges.map(
              (
                b,
              ) => sql`select ${b.bucket}::text as bucket, status_id, sum(count) as count, sum(matched_cents) as matched
                           from (${statusTotals(orgIds, b.from, b.to)}) totals
                          where status_id in (${open})
                          group by status_id`,
            ),
            sql` union all `,
          ),
        ),
    topCompanies(db, orgIds, from, readTo),
    forecastRows(db, orgIds, from, readTo, now),
    // Received beside expected: the payments recorded from payout reports, by month of gift.
    db
      .select({ month: giftMonth, received: sql<number>`coalesce(sum(${donations.paid_cents}), 0)::bigint` })
      .from(donations)
      .where(and(...base, isNotNull(donations.paid_cents)))
      .groupBy(giftMonth),
  ]);
  const receivedIn = new Map(received.map((r) => [r.month, Number(r.received) / 100]));
  const empty = () => ({ count: 0, matched: 0 });
  const buckets = ageingBuckets.map((b) => ({
    bucket: b.bucket,
    donor_contacted: empty(),
    npo_verify: empty(),
  }));
  for (const row of ageing) {
    const target = buckets.find((b) => b.bucket === row.bucket);
    const group = (statusGroups.npo_verify.statuses as readonly number[]).includes(Number(row.status_id))
      ? 'npo_verify'
      : 'donor_contacted';
    if (!target) continue;
    target[group].count += Number(row.count);
    target[group].matched += Number(row.matched) / 100;
  }
  return {
    from,
    to,
    months: months.map((m) => ({
      month: m.month,
      requested: Number(m.requested) / 100,
      submitted: Number(m.submitted) / 100,
      count: Number(m.count),
      received: receivedIn.get(m.month) ?? 0,
    })),
    ageing: buckets,
    forecast,
    companies: top,
  };
}

/**
 * The ten companies with the most requested match dollars of the organizations' matches given
 * between the days `from` and `to`, with the part in the Submitted group. The whole UTC months of
 * the range are read from the per-company monthly totals (kept by triggers on donations); only
 * the partial months at its edges read the matches themselves.
 */
async function topCompanies(db: Queryable, orgIds: number[], from: string, to: string) {
  const next = (day: string) =>
    new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const monthStart = (day: string) => `${day.slice(0, 7)}-01`;
  const end = next(to); // exclusive
  // The whole months: from the first month starting on or after `from` to the month `end` falls in.
  const firstWhole = from.endsWith('-01') ? from : monthAfter(from);
  const lastWholeEnd = monthStart(end);
  const whole = firstWhole < lastWholeEnd;
  const matchesIn = (a: string, b: string) =>
    sql`(${donations.donated_at} >= ${`${a}T00:00:00Z`}::timestamptz and ${donations.donated_at} < ${`${b}T00:00:00Z`}::timestamptz)`;
  const edges = whole
    ? [
        firstWhole > from ? matchesIn(from, firstWhole) : null,
        end > lastWholeEnd ? matchesIn(lastWholeEnd, end) : null,
      ].filter((c): c is SQL => c !== null)
    : [matchesIn(from, end)];
  const submitted = sql`${donations.status_id} in (${sql.join(
    statusGroups.engaged_submitted.statuses.map((s) => sql`${s}`),
    sql`, `,
  )})`;
  const parts: SQL[] = [];
  if (whole)
    // Each company's months added first (about a thousand rows), then named.
    parts.push(sql`select coalesce(${companies.name}, nullif(totals.company_name, '')) as name,
             totals.requested, totals.submitted, totals.count
        from (select ${donationCompanyMonthStats.company_id} as company_id, ${donationCompanyMonthStats.company_name} as company_name,
                     sum(${donationCompanyMonthStats.matched_cents}) as requested,
                     sum(${donationCompanyMonthStats.submitted_cents}) as submitted,
                     sum(${donationCompanyMonthStats.count}) as count
                from ${donationCompanyMonthStats}
               where ${and(
                 inArray(donationCompanyMonthStats.organization_id, orgIds),
                 gte(donationCompanyMonthStats.month, firstWhole),
                 sql`${donationCompanyMonthStats.month} < ${lastWholeEnd}`,
               )}
               group by 1, 2) totals
        left join ${companies} on ${companies.id} = totals.company_id`);
  if (edges.length > 0)
    parts.push(sql`select coalesce(${companies.name}, nullif(trim(${donations.company_name}), '')) as name,
             ${donations.matched_cents}::bigint as requested,
             case when ${submitted} then ${donations.matched_cents}::bigint else 0 end as submitted, 1 as count
        from ${donations} left join ${companies} on ${companies.id} = ${donations.company_id}
       where ${inArray(donations.organization_id, orgIds)} and (${sql.join(edges, sql` or `)})`);
  const rows = await queryRows<{
    name: string;
    requested: string | number;
    submitted: string | number;
    count: string | number;
  }>(
    db,
    sql`select name, sum(requested) as requested, sum(submitted) as submitted, sum(count) as count
          from (${sql.join(parts, sql` union all `)}) figures
         where name is not null
         group by name
        having sum(count) > 0
         order by 2 desc, name
         limit 10`,
  );
  return rows.map((c) => ({
    name: c.name,
    requested: Number(c.requested) / 100,
    submitted: Number(c.submitted) / 100,
    count: Number(c.count),
  }));
}

/**
 * The last day of `to`'s month when the organizations have no gift dated after `to` in that
 * month (an index probe), else `to`: reading up to either counts the same gifts.
 */
async function throughMonthEnd(db: Queryable, orgIds: number[], to: string): Promise<string> {
  const end = addDays(to, 1);
  const next = monthAfter(to);
  if (end === next) return to;
  const later = await db
    .select({ id: donations.id })
    .from(donations)
    .where(
      and(
        inArray(donations.organization_id, orgIds),
        gte(donations.donated_at, new Date(`${end}T00:00:00Z`)),
        lt(donations.donated_at, new Date(`${next}T00:00:00Z`)),
      ),
    )
    .limit(1);
  return later.length > 0 ? to : addDays(next, -1);
}

/** `day` (yyyy-MM-dd) plus `n` days. */
function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Rows (organization_id, month, status_id, count, amount_cents, matched_cents) adding up to the organizations' matches given on
 * the days `from` to `to`: the whole UTC months from the monthly totals, the days of the partial
 * months at the edges from the daily ones. A few rows per month and status whatever the size.
 */
function statusTotals(orgIds: number[], from: string, to: string): SQL {
  const end = addDays(to, 1); // exclusive
  const firstWhole = from.endsWith('-01') ? from : monthAfter(from);
  const lastWholeEnd = `${end.slice(0, 7)}-01`;
  const days = (a: string, b: string) =>
    sql`select ${donationDayStats.organization_id} as organization_id, date_trunc('month', ${donationDayStats.day})::date as month,
               ${donationDayStats.status_id} as status_id, ${donationDayStats.count} as count,
               ${donationDayStats.amount_cents} as amount_cents, ${donationDayStats.matched_cents} as matched_cents
          from ${donationDayStats}
         where ${and(inArray(donationDayStats.organization_id, orgIds), gte(donationDayStats.day, a), sql`${donationDayStats.day} < ${b}`)}`;
  if (firstWhole >= lastWholeEnd) return days(from, end);
  const parts = [
    sql`select ${donationMonthStats.organization_id} as organization_id, ${donationMonthStats.month} as month,
               ${donationMonthStats.status_id} as status_id, ${donationMonthStats.count} as count,
               ${donationMonthStats.amount_cents} as amount_cents, ${donationMonthStats.matched_cents} as matched_cents
          from ${donationMonthStats}
         where ${and(
           inArray(donationMonthStats.organization_id, orgIds),
           gte(donationMonthStats.month, firstWhole),
           sql`${donationMonthStats.month} < ${lastWholeEnd}`,
         )}`,
  ];
  if (from < firstWhole) parts.push(days(from, firstWhole));
  if (lastWholeEnd < end) parts.push(days(lastWholeEnd, end));
  return sql.join(parts, sql` union all `);
}

/** The first day of the month after `day`'s (yyyy-MM-dd). */
function monthAfter(day: string): string {
  const year = Number(day.slice(0, 4));
  const month = Number(day.slice(5, 7));
  return month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, '0')}-01`;
}

/**
 * Submitted (not completed) matches given on the days `from` to `to` by the month their company
 * should pay (see expectedPayments): the whole UTC months of the range from the pre-added days
 * (donation_awaiting_payment_stats, a few rows per company and day), only the partial months at
 * its edges from the matches; each day then gets its company's delay.
 */
async function forecastRows(db: Queryable, orgIds: number[], from: string, to: string, now: Date) {
  const end = addDays(to, 1); // exclusive
  const firstWhole = from.endsWith('-01') ? from : monthAfter(from);
  const lastWholeEnd = `${end.slice(0, 7)}-01`;
  const whole = firstWhole < lastWholeEnd;
  const given = (a: string, b: string) => [
    inArray(donations.organization_id, orgIds),
    gte(donations.donated_at, new Date(`${a}T00:00:00Z`)),
    lt(donations.donated_at, new Date(`${b}T00:00:00Z`)),
  ];
  const edges = whole
    ? [
        from < firstWhole ? given(from, firstWhole) : null,
        lastWholeEnd < end ? given(lastWholeEnd, end) : null,
      ]
    : [given(from, end)];
  const parts: SQL[] = [];
  if (whole)
    parts.push(sql`select ${donationAwaitingPaymentStats.company_id} as company_id, ${donationAwaitingPaymentStats.sent_day} as sent_day,
               ${donationAwaitingPaymentStats.count}::bigint as count, ${donationAwaitingPaymentStats.matched_cents}::bigint as matched_cents
          from ${donationAwaitingPaymentStats}
         where ${and(
           inArray(donationAwaitingPaymentStats.organization_id, orgIds),
           gte(donationAwaitingPaymentStats.month, firstWhole),
           lt(donationAwaitingPaymentStats.month, lastWholeEnd),
         )}`);
  for (const edge of edges)
    if (edge)
      parts.push(sql`select company_id, sent_day, 1::bigint as count, matched_cents::bigint as matched_cents
          from (${awaitingPaymentDays(edge)}) edge`);
  const rows = await queryRows<{ month: string; expected: string | number; count: string | number }>(
    db,
    // Added up by company and day first (a few hundred rows), then each day given its month.
    sql`with days as (select company_id, sent_day, sum(count) as count, sum(matched_cents) as matched_cents
                        from (${sql.join(parts, sql` union all `)}) parts
                       group by 1, 2
                      having sum(count) <> 0),
             delays as (${payoutDelays(sql`select company_id from days`)})
        select ${expectedMonth(sql`days.sent_day`, sql`delays.days`, now)} as month,
               coalesce(sum(days.matched_cents), 0) as expected, sum(days.count) as count
          from days left join delays on delays.company_id = days.company_id
         group by 1
        having sum(days.count) > 0
         order by 1`,
  );
  return rows.map((r) => ({ month: r.month, expected: Number(r.expected) / 100, count: Number(r.count) }));
}

/** A first look summarises the last 30 days. */
const firstLookDays = 30;
/**
 * Looks closer together than this are one visit (the usual web-analytics session gap): going to
 * Donations and back keeps the visit's "New since"; a look after a longer pause starts a new
 * visit that summarises what came in since the previous look.
 */
export const dashboardVisitGapMs = 30 * 60 * 1000;

/**
 * Records a look at the dashboard by a user and answers the start of the unseen summary's window
 * for this visit: the look before the visit began, or 30 days ago on a first look. One statement
 * (insert or update), so two tabs opening the dashboard at once agree.
 */
export async function recordDashboardVisit(
  db: Queryable,
  userId: number,
  orgId: number,
  now: Date,
): Promise<DashboardVisitResponse> {
  const firstSince = new Date(now.getTime() - firstLookDays * 86_400_000);
  const newVisit = sql`${dashboardVisits.seen_at} < ${new Date(now.getTime() - dashboardVisitGapMs)}`;
  const [row] = await db
    .insert(dashboardVisits)
    .values({ user_id: userId, organization_id: orgId, since: firstSince, seen_at: now })
    .onConflictDoUpdate({
      target: [dashboardVisits.user_id, dashboardVisits.organization_id],
      set: {
        since: sql`case when ${newVisit} then ${dashboardVisits.seen_at} else ${dashboardVisits.since} end`,
        // A clock set back never moves the last look backwards.
        seen_at: sql`greatest(${dashboardVisits.seen_at}, excluded.seen_at)`,
      },
    })
    .returning({ since: dashboardVisits.since });
  return { since: (row?.since ?? firstSince).toISOString() };
}
