import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { statusGroupIds, statusGroups } from '../../../src/contract/statuses.ts';
import { queryRows } from '../../db/rows.ts';
import { companies, donationStatusHistory, donations, organizations } from '../../db/schema.ts';
import { call, demoOrganizationIds, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';
import { insights, statistics, tiers } from './dashboard.service.ts';

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
    await t.db.delete(donations).where(inArray(donations.amount_cents, [9_999, 4_000]));
    expect(await totals()).toBe(await truth());
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
