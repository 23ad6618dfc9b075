import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/rows.ts';
import {
  companies,
  donationEmployerEvents,
  donationStatusHistory,
  donations,
  donors,
  employerReviews,
  employerScreenings,
} from '../../db/schema.ts';
import { afterCommitSettled } from '../../jobs/after-commit.ts';
import { call, demoOrganizationIds, readyForMatching, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';
import { runScreenings } from './screening.ts';

let t: TestContext;
let admin = '';
let orgId = 0;
let otherOrg = 0;
beforeAll(async () => {
  t = await createTestContext({ config: { logRequests: false } });
  const demo = await demoOrganizationIds(t.db);
  orgId = demo.mapleStreet;
  otherOrg = demo.hopeHarbor;
  await readyForMatching(t.db, [orgId, otherOrg]);
  admin = await signIn(t.app, 'admin@twofold.test');
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.delete(employerScreenings);
  await t.db.delete(donations);
  await t.db.delete(donors);
});

/** A match held at Missing Company Hold (23), as an import without a catalogue company leaves it. */
async function held(org: number, typed: string | null, email: string | null) {
  const [donor] = await t.db
    .insert(donors)
    .values({ organization_id: org, name: 'Held Donor', email })
    .returning();
  const [row] = await t.db
    .insert(donations)
    .values({
      organization_id: org,
      donor_id: donor?.id ?? null,
      company_name: typed,
      amount_cents: 20_000,
      donated_at: new Date('2026-02-01T12:00:00Z'),
      status_id: 23,
    })
    .returning();
  return row?.id ?? 0;
}

const match = async (id: number) => (await t.db.select().from(donations).where(eq(donations.id, id)))[0];
const companyId = async (name: string) =>
  (await t.db.select({ id: companies.id }).from(companies).where(eq(companies.name, name)))[0]?.id ?? 0;

async function screen() {
  const started = await call(t.app, 'POST', `/api/organization/${orgId}/employers/screenings`, {
    token: admin,
  });
  expect(started.status).toBe(202);
  await afterCommitSettled(t.db);
  return call(t.app, 'GET', `/api/organization/${orgId}/employers/screenings/latest`, { token: admin });
}

describe('Find employers', () => {
  it('applies answers at or above the threshold (the match moves on, with history) and lists the rest for review', async () => {
    const typo = await held(orgId, 'Acme Analytcs', 'a@gmail.com');
    const domain = await held(orgId, null, 'b@birch-bank.example.com');
    const conflict = await held(orgId, 'Birch Bank', 'c@acme-analytics.example.com');
    const unknown = await held(orgId, 'Zephyr Robotics', 'd@yahoo.com');
    const elsewhere = await held(otherOrg, 'Acme Analytics', null);
    const latest = await screen();
    expect(latest.json).toMatchObject({
      screening: { status: 'done', total: 4, processed: 4, applied: 2, to_review: 1 },
    });
    const moved = await match(typo);
    expect(moved).toMatchObject({ company_id: await companyId('Acme Analytics'), employer_method: 'name' });
    expect(moved?.status_id).not.toBe(23);
    expect((await match(domain))?.employer_reason).toBe('email domain birch-bank.example.com');
    expect((await match(conflict))?.status_id).toBe(23);
    expect((await match(unknown))?.status_id).toBe(23);
    expect((await match(elsewhere))?.status_id).toBe(23);
    const history = await t.db
      .select()
      .from(donationStatusHistory)
      .where(eq(donationStatusHistory.donation_id, typo));
    expect(history).toEqual([
      expect.objectContaining({ from_status_id: 23, to_status_id: moved?.status_id }),
    ]);
    const events = await t.db
      .select()
      .from(donationEmployerEvents)
      .where(eq(donationEmployerEvents.donation_id, typo));
    expect(events).toEqual([expect.objectContaining({ kind: 'identified', method: 'name' })]);
    const reviews = await call(t.app, 'GET', `/api/organization/${orgId}/employers/reviews`, {
      token: admin,
    });
    expect(reviews.json).toMatchObject({
      total: 1,
      reviews: [{ donation_id: conflict, company_name: 'Acme Analytics', method: 'domain', confidence: 60 }],
    });
  });

  it('answers the run under way instead of starting a second', async () => {
    await held(orgId, 'Acme Analytcs', null);
    const [open] = await t.db
      .insert(employerScreenings)
      .values({ organization_id: orgId, status: 'running', total: 1 })
      .returning();
    const res = await call(t.app, 'POST', `/api/organization/${orgId}/employers/screenings`, {
      token: admin,
    });
    await afterCommitSettled(t.db);
    expect(res.json.screening.id).toBe(open?.id);
    expect(await t.db.select().from(employerScreenings)).toHaveLength(1);
  });

  it('resumes after a restart from the last match it screened', async () => {
    const done = await held(orgId, 'Acme Analytcs', null);
    const left = await held(orgId, 'Birch Bnak', null);
    // A run that screened the first match and stopped (a crash): its progress is in its row.
    await t.db
      .insert(employerScreenings)
      .values({ organization_id: orgId, status: 'running', total: 2, processed: 1, last_donation_id: done });
    expect(await runScreenings(t.db)).toBe(1);
    expect((await match(done))?.status_id).toBe(23);
    expect((await match(left))?.company_id).toBe(await companyId('Birch Bank'));
    const [row] = await t.db.select().from(employerScreenings);
    expect(row).toMatchObject({ status: 'done', processed: 2, applied: 1 });
  });
});

describe('the review list', () => {
  async function proposals(n: number) {
    const ids: number[] = [];
    for (let i = 0; i < n; i++) ids.push(await held(orgId, 'Birch Bank', `r${i}@acme-analytics.example.com`));
    await screen();
    const reviews = await t.db
      .select()
      .from(employerReviews)
      .where(eq(employerReviews.organization_id, orgId))
      .orderBy(asc(employerReviews.id));
    return { matches: ids, reviews: reviews.map((r) => r.id) };
  }
  const decide = (body: unknown) =>
    call(t.app, 'POST', `/api/organization/${orgId}/employers/reviews/decide`, { token: admin, body });

  it('accepts several at once: the matches move on as the status table says, with history', async () => {
    const { matches, reviews } = await proposals(2);
    const res = await decide({ ids: reviews, action: 'accept' });
    expect(res.json).toEqual({ accepted: 2, corrected: 0, rejected: 0, skipped: 0 });
    for (const id of matches) {
      const m = await match(id);
      expect(m).toMatchObject({ company_name: 'Acme Analytics', employer_method: 'person' });
      expect(m?.status_id).not.toBe(23);
      expect(m?.employer_reason).toMatch(/^accepted by staff: email domain acme-analytics\.example\.com/);
    }
    const again = await decide({ ids: reviews, action: 'accept' });
    expect(again.json).toEqual({ accepted: 0, corrected: 0, rejected: 0, skipped: 2 });
  });

  it('corrects one to another company, and rejects leaving the match on hold', async () => {
    const { matches, reviews } = await proposals(2);
    const birch = await companyId('Birch Bank');
    expect((await decide({ ids: reviews, action: 'correct', company_id: birch })).status).toBe(400);
    expect((await decide({ ids: [reviews[0]], action: 'correct' })).status).toBe(400);
    expect((await decide({ ids: [reviews[0]], action: 'correct', company_id: birch })).json).toMatchObject({
      corrected: 1,
    });
    expect((await match(matches[0] ?? 0))?.company_id).toBe(birch);
    expect((await decide({ ids: [reviews[1]], action: 'reject' })).json).toMatchObject({ rejected: 1 });
    expect((await match(matches[1] ?? 0))?.status_id).toBe(23);
    const [rejected] = await t.db
      .select()
      .from(donationEmployerEvents)
      .where(
        and(
          eq(donationEmployerEvents.donation_id, matches[1] ?? 0),
          eq(donationEmployerEvents.kind, 'rejected'),
        ),
      );
    expect(rejected?.reason).toMatch(/^rejected by staff/);
  });

  it("never decides another organization's review", async () => {
    const { reviews } = await proposals(1);
    const res = await call(t.app, 'POST', `/api/organization/${otherOrg}/employers/reviews/decide`, {
      token: admin,
      body: { ids: reviews, action: 'accept' },
    });
    expect(res.json).toEqual({ accepted: 0, corrected: 0, rejected: 0, skipped: 1 });
    const [review] = await t.db
      .select()
      .from(employerReviews)
      .where(eq(employerReviews.id, reviews[0] ?? 0));
    expect(review?.status).toBe('pending');
  });
});

describe('where else it runs', () => {
  it('a match created by staff or the API finds its company from a typed name in any spelling', async () => {
    const res = await call(t.app, 'POST', `/api/organization/${orgId}/donation`, {
      token: admin,
      body: {
        amount: 120,
        donated_at: '2026-02-03 12:00:00',
        donor: { name: 'New Donor', email: 'new@gmial.com' },
        company_name: 'The Acme Analytics Company',
      },
    });
    expect(res.status, res.text).toBe(201);
    const created = res.json as { donation: { id: number; company_id: number | null } };
    expect(created.donation.company_id).toBe(await companyId('Acme Analytics'));
    const m = await match(created.donation.id);
    expect(m).toMatchObject({ employer_method: 'name', employer_confidence: 97 });
    // The match dialog shows how the company was found.
    const read = await call(t.app, 'GET', `/api/donation/${created.donation.id}`, { token: admin });
    expect(read.json.donation.employer).toEqual({
      method: 'name',
      confidence: 97,
      reason: "typed 'The Acme Analytics Company', the name of Acme Analytics",
    });
    const [donor] = await t.db
      .select()
      .from(donors)
      .where(eq(donors.id, m?.donor_id ?? 0));
    expect(donor?.email).toBe('new@gmail.com');
    // The dialog shows the correction from the history, with the address as the donor gave it.
    expect(read.json.donation.email_correction).toMatchObject({ from: 'new@gmial.com', to: 'new@gmail.com' });
    expect(Date.parse(read.json.donation.email_correction.at)).not.toBeNaN();
  });

  it('suggests the employer of a work email to the public match request, never of a free-mail one', async () => {
    const work = await call(
      t.app,
      'GET',
      '/api/public/employer-suggestion?email=jo%40acme-analytics.example.com',
    );
    expect(work.json).toEqual({
      company: { id: await companyId('Acme Analytics'), name: 'Acme Analytics' },
      reason: 'email domain acme-analytics.example.com',
    });
    const free = await call(t.app, 'GET', '/api/public/employer-suggestion?email=jo%40gmail.com');
    expect(free.json).toEqual({ company: null, reason: null });
  });

  it('counts the companies found by how', async () => {
    await held(orgId, 'Acme Analytcs', null);
    await held(orgId, null, 'b@birch-bank.example.com');
    await held(orgId, 'Zephyr Robotics', null);
    await screen();
    const res = await call(t.app, 'GET', `/api/organization/${orgId}/employers/summary`, { token: admin });
    expect(res.json).toEqual({
      found: { domain: 1, name: 1, alias: 0, history: 0, person: 0, unrecorded: 0 },
      missing: 1,
      to_review: 0,
    });
    // The dashboard's range (inclusive days): the held gifts were donated on 2026-02-01.
    const summary = (q: string) =>
      call(t.app, 'GET', `/api/organization/${orgId}/employers/summary?${q}`, { token: admin });
    expect((await summary('from=2026-02-01&to=2026-02-01')).json).toEqual(res.json);
    expect((await summary('from=2026-02-02&to=2026-12-31')).json).toEqual({
      found: { domain: 0, name: 0, alias: 0, history: 0, person: 0, unrecorded: 0 },
      missing: 0,
      to_review: 0,
    });
    expect((await summary('to=2026-01-31')).json.found.domain).toBe(0);
    for (const bad of ['from=2026-02-02&to=2026-02-01', 'from=2026-13-01', 'to=yesterday']) {
      const refused = await summary(bad);
      expect(refused.status, bad).toBe(400);
    }
  });
});

describe("the employers found figures' running totals", () => {
  it('stay equal to the matches through inserts, updates and deletes', async () => {
    const kindOf = sql`case when company_id is not null then coalesce(employer_method, 'unrecorded')
                            when status_id = 23 then 'missing' end`;
    const totals = async () =>
      JSON.stringify(
        await queryRows(
          t.db,
          sql`select organization_id, day::text, kind, count::int from donation_employer_day_stats
              where count <> 0 order by 1, 2, 3`,
        ),
      );
    const truth = async () =>
      JSON.stringify(
        await queryRows(
          t.db,
          sql`select organization_id, ((donated_at at time zone 'UTC')::date)::text as day, ${kindOf} as kind, count(*)::int as count
              from donations where ${kindOf} is not null group by 1, 2, 3 order by 1, 2, 3`,
        ),
      );
    expect(await totals()).toBe(await truth());
    const [acme] = await t.db.select({ id: companies.id }).from(companies).limit(1);
    const inserted = await t.db
      .insert(donations)
      .values([
        // Found by domain, by name; a company with no method recorded; held at Missing Company;
        // no company but another status (no row); late evening west of UTC (the next UTC day).
        {
          organization_id: orgId,
          company_id: acme?.id ?? null,
          employer_method: 'domain',
          status_id: 2,
          amount_cents: 100,
          donated_at: new Date('2026-03-01T10:00:00Z'),
        },
        {
          organization_id: orgId,
          company_id: acme?.id ?? null,
          employer_method: 'name',
          status_id: 2,
          amount_cents: 100,
          donated_at: new Date('2026-03-01T11:00:00Z'),
        },
        {
          organization_id: orgId,
          company_id: acme?.id ?? null,
          status_id: 4,
          amount_cents: 100,
          donated_at: new Date('2026-03-02T10:00:00Z'),
        },
        {
          organization_id: orgId,
          company_id: null,
          status_id: 23,
          amount_cents: 100,
          donated_at: new Date('2026-03-02T10:00:00Z'),
        },
        {
          organization_id: orgId,
          company_id: null,
          status_id: 19,
          amount_cents: 100,
          donated_at: new Date('2026-03-02T10:00:00Z'),
        },
        {
          organization_id: otherOrg,
          company_id: null,
          status_id: 23,
          amount_cents: 100,
          donated_at: new Date('2026-03-03T23:30:00-05:00'),
        },
      ])
      .returning({ id: donations.id });
    const ids = inserted.map((r) => r.id);
    expect(await totals()).toBe(await truth());
    // A held match found by a person; a found one losing its company; a date moved; another
    // organization; a change of nothing counted.
    await t.db
      .update(donations)
      .set({ company_id: acme?.id ?? null, employer_method: 'person', status_id: 2 })
      .where(eq(donations.id, ids[3] ?? 0));
    await t.db
      .update(donations)
      .set({ company_id: null, employer_method: null, status_id: 23 })
      .where(eq(donations.id, ids[0] ?? 0));
    await t.db
      .update(donations)
      .set({ donated_at: new Date('2026-04-15T12:00:00Z') })
      .where(eq(donations.id, ids[1] ?? 0));
    await t.db
      .update(donations)
      .set({ organization_id: otherOrg })
      .where(eq(donations.id, ids[2] ?? 0));
    await t.db.update(donations).set({ silenced: true }).where(inArray(donations.id, ids));
    expect(await totals()).toBe(await truth());
    await t.db.delete(donations).where(inArray(donations.id, [ids[0] ?? 0, ids[5] ?? 0]));
    expect(await totals()).toBe(await truth());
    // The summary reads them: the moved one on its new day only.
    const april = await call(
      t.app,
      'GET',
      `/api/organization/${orgId}/employers/summary?from=2026-04-01&to=2026-04-30`,
      { token: admin },
    );
    expect(april.json.found).toEqual({ domain: 0, name: 1, alias: 0, history: 0, person: 0, unrecorded: 0 });
    await t.db.delete(donations).where(inArray(donations.id, ids));
  });
});
