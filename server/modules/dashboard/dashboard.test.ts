import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { statusGroupIds, statusGroups } from '../../../src/contract/statuses.ts';
import { queryRows } from '../../db/rows.ts';
import { companies, donationStatusHistory, donations, organizations, users } from '../../db/schema.ts';
import { call, demoOrganizationIds, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';
import { awaitingPaymentDays } from '../donations/expected-payment.ts';
import {
  dashboardVisitGapMs,
  insights,
  recordDashboardVisit,
  statistics,
  tiers,
} from './dashboard.service.ts';

let t: TestContext;
const token: Record<string, string> = {};
const org = { parent: 0, chapter: 0, other: 0 };

beforeAll(async () => {
  t = await createTestContext({ config: { logRequests: false } });
  const demo = await demoOrganizationIds(t.db);
  org.parent = demo.hopeHarbor;
  org.chapter = demo.northShore;
  org.other = demo.mapleStreet;
  for (const who of ['super', 'admin', 'writer', 'reader'])
    token[who] = await signIn(t.app, `${who}@twofold.test`);
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.delete(donations);
});

async function gift(orgId: number, status: number, amountCents: number, day: string, matchedCents = 0) {
  await t.db.insert(donations).values({
    organization_id: orgId,
    status_id: status,
    amount_cents: amountCents,
    matched_cents: matchedCents,
    donated_at: new Date(`${day}T12:00:00Z`),
  });
}

const day = (d: Date) => d.toISOString().slice(0, 10);

const stats = (query: string, as = token.reader) =>
  call(t.app, 'GET', `/api/organization/${org.parent}/statistics${query}`, { token: as });

describe('Matching Overview statistics', () => {
  it('counts and sums each group for the organization with its chapters, within the dates', async () => {
    await gift(org.parent, 2, 10_000, '2025-02-01', 10_000); // Awaiting Submission
    await gift(org.chapter, 7, 5_050, '2025-03-31', 5_050); // Awaiting Submission, chapter
    await gift(org.parent, 3, 20_000, '2025-03-01'); // NPO to Verify
    await gift(org.parent, 4, 123_456, '2025-01-01', 246_912); // Submitted, first day included
    await gift(org.parent, 20, 7_500, '2025-12-31'); // No Response, last day included
    await gift(org.parent, 23, 99_900, '2025-05-01'); // a hold: in no group
    await gift(org.parent, 2, 1_000, '2024-12-31'); // before the range
    await gift(org.parent, 2, 1_000, '2026-01-01'); // after the range
    await gift(org.other, 2, 1_000, '2025-05-01'); // another organization
    const res = await stats('?from=2025-01-01&to=2025-12-31&report=by_status');
    expect(res.status).toBe(200);
    expect({
      donor_contacted: res.json.donor_contacted,
      npo_verify: res.json.npo_verify,
      engaged_submitted: res.json.engaged_submitted,
      no_response: res.json.no_response,
    }).toEqual({
      donor_contacted: { sum: 150.5, count: 2, matched: 150.5 },
      npo_verify: { sum: 200, count: 1, matched: 0 },
      engaged_submitted: { sum: 1234.56, count: 1, matched: 2469.12 },
      no_response: { sum: 75, count: 1, matched: 0 },
    });
    const chapter = (
      res.json.organizations as Array<{ id: number; groups: Record<string, { count: number }> }>
    ).find((o) => o.id === org.chapter);
    expect(chapter?.groups.donor_contacted?.count).toBe(1);
    expect(res.json.organizations[0].id).toBe(org.parent);
    expect(res.json.organizations[0].groups.donor_contacted.count).toBe(1);
  });

  it('agrees with the donations list tiles on the same range, whatever the statuses', async () => {
    const everyStatus = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 16, 19, 20, 21, 22, 23, 24, 25, 28];
    for (const [i, status] of everyStatus.entries()) {
      await gift(i % 2 ? org.chapter : org.parent, status, 1_000 + i, `2025-0${1 + (i % 9)}-15`);
    }
    for (const [from, to] of [
      ['2025-01-01', '2025-12-31'],
      ['2025-03-01', '2025-05-31'],
      ['2025-09-15', '2025-09-15'],
    ]) {
      const overview = await stats(`?from=${from}&to=${to}&report=by_status`);
      const list = await call(
        t.app,
        'GET',
        `/api/organization/${org.parent}/donation?filters[dateFrom]=${from}&filters[dateTo]=${to}`,
        { token: token.reader },
      );
      expect(list.status).toBe(200);
      for (const group of statusGroupIds) expect(overview.json[group].count).toBe(list.json.counts[group]);
    }
    // The groups are the tiles' table itself: every status in a tile is counted in the overview.
    const all = await stats('?from=2025-01-01&to=2025-12-31');
    const tiled = everyStatus.filter((s) =>
      statusGroupIds.some((g) => (statusGroups[g].statuses as readonly number[]).includes(s)),
    );
    expect(statusGroupIds.reduce((n, g) => n + all.json[g].count, 0)).toBe(tiled.length);
  });

  it('keeps its running totals equal to the matches through inserts, updates and deletes', async () => {
    const totals = async () =>
      JSON.stringify(
        await queryRows(
          t.db,
          sql`select organization_id, day::text, status_id, count::int, amount_cents::bigint::text as a, matched_cents::bigint::text as m
                from donation_day_stats where count <> 0 or amount_cents <> 0 or matched_cents <> 0 order by 1, 2, 3`,
        ),
      );
    const truth = async () =>
      JSON.stringify(
        await queryRows(
          t.db,
          sql`select organization_id, ((donated_at at time zone 'UTC')::date)::text as day, status_id, count(*)::int as count,
                     sum(amount_cents)::bigint::text as a, sum(matched_cents)::bigint::text as m
                from donations group by 1, 2, 3 order by 1, 2, 3`,
        ),
      );
    // donation_month_stats: the same totals by UTC month.
    const monthTotals = async () =>
      JSON.stringify(
        await queryRows(
          t.db,
          sql`select organization_id, month::text, status_id, count::int, amount_cents::bigint::text as a, matched_cents::bigint::text as m
                from donation_month_stats where count <> 0 or amount_cents <> 0 or matched_cents <> 0 order by 1, 2, 3`,
        ),
      );
    const monthTruth = async () =>
      JSON.stringify(
        await queryRows(
          t.db,
          sql`select organization_id, (date_trunc('month', donated_at at time zone 'UTC')::date)::text as month, status_id,
                     count(*)::int as count, sum(amount_cents)::bigint::text as a, sum(matched_cents)::bigint::text as m
                from donations group by 1, 2, 3 order by 1, 2, 3`,
        ),
      );
    await gift(org.parent, 2, 1_000, '2025-01-01', 500);
    await gift(org.parent, 2, 2_000, '2025-01-01', 500);
    await gift(org.chapter, 3, 3_000, '2025-02-01');
    // A gift late in the evening west of UTC belongs to the next UTC day, as in the list's filter.
    await t.db.insert(donations).values({
      organization_id: org.parent,
      status_id: 4,
      amount_cents: 4_000,
      donated_at: new Date('2025-03-01T23:30:00-05:00'),
    });
    expect(await totals()).toBe(await truth());
    const [first] = await t.db.select().from(donations).where(eq(donations.amount_cents, 1_000));
    await t.db
      .update(donations)
      .set({ status_id: 4 })
      .where(eq(donations.id, first?.id ?? 0));
    await t.db.update(donations).set({ silenced: true }); // counts nothing: changes nothing
    await t.db
      .update(donations)
      .set({ amount_cents: 9_999, donated_at: new Date('2025-06-30T12:00:00Z') })
      .where(eq(donations.amount_cents, 2_000));
    await t.db.update(donations).set({ organization_id: org.other }).where(eq(donations.amount_cents, 3_000));
    expect(await totals()).toBe(await truth());
    expect(await monthTotals()).toBe(await monthTruth());
    await t.db.delete(donations).where(inArray(donations.amount_cents, [9_999, 4_000]));
    expect(await totals()).toBe(await truth());
    expect(await monthTotals()).toBe(await monthTruth());
    const result = await statistics(t.db, org.parent, { from: '2025-01-01', to: '2025-12-31' });
    expect(result.engaged_submitted).toEqual({ count: 1, sum: 10, matched: 5 });
    expect(result.donor_contacted.count).toBe(0);
  });

  it('defaults to Jan 1 of this year to today', async () => {
    const now = new Date('2025-06-15T10:00:00Z');
    await gift(org.parent, 2, 1_000, '2025-01-01');
    await gift(org.parent, 2, 1_000, '2025-06-15');
    await gift(org.parent, 2, 1_000, '2024-12-31');
    await gift(org.parent, 2, 1_000, '2025-06-16');
    const result = await statistics(t.db, org.parent, {}, now);
    expect([result.from, result.to]).toEqual(['2025-01-01', '2025-06-15']);
    expect(result.donor_contacted.count).toBe(2);
  });

  it('refuses impossible dates, a reversed range and an unknown grouping with a 400', async () => {
    expect((await stats('?from=2025-02-30&to=2025-03-01')).status).toBe(400);
    expect((await stats('?from=2025-1-1')).status).toBe(400);
    const reversed = await stats('?from=2025-03-01&to=2025-02-01');
    expect([reversed.status, reversed.json.message]).toEqual([400, 'from must be on or before to']);
    expect((await stats('?report=by_company')).status).toBe(400);
  });
});

describe("the dashboard's visit (New since)", () => {
  const visit = (who: string, orgId = org.parent) =>
    call(t.app, 'POST', `/api/organization/${orgId}/dashboard/visit`, { token: token[who] });

  it('keeps the same since when the user comes back from another screen, per user and organization', async () => {
    const first = await visit('reader');
    expect(first.status).toBe(200);
    // A first look summarises the last 30 days.
    expect(Math.abs(Date.parse(first.json.since) - (Date.now() - 30 * 86_400_000))).toBeLessThan(60_000);
    const back = await visit('reader');
    expect(back.json).toEqual(first.json);
    // Another user has their own visit; a user outside the organization has none.
    expect((await visit('writer')).status).toBe(200);
    expect((await visit('reader', org.other)).status).toBe(404);
  });

  it("starts a new visit after a pause, summarising what came in since the previous visit's last look", async () => {
    const [user] = await t.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, 'admin@twofold.test'));
    const id = user?.id ?? 0;
    const monday = new Date('2026-03-02T09:00:00Z');
    const firstSince = (await recordDashboardVisit(t.db, id, org.chapter, monday)).since;
    expect(firstSince).toBe('2026-01-31T09:00:00.000Z');
    // Back and forth within the visit: the same since, however often.
    const later = new Date(monday.getTime() + dashboardVisitGapMs - 1000);
    expect((await recordDashboardVisit(t.db, id, org.chapter, later)).since).toBe(firstSince);
    // The next morning: new since the last look of Monday's visit.
    const tuesday = new Date('2026-03-03T08:00:00Z');
    expect((await recordDashboardVisit(t.db, id, org.chapter, tuesday)).since).toBe(later.toISOString());
    expect(
      (await recordDashboardVisit(t.db, id, org.chapter, new Date(tuesday.getTime() + 60_000))).since,
    ).toBe(later.toISOString());
  });
});

describe('the unseen summary by gift tier', () => {
  it('counts and sums the gifts recorded since the time, by tier, with the chapters and the tier edges', async () => {
    const since = new Date(Date.now() - 60_000);
    for (const [orgId, cents] of [
      [org.parent, 100_000], // $1,000: leadership
      [org.chapter, 99_999], // $999.99: mid-level
      [org.parent, 25_000], // $250: mid-level
      [org.parent, 24_999], // $249.99: everyday
      [org.other, 500_000], // another organization
    ] as const)
      await gift(orgId, 2, cents, '2020-01-01');
    await t.db.insert(donations).values({
      organization_id: org.parent,
      status_id: 2,
      amount_cents: 700_000,
      donated_at: new Date('2020-01-01T00:00:00Z'),
      created_at: new Date(since.getTime() - 1000),
    });
    const res = await call(
      t.app,
      'GET',
      `/api/organization/${org.parent}/statistics/tiers?since=${since.toISOString()}`,
      {
        token: token.reader,
      },
    );
    expect(res.status).toBe(200);
    expect(res.json.tiers).toEqual([
      { id: 'leadership', count: 1, sum: 1000 },
      { id: 'mid_level', count: 2, sum: 1249.99 },
      { id: 'everyday', count: 1, sum: 249.99 },
    ]);
  });

  it('refuses a future or malformed time', async () => {
    expect(
      await tiers(t.db, org.parent, '2025-01-01T00:00:00Z', new Date('2024-01-01T00:00:00Z')).catch(
        (e) => e.status,
      ),
    ).toBe(400);
    const bad = await call(t.app, 'GET', `/api/organization/${org.parent}/statistics/tiers?since=yesterday`, {
      token: token.reader,
    });
    expect(bad.status).toBe(400);
  });
});

describe('the figures below the tiles', () => {
  it('gives the monthly trend, the ageing of open requests and the top companies on hand-made data', async () => {
    const at = async (orgId: number, status: number, matched: number, day: string, company: string | null) =>
      t.db.insert(donations).values({
        organization_id: orgId,
        status_id: status,
        amount_cents: matched,
        matched_cents: matched,
        donated_at: new Date(`${day}T12:00:00Z`),
        company_name: company,
      });
    await at(org.parent, 4, 10_000, '2025-01-10', 'Acme'); // submitted, January
    await at(org.chapter, 2, 30_000, '2025-01-20', 'Acme'); // awaiting, January, 71 days before to
    await at(org.parent, 3, 5_000, '2025-03-15', 'Globex'); // NPO to verify, 17 days before to
    await at(org.parent, 2, 2_000, '2024-10-01', 'Initech'); // before the range
    await at(org.parent, 2, 7_000, '2024-12-31', 'Acme'); // before the range
    await at(org.parent, 23, 1_000, '2025-02-01', null); // a hold, no company
    // The January submitted match was paid (a payout report): received beside expected.
    await t.db
      .update(donations)
      .set({ paid_cents: 9_000, paid_at: '2025-03-01' })
      .where(eq(donations.matched_cents, 10_000));
    const res = await call(
      t.app,
      'GET',
      `/api/organization/${org.parent}/statistics/insights?from=2025-01-01&to=2025-04-01`,
      {
        token: token.reader,
      },
    );
    expect(res.status).toBe(200);
    expect(res.json.months).toEqual([
      { month: '2025-01', requested: 400, submitted: 100, count: 2, received: 90 },
      { month: '2025-02', requested: 10, submitted: 0, count: 1, received: 0 },
      { month: '2025-03', requested: 50, submitted: 0, count: 1, received: 0 },
    ]);
    expect(res.json.ageing).toEqual([
      { bucket: '0-30', donor_contacted: { count: 0, matched: 0 }, npo_verify: { count: 1, matched: 50 } },
      { bucket: '31-90', donor_contacted: { count: 1, matched: 300 }, npo_verify: { count: 0, matched: 0 } },
      { bucket: '90+', donor_contacted: { count: 0, matched: 0 }, npo_verify: { count: 0, matched: 0 } },
    ]);
    expect(res.json.companies).toEqual([
      { name: 'Acme', requested: 400, submitted: 100, count: 2 },
      { name: 'Globex', requested: 50, submitted: 0, count: 1 },
    ]);
  });
});

describe("the top companies' monthly totals", () => {
  it('stay equal to the matches through inserts, updates and deletes, a catalogue company by id and a typed one by name', async () => {
    const totals = async () =>
      JSON.stringify(
        await queryRows(
          t.db,
          sql`select organization_id, month::text, company_id, company_name, count::int, matched_cents::bigint::text as m,
                     submitted_cents::bigint::text as s
                from donation_company_month_stats where count <> 0 or matched_cents <> 0 or submitted_cents <> 0
               order by 1, 2, 3, 4`,
        ),
      );
    const truth = async () =>
      JSON.stringify(
        await queryRows(
          t.db,
          sql`select organization_id, (date_trunc('month', donated_at at time zone 'UTC')::date)::text as month,
                     coalesce(company_id, 0) as company_id,
                     case when company_id is null then trim(coalesce(company_name, '')) else '' end as company_name,
                     count(*)::int as count, sum(matched_cents)::bigint::text as m,
                     coalesce(sum(matched_cents) filter (where status_id in (1, 4, 28)), 0)::bigint::text as s
                from donations group by 1, 2, 3, 4 order by 1, 2, 3, 4`,
        ),
      );
    const [acme] = await t.db
      .insert(companies)
      .values({ name: `Acme Catalogue ${Date.now()}` })
      .returning();
    const values = (
      company_id: number | null,
      company_name: string | null,
      status: number,
      cents: number,
      day: string,
    ) => ({
      organization_id: org.parent,
      status_id: status,
      amount_cents: cents,
      matched_cents: cents,
      company_id,
      company_name,
      donated_at: new Date(day),
    });
    await t.db.insert(donations).values([
      values(acme?.id ?? null, 'acme typed', 2, 1_000, '2025-01-31T23:30:00Z'),
      values(null, '  Initech ', 4, 2_000, '2025-01-02T12:00:00Z'),
      values(null, 'Initech', 2, 3_000, '2025-02-01T04:00:00+05:00'), // still January in UTC
      values(null, null, 2, 4_000, '2025-02-10T12:00:00Z'),
    ]);
    expect(await totals()).toBe(await truth());
    await t.db.update(donations).set({ status_id: 1 }).where(eq(donations.amount_cents, 1_000));
    await t.db.update(donations).set({ company_id: null }).where(eq(donations.amount_cents, 1_000));
    await t.db.update(donations).set({ silenced: true }); // counts nothing: changes nothing
    await t.db
      .update(donations)
      .set({ matched_cents: 9_999, donated_at: new Date('2025-06-30T12:00:00Z') })
      .where(eq(donations.amount_cents, 3_000));
    expect(await totals()).toBe(await truth());
    await t.db.delete(donations).where(inArray(donations.amount_cents, [2_000, 4_000]));
    expect(await totals()).toBe(await truth());
  });

  it('read whole months from the totals and the partial months at the edges from the matches, as a scan would', async () => {
    const at = (day: string, company: string, status: number, cents: number) =>
      t.db.insert(donations).values({
        organization_id: org.chapter,
        status_id: status,
        amount_cents: cents,
        matched_cents: cents,
        company_name: company,
        donated_at: new Date(`${day}T12:00:00Z`),
      });
    await at('2025-01-14', 'Acme', 4, 100_00); // before a mid-January start
    await at('2025-01-15', 'Acme', 4, 200_00); // the first day
    await at('2025-02-10', 'Globex', 2, 500_00); // a whole month
    await at('2025-03-20', 'Acme', 2, 300_00); // the last day
    await at('2025-03-21', 'Globex', 2, 900_00); // after the end
    const figures = async (from: string, to: string) =>
      (await insights(t.db, org.parent, { from, to }, new Date('2025-12-31T12:00:00Z'))).companies;
    expect(await figures('2025-01-15', '2025-03-20')).toEqual([
      { name: 'Acme', requested: 500, submitted: 200, count: 2 },
      { name: 'Globex', requested: 500, submitted: 0, count: 1 },
    ]);
    expect(await figures('2025-02-01', '2025-02-28')).toEqual([
      { name: 'Globex', requested: 500, submitted: 0, count: 1 },
    ]);
    // Nothing after Feb 12 in February: the month is read whole, the same gifts.
    expect(await figures('2025-02-01', '2025-02-12')).toEqual([
      { name: 'Globex', requested: 500, submitted: 0, count: 1 },
    ]);
    // Mar 21 is after Mar 20 in March: that month's edge is read from the matches.
    expect(await figures('2025-03-01', '2025-03-20')).toEqual([
      { name: 'Acme', requested: 300, submitted: 0, count: 1 },
    ]);
    // The trend reads the same way: whole February from the monthly totals, the edges by day.
    const trend = await insights(
      t.db,
      org.parent,
      { from: '2025-01-15', to: '2025-03-20' },
      new Date('2025-12-31T12:00:00Z'),
    );
    expect(trend.months).toEqual([
      { month: '2025-01', requested: 200, submitted: 200, count: 1, received: 0 },
      { month: '2025-02', requested: 500, submitted: 0, count: 1, received: 0 },
      { month: '2025-03', requested: 300, submitted: 0, count: 1, received: 0 },
    ]);
    // Ageing as of Mar 20: Mar 20 (0 days), Feb 10 (38 days, 31-90); Jan 15 is Submitted, not open.
    expect(trend.ageing.map((a) => [a.bucket, a.donor_contacted.count])).toEqual([
      ['0-30', 1],
      ['31-90', 1],
      ['90+', 0],
    ]);
    expect(await figures('2025-01-14', '2025-01-14')).toEqual([
      { name: 'Acme', requested: 100, submitted: 100, count: 1 },
    ]);
    expect(await figures('2024-12-01', '2025-12-31')).toEqual([
      { name: 'Globex', requested: 1400, submitted: 0, count: 2 },
      { name: 'Acme', requested: 600, submitted: 300, count: 3 },
    ]);
  });
});

describe('the forecast of matching payments', () => {
  it("puts each submitted match in the month its company should pay, learning the company's delay", async () => {
    const [slow] = await t.db
      .insert(companies)
      .values({ name: `Slow Payer ${Date.now()}` })
      .returning();
    const [unknown] = await t.db
      .insert(companies)
      .values({ name: `New Payer ${Date.now()}` })
      .returning();
    const match = async (values: Partial<typeof donations.$inferInsert>) => {
      const [row] = await t.db
        .insert(donations)
        .values({
          organization_id: org.parent,
          status_id: 4,
          amount_cents: 10_000,
          matched_cents: 10_000,
          donated_at: new Date('2025-01-05T12:00:00Z'),
          ...values,
        })
        .returning();
      return row?.id ?? 0;
    };
    const history = async (donationId: number, status: number, at: string) =>
      t.db
        .insert(donationStatusHistory)
        .values({ donation_id: donationId, to_status_id: status, at: new Date(`${at}T12:00:00Z`) });
    // Three completed matches of another organization teach the company's delay: 30, 40 and 50 days (median 40).
    for (const [sent, done] of [
      ['2024-01-01', '2024-01-31'],
      ['2024-02-01', '2024-03-12'],
      ['2024-03-01', '2024-04-20'],
    ] as const) {
      const id = await match({
        organization_id: org.other,
        status_id: 1,
        company_id: slow?.id ?? null,
        donated_at: new Date('2024-01-01T00:00:00Z'),
      });
      await history(id, 4, sent);
      await history(id, 1, done);
    }
    const learned = await match({ company_id: slow?.id ?? null, matched_cents: 20_000 });
    await history(learned, 4, '2025-03-10'); // + 40 days: 2025-04-19
    const fallback = await match({ company_id: unknown?.id ?? null, matched_cents: 30_000 });
    await history(fallback, 4, '2025-03-01'); // + 60 days (no history to learn from): 2025-04-30
    const overdue = await match({ company_id: unknown?.id ?? null, matched_cents: 5_000 });
    await history(overdue, 4, '2025-01-06'); // + 60 days: 2025-03-07, before today: this month
    await match({ status_id: 2, matched_cents: 99_900 }); // not submitted: not forecast
    const result = await insights(
      t.db,
      org.parent,
      { from: '2025-01-01', to: '2025-03-15' },
      new Date('2025-03-15T12:00:00Z'),
    );
    expect(result.forecast).toEqual([
      { month: '2025-03', expected: 50, count: 1 },
      { month: '2025-04', expected: 500, count: 2 },
    ]);
  });
});

describe('the awaiting-payment totals behind the forecast', () => {
  it('keeps donation_awaiting_payment_stats equal to a scan of the matches through inserts, updates and deletes of matches and their history', async () => {
    const [payer] = await t.db
      .insert(companies)
      .values({ name: `Totals Payer ${Date.now()}` })
      .returning();
    const kept = async () =>
      JSON.stringify(
        await queryRows(
          t.db,
          sql`select organization_id, month::text, company_id, sent_day::text, count::int, matched_cents::bigint::text as m
                from donation_awaiting_payment_stats where count <> 0 or matched_cents <> 0 order by 1, 2, 3, 4`,
        ),
      );
    // The scan: every awaiting match with the list's own day rule.
    const scan = async () =>
      JSON.stringify(
        await queryRows(
          t.db,
          sql`select d.organization_id, (date_trunc('month', d.donated_at at time zone 'UTC')::date)::text as month,
                     days.company_id, days.sent_day::text, count(*)::int as count, sum(days.matched_cents)::bigint::text as m
                from (${awaitingPaymentDays([])}) days join donations d on d.id = days.id
               group by 1, 2, 3, 4 order by 1, 2, 3, 4`,
        ),
      );
    const check = async () => expect(await kept()).toBe(await scan());
    const insertMatch = async (values: Partial<typeof donations.$inferInsert>) => {
      const [row] = await t.db
        .insert(donations)
        .values({
          organization_id: org.parent,
          status_id: 4,
          amount_cents: 1_000,
          matched_cents: 1_000,
          company_id: payer?.id ?? null,
          donated_at: new Date('2025-02-10T12:00:00Z'),
          ...values,
        })
        .returning();
      return row?.id ?? 0;
    };
    const a = await insertMatch({});
    const b = await insertMatch({ status_id: 28, company_id: null, matched_cents: 2_500 });
    const c = await insertMatch({ status_id: 2, organization_id: org.chapter });
    const d = await insertMatch({ donated_at: new Date('2025-03-31T23:30:00Z'), matched_cents: 700 });
    await check();
    expect(JSON.parse(await kept())).toHaveLength(3);
    // History: submissions on other days move the matches; a later one wins; other statuses do not count.
    const [first] = await t.db
      .insert(donationStatusHistory)
      .values([
        { donation_id: a, to_status_id: 4, at: new Date('2025-02-11T09:00:00Z') },
        { donation_id: b, to_status_id: 28, at: new Date('2025-02-12T23:59:00Z') },
        { donation_id: d, to_status_id: 2, at: new Date('2025-01-01T00:00:00Z') },
      ])
      .returning();
    await check();
    await t.db
      .insert(donationStatusHistory)
      .values({ donation_id: a, to_status_id: 4, at: new Date('2025-02-20T09:00:00Z') });
    await check();
    // A history row edited and one removed: back to the day the rest of the history says.
    await t.db
      .update(donationStatusHistory)
      .set({ at: new Date('2025-03-01T00:00:00Z') })
      .where(eq(donationStatusHistory.id, first?.id ?? 0));
    await check();
    await t.db
      .delete(donationStatusHistory)
      .where(and(eq(donationStatusHistory.donation_id, a), eq(donationStatusHistory.to_status_id, 4)));
    await check();
    // Matches change: status in and out of awaiting, company, organization, amount, gift date.
    await t.db.update(donations).set({ status_id: 4 }).where(eq(donations.id, c));
    await check();
    await t.db.update(donations).set({ status_id: 1 }).where(eq(donations.id, b));
    await check();
    await t.db
      .update(donations)
      .set({ company_id: null, matched_cents: 9_999, donated_at: new Date('2024-12-31T23:59:00Z') })
      .where(eq(donations.id, d));
    await check();
    await t.db
      .update(donations)
      .set({ organization_id: org.other })
      .where(inArray(donations.id, [a, c]));
    await check();
    await t.db
      .insert(donationStatusHistory)
      .values({ donation_id: c, to_status_id: 28, at: new Date('2025-04-02T10:00:00Z') });
    await check();
    // Deletes, with their history (the foreign key's cascade).
    await t.db.delete(donations).where(eq(donations.id, c));
    await check();
    await t.db.delete(donations).where(inArray(donations.id, [a, b, d]));
    await check();
    expect(JSON.parse(await kept())).toEqual([]);
  });
});

describe("each figure's link shows the matches behind it", () => {
  const list = (query: string, orgId = org.parent) =>
    call(t.app, 'GET', `/api/organization/${orgId}/donation?per_page=100&${query}`, { token: token.reader });

  it('a chapter row: filters[organization] keeps that organization of the family, each group counted as the figure', async () => {
    for (const [i, status] of [2, 3, 4, 20, 2, 28, 1, 25].entries())
      await gift(i % 2 ? org.chapter : org.parent, status, 1_000 * (i + 1), `2025-0${1 + (i % 6)}-10`, 500);
    const overview = await stats('?from=2025-01-01&to=2025-12-31');
    expect(overview.json.organizations).toHaveLength(3);
    for (const o of overview.json.organizations as Array<{
      id: number;
      groups: Record<string, { count: number }>;
    }>) {
      const all = await list(
        `filters[dateFrom]=2025-01-01&filters[dateTo]=2025-12-31&filters[organization]=${o.id}`,
      );
      expect(all.status).toBe(200);
      for (const group of statusGroupIds) {
        expect(all.json.counts[group]).toBe(o.groups[group]?.count);
        const one = await list(
          `filters[dateFrom]=2025-01-01&filters[dateTo]=2025-12-31&filters[organization]=${o.id}&filters[status_group]=${group}`,
        );
        expect(one.json.total).toBe(o.groups[group]?.count);
        for (const d of one.json.donations as Array<{ organization_id: number }>)
          expect(d.organization_id).toBe(o.id);
      }
    }
    expect(
      overview.json.organizations.find((o: { id: number }) => o.id === org.chapter).groups.npo_verify.count,
    ).toBe(2);
  });

  it("a top company: filters[companyName] keeps that company's matches exactly, as many and as much as the figure", async () => {
    const stamp = Date.now();
    const [acme, biotech] = await t.db
      .insert(companies)
      .values([{ name: `Acme ${stamp}` }, { name: `Acme ${stamp} Biotech` }])
      .returning();
    const match = (
      companyId: number | null,
      typed: string | null,
      status: number,
      cents: number,
      dayText: string,
      orgId = org.parent,
    ) => ({
      organization_id: orgId,
      status_id: status,
      amount_cents: cents,
      matched_cents: cents,
      company_id: companyId,
      company_name: typed,
      donated_at: new Date(`${dayText}T12:00:00Z`),
    });
    await t.db.insert(donations).values([
      // The catalogue company, whatever was typed beside it, in whole and partial months and a chapter.
      match(acme?.id ?? null, 'acme typo', 4, 10_000, '2025-02-10'),
      match(acme?.id ?? null, null, 2, 20_000, '2025-03-01'),
      match(acme?.id ?? null, null, 1, 30_000, '2025-06-30', org.chapter),
      // The same name typed on matches with no catalogue company: the figure adds them in.
      match(null, `  Acme ${stamp} `, 28, 40_000, '2025-04-15'),
      // A longer name that 'company contains' would also have listed.
      match(biotech?.id ?? null, null, 4, 50_000, '2025-03-03'),
      match(null, `Acme ${stamp} Biotech`, 2, 60_000, '2025-05-05'),
      // Outside the dates and outside the family.
      match(acme?.id ?? null, null, 2, 70_000, '2024-12-31'),
      match(acme?.id ?? null, null, 2, 80_000, '2025-03-01', org.other),
    ]);
    const res = await call(
      t.app,
      'GET',
      `/api/organization/${org.parent}/statistics/insights?from=2025-01-15&to=2025-06-30`,
      { token: token.reader },
    );
    expect(res.status).toBe(200);
    const top = res.json.companies as Array<{
      name: string;
      requested: number;
      submitted: number;
      count: number;
    }>;
    expect(top.map((c) => [c.name, c.count, c.requested])).toEqual(
      expect.arrayContaining([
        [`Acme ${stamp} Biotech`, 2, 1_100],
        [`Acme ${stamp}`, 4, 1_000],
      ]),
    );
    const dates = 'filters[dateFrom]=2025-01-15&filters[dateTo]=2025-06-30';
    for (const c of top) {
      const linked = await list(`${dates}&filters[companyName]=${encodeURIComponent(c.name)}`);
      expect(linked.status).toBe(200);
      expect(linked.json.total).toBe(c.count);
      const dollars = (linked.json.donations as Array<{ matched: number }>).reduce(
        (n, d) => n + d.matched,
        0,
      );
      expect(dollars).toBeCloseTo(c.requested, 2);
      const submitted = await list(
        `${dates}&filters[companyName]=${encodeURIComponent(c.name)}&filters[status_group]=engaged_submitted`,
      );
      const submittedDollars = (submitted.json.donations as Array<{ matched: number }>).reduce(
        (n, d) => n + d.matched,
        0,
      );
      expect(submittedDollars).toBeCloseTo(c.submitted, 2);
    }
    // What the figures linked to before: 'company contains' reads the typed name only, so it missed
    // the catalogue matches and listed the typed Biotech one.
    expect((await list(`${dates}&filters[company]=${encodeURIComponent(`acme ${stamp}`)}`)).json.total).toBe(
      2,
    );
    // Exact means exact: the name as the figure spells it.
    expect((await list(`${dates}&filters[companyName]=acme%20${stamp}`)).json.total).toBe(0);
    expect((await list(`filters[companyName]=${'x'.repeat(501)}`)).status).toBe(400);
  });

  it("refuses an organization outside the family and a month that isn't one", async () => {
    expect((await list(`filters[organization]=${org.other}`)).status).toBe(400);
    expect((await list(`filters[organization]=${org.parent}`, org.chapter)).status).toBe(400);
    for (const month of ['2025-13', '2025-1', '2025-00', 'abc'])
      expect((await list(`filters[expectedMonth]=${month}`)).status).toBe(400);
  });

  it('a forecast month: filters[expectedMonth] keeps the matches expected to be paid that month, as many as the figure', async () => {
    const [payer] = await t.db
      .insert(companies)
      .values({ name: `Steady Payer ${Date.now()}` })
      .returning();
    const now = Date.now();
    const daysAgo = (n: number) => new Date(now - n * 86_400_000);
    const match = async (
      status: number,
      matched: number,
      submittedDaysAgo: number | null,
      completedDaysAgo?: number,
    ) => {
      const [row] = await t.db
        .insert(donations)
        .values({
          organization_id: org.parent,
          status_id: status,
          amount_cents: matched,
          matched_cents: matched,
          company_id: payer?.id ?? null,
          donated_at: daysAgo(200),
        })
        .returning();
      const id = row?.id ?? 0;
      if (submittedDaysAgo !== null)
        await t.db
          .insert(donationStatusHistory)
          .values({ donation_id: id, to_status_id: 4, at: daysAgo(submittedDaysAgo) });
      if (completedDaysAgo !== undefined)
        await t.db
          .insert(donationStatusHistory)
          .values({ donation_id: id, to_status_id: 1, at: daysAgo(completedDaysAgo) });
    };
    // The company pays in 100 days (three completed matches); its awaiting matches spread over the months ahead.
    for (const sent of [400, 380, 360]) await match(1, 1_000, sent, sent - 100);
    for (const [sent, cents] of [
      [10, 2_000],
      [40, 3_000],
      [45, 4_000],
      [70, 5_000],
      [150, 6_000], // overdue: this month
    ] as const)
      await match(4, cents, sent);
    await match(28, 7_000, null); // engaged, never seen submitted: from its last update (today) + 100 days
    await match(2, 9_000, null); // awaiting submission: not forecast
    const dates = `filters[dateFrom]=${day(daysAgo(365))}&filters[dateTo]=${day(daysAgo(0))}`;
    const res = await call(
      t.app,
      'GET',
      `/api/organization/${org.parent}/statistics/insights?from=${day(daysAgo(365))}&to=${day(daysAgo(0))}`,
      { token: token.reader },
    );
    expect(res.status).toBe(200);
    const forecast = res.json.forecast as Array<{ month: string; expected: number; count: number }>;
    expect(forecast.reduce((n, f) => n + f.count, 0)).toBe(6);
    expect(forecast.reduce((n, f) => n + f.expected, 0)).toBe(270);
    expect(forecast[0]?.month).toBe(new Date(now).toISOString().slice(0, 7));
    for (const f of forecast) {
      const linked = await list(`${dates}&filters[expectedMonth]=${f.month}`);
      expect(linked.status).toBe(200);
      expect(linked.json.total).toBe(f.count);
      const cents = (linked.json.donations as Array<{ matched: number }>).reduce((n, d) => n + d.matched, 0);
      expect(cents).toBeCloseTo(f.expected, 2);
    }
    expect((await list(`${dates}&filters[expectedMonth]=1999-01`)).json.total).toBe(0);
  });
});

describe('Feature requests', () => {
  it("saves custom.amply.feature and keeps the organization's other custom settings", async () => {
    await t.db
      .update(organizations)
      .set({ custom: { donation_fields: ['Campaign'], amply: { keep: 1 } } })
      .where(eq(organizations.id, org.parent));
    const res = await call(t.app, 'PUT', `/api/organization/${org.parent}/feature-request`, {
      token: token.writer,
      body: { feature: 'better-reporting' },
    });
    expect(res.status).toBe(200);
    const [row] = await t.db
      .select({ custom: organizations.custom })
      .from(organizations)
      .where(eq(organizations.id, org.parent));
    expect(row?.custom).toEqual({
      donation_fields: ['Campaign'],
      amply: { keep: 1, feature: 'better-reporting' },
    });
    const organization = await call(t.app, 'GET', `/api/organization/${org.parent}`, { token: token.writer });
    expect(organization.json.organization.custom.amply.feature).toBe('better-reporting');
  });

  it('refuses a value that is not one of the options', async () => {
    const res = await call(t.app, 'PUT', `/api/organization/${org.parent}/feature-request`, {
      token: token.writer,
      body: { feature: 'world-peace' },
    });
    expect(res.status).toBe(400);
    expect(res.json.message).toContain('feature must be one of portal-contact');
  });

  it('shows a super user the requests of all organizations counted by option, and no one else', async () => {
    for (const [id, feature] of [
      [org.parent, 'more-filters'],
      [org.chapter, 'more-filters'],
      [org.other, 'portal-contact'],
    ] as const)
      await call(t.app, 'PUT', `/api/organization/${id}/feature-request`, {
        token: token.super,
        body: { feature },
      });
    const res = await call(t.app, 'GET', '/api/feature-requests', { token: token.super });
    expect(res.status).toBe(200);
    expect(res.json.counts[0]).toEqual({ value: 'more-filters', count: 2 });
    expect(res.json.counts).toContainEqual({ value: 'portal-contact', count: 1 });
    expect(res.json.counts).toContainEqual({ value: 'other', count: 0 });
    expect(res.json.total).toBeGreaterThanOrEqual(3);
    expect((await call(t.app, 'GET', '/api/feature-requests', { token: token.admin })).status).toBe(403);
  });
});
