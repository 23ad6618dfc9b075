import { format, startOfYear } from 'date-fns';
import { and, eq, gte, inArray, isNotNull, lte, type SQL, sql } from 'drizzle-orm';
import {
  ageingBuckets,
  defaultPayoutDays,
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
import { companies, donationDayStats, donations, organizations } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { donationFilterConditions } from '../donations/donations.service.ts';
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
  const aggregates: Record<string, SQL<number>> = {};
  for (const g of statusGroupIds) {
    const inGroup = inArray(donationDayStats.status_id, [...statusGroups[g].statuses]);
    aggregates[`${g}_count`] =
      sql<number>`coalesce(sum(${donationDayStats.count}) filter (where ${inGroup}), 0)::bigint`;
    aggregates[`${g}_sum`] =
      sql<number>`coalesce(sum(${donationDayStats.amount_cents}) filter (where ${inGroup}), 0)::bigint`;
    aggregates[`${g}_matched`] =
      sql<number>`coalesce(sum(${donationDayStats.matched_cents}) filter (where ${inGroup}), 0)::bigint`;
  }
  // The running totals by day (kept by triggers on donations) cover the same UTC days the list's
  // dateFrom/dateTo filter covers.
  const [rows, names] = await Promise.all([
    db
      .select({ organization_id: donationDayStats.organization_id, ...aggregates })
      .from(donationDayStats)
      .where(
        and(
          inArray(donationDayStats.organization_id, orgIds),
          gte(donationDayStats.day, from),
          lte(donationDayStats.day, to),
        ),
      )
      .groupBy(donationDayStats.organization_id),
    db
      .select({ id: organizations.id, name: organizations.name })
      .from(organizations)
      .where(inArray(organizations.id, orgIds)),
  ]);
  const total = emptyGroups();
  const perOrg = new Map<number, GroupStats>(orgIds.map((id) => [id, emptyGroups()]));
  for (const row of rows as Array<Record<string, unknown> & { organization_id: number }>) {
    const groups = perOrg.get(row.organization_id);
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
  const submitted = inArray(donations.status_id, [...statusGroups.engaged_submitted.statuses]);
  // The trend and the ageing read the running totals by day (as the overview does); only the
  // companies need the matches themselves.
  const days = and(
    inArray(donationDayStats.organization_id, orgIds),
    gte(donationDayStats.day, from),
    lte(donationDayStats.day, to),
  );
  const daySubmitted = inArray(donationDayStats.status_id, [...statusGroups.engaged_submitted.statuses]);
  const month = sql<string>`to_char(${donationDayStats.day}, 'YYYY-MM')`;
  const age = sql`(${to}::date - ${donationDayStats.day})`;
  const company = sql<string>`coalesce(${companies.name}, nullif(trim(${donations.company_name}), ''))`;
  const giftMonth = sql<string>`to_char(${donations.donated_at} at time zone 'UTC', 'YYYY-MM')`;
  const [months, ageing, top, forecast, received] = await Promise.all([
    db
      .select({
        month,
        requested: sql<number>`coalesce(sum(${donationDayStats.matched_cents}), 0)::bigint`,
        submitted: sql<number>`coalesce(sum(${donationDayStats.matched_cents}) filter (where ${daySubmitted}), 0)::bigint`,
        count: sql<number>`coalesce(sum(${donationDayStats.count}), 0)::int`,
      })
      .from(donationDayStats)
      .where(days)
      .groupBy(month)
      .having(sql`sum(${donationDayStats.count}) > 0`)
      .orderBy(month),
    db
      .select({
        bucket: sql<string>`case when ${age} <= 30 then '0-30' when ${age} <= 90 then '31-90' else '90+' end`,
        status_id: donationDayStats.status_id,
        count: sql<number>`coalesce(sum(${donationDayStats.count}), 0)::int`,
        matched: sql<number>`coalesce(sum(${donationDayStats.matched_cents}), 0)::bigint`,
      })
      .from(donationDayStats)
      .where(
        and(
          days,
          inArray(donationDayStats.status_id, [
            ...statusGroups.donor_contacted.statuses,
            ...statusGroups.npo_verify.statuses,
          ]),
        ),
      )
      .groupBy(sql`1`, donationDayStats.status_id),
    db
      .select({
        name: company,
        requested: sql<number>`coalesce(sum(${donations.matched_cents}), 0)::bigint`,
        submitted: sql<number>`coalesce(sum(${donations.matched_cents}) filter (where ${submitted}), 0)::bigint`,
        count: sql<number>`count(*)::int`,
      })
      .from(donations)
      .leftJoin(companies, eq(companies.id, donations.company_id))
      .where(and(...base, sql`${company} is not null`))
      .groupBy(company)
      .orderBy(sql`2 desc`, company)
      .limit(10),
    forecastRows(db, base, now),
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
    const group = (statusGroups.npo_verify.statuses as readonly number[]).includes(row.status_id)
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
    companies: top.map((c) => ({
      name: c.name,
      requested: Number(c.requested) / 100,
      submitted: Number(c.submitted) / 100,
      count: Number(c.count),
    })),
  };
}

/**
 * Submitted (not completed) matches by the month their company should pay: the time they were
 * last submitted plus the company's median Submitted-to-Completed days, learned from its
 * completed matches (any organization's: a company pays everyone on its own schedule; only the
 * median is read), from 3 of them, else the default. Overdue payments count in the current month.
 */
async function forecastRows(db: Queryable, base: SQL[], now: Date) {
  // Each step reads only what it needs: the awaiting matches (the overview's conditions), when
  // each was last submitted, and the delays of just their companies, each learned once.
  const rows = await queryRows<{ month: string; expected: string | number; count: string | number }>(
    db,
    sql`with awaiting as (
          select ${donations.id} as id, ${donations.company_id} as company_id,
                 ${donations.matched_cents} as matched_cents, ${donations.updated_at} as updated_at
            from ${donations}
           where ${and(...base, inArray(donations.status_id, [4, 28]))}
        ), sent as (
          select h.donation_id, max(h.at) as at
            from donation_status_history h join awaiting a on a.id = h.donation_id
           where h.to_status_id in (4, 28)
           group by h.donation_id
        ), delays as (
          select past.company_id,
                 percentile_cont(0.5) within group (order by extract(epoch from done.at - submitted.at) / 86400) as days
            from donations past
            join donation_status_history submitted on submitted.donation_id = past.id and submitted.to_status_id = 4
            join donation_status_history done on done.donation_id = past.id and done.to_status_id = 1 and done.at >= submitted.at
           where past.company_id in (select distinct company_id from awaiting where company_id is not null)
           group by past.company_id
          having count(*) >= 3
        )
        select to_char(greatest(coalesce(sent.at, a.updated_at) + coalesce(delays.days, ${defaultPayoutDays}) * interval '1 day',
                                ${now.toISOString()}::timestamptz) at time zone 'UTC', 'YYYY-MM') as month,
               coalesce(sum(a.matched_cents), 0) as expected, count(*) as count
          from awaiting a
          left join sent on sent.donation_id = a.id
          left join delays on delays.company_id = a.company_id
         group by 1
         order by 1`,
  );
  return rows.map((r) => ({ month: r.month, expected: Number(r.expected) / 100, count: Number(r.count) }));
}
