import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  companies,
  donationStatusHistory,
  donations,
  organizations,
  permissions,
  users,
} from '../../db/schema.ts';
import { demoOrganizationNames as names } from '../../db/seed.ts';
import { call, demoOrganizationIds, readyForMatching, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';
import { hashPassword } from '../auth/passwords.ts';

let t: TestContext;
const token: Record<string, string> = {};
const org = { parent: 0, chapter: 0, other: 0 };
const company: Record<string, { id: number; name: string }> = {};

beforeAll(async () => {
  t = await createTestContext({ config: { logRequests: false } });
  const demo = await demoOrganizationIds(t.db);
  org.parent = demo.hopeHarbor;
  org.chapter = demo.northShore;
  org.other = demo.mapleStreet;
  await readyForMatching(t.db, [org.parent, org.chapter]);
  // Companies with known policies, so each test reads the status it expects.
  const made = await t.db
    .insert(companies)
    .values([
      {
        name: 'Test Form Co',
        match_method: 'form',
        minimum_match_cents: 2500,
        match_ratio: '2',
        maximum_match_cents: 15_000,
      },
      { name: 'Test Esign Co', match_method: 'esign', match_ratio: '1' },
      { name: 'Test Portal Co', match_method: 'csr', csr_vendor: 'Benevity' },
      { name: 'Test Nothing Co', match_method: null, program: 'none' },
    ])
    .returning({ id: companies.id, name: companies.name });
  for (const c of made) company[c.name] = c;
  const [outsider] = await t.db
    .insert(users)
    .values({
      email: 'outsider@example.org',
      name: 'Out Sider',
      password_hash: await hashPassword('outsider-pass'),
    })
    .returning();
  await t.db.insert(permissions).values({ org_id: org.other, user_id: outsider?.id ?? 0, level: 'admin' });
  token.writer = await signIn(t.app, 'writer@twofold.test');
  token.reader = await signIn(t.app, 'reader@twofold.test');
  token.outsider = await signIn(t.app, 'outsider@example.org', 'outsider-pass');
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.delete(donations);
});

const idOf = (name: string) => company[name]?.id ?? 0;
const match = (change: Record<string, unknown> = {}) => ({
  id: 0,
  donated_at: '2025-03-01 12:00:00',
  amount: 100,
  donor: { name: 'Jordan Lee', email: 'jordan@example.org' },
  company_id: idOf('Test Form Co'),
  ...change,
});
async function create(orgId: number, change: Record<string, unknown> = {}, who = 'writer') {
  return call(t.app, 'POST', `/api/organization/${orgId}/donation`, {
    token: token[who] ?? '',
    body: match(change),
  });
}
async function created(orgId: number, change: Record<string, unknown> = {}) {
  // The outsider administers the other organization.
  const res = await create(orgId, change, orgId === org.other ? 'outsider' : 'writer');
  expect(res.status, res.text).toBe(201);
  return res.json.donation as { id: number; status_id: number; status: { name: string }; matched: number };
}
const list = (orgId: number, query = '', who = 'reader') =>
  call(t.app, 'GET', `/api/organization/${orgId}/donation${query}`, { token: token[who] ?? '' });

describe('creating a match', () => {
  it("resolves its status from the company's policy and estimates the match, with a history row", async () => {
    const res = await create(org.parent);
    expect(res.status).toBe(201);
    const d = res.json.donation;
    expect(d).toMatchObject({
      amount: 100,
      matched: 150,
      status_id: 3,
      status: { name: 'NPO to Verify/Sign', billing_status: 'ineligible' },
      donor: { name: 'Jordan Lee', email: 'jordan@example.org' },
      company: { id: idOf('Test Form Co'), name: 'Test Form Co', match_method: 'form' },
      company_name: 'Test Form Co',
      organization: { id: org.parent, name: names.hopeHarbor },
    });
    expect(d.organization.children).toContainEqual({ id: org.chapter, name: names.northShore });
    const history = await t.db
      .select()
      .from(donationStatusHistory)
      .where(eq(donationStatusHistory.donation_id, d.id));
    expect(history).toMatchObject([{ from_status_id: null, to_status_id: 3 }]);
  });

  it('puts each policy case in its status: below minimum, no program, missing company, recurring, e-sign', async () => {
    expect((await created(org.parent, { amount: 20 })).status.name).toBe('Below Company Minimum');
    expect((await created(org.parent, { company_id: idOf('Test Nothing Co') })).status_id).toBe(19);
    expect(
      (await created(org.parent, { company_id: null, company_name: 'Unknown Employer' })).status_id,
    ).toBe(23);
    expect((await created(org.parent, { recurring_id: 'r-1' })).status_id).toBe(22);
    // A typed name equal to a catalogue company finds it.
    expect((await created(org.parent, { company_id: null, company_name: 'test esign co' })).status_id).toBe(
      5,
    );
  });

  it('gives a deactivated nonprofit NPO Disabled and an unregistered one NPO Registration Incomplete', async () => {
    await t.db.update(organizations).set({ complete: false }).where(eq(organizations.id, org.chapter));
    try {
      expect((await created(org.chapter)).status_id).toBe(17);
      await t.db
        .update(organizations)
        .set({ rule_deactivated: true })
        .where(eq(organizations.id, org.chapter));
      expect((await created(org.chapter)).status_id).toBe(14);
    } finally {
      await t.db
        .update(organizations)
        .set({ complete: true, rule_deactivated: false })
        .where(eq(organizations.id, org.chapter));
    }
  });

  it('refuses a second match with the same transaction id in the organization, and bad input, with messages', async () => {
    await created(org.parent, { transaction_id: 'tx-1' });
    const again = await create(org.parent, { transaction_id: 'tx-1' });
    expect(again.status).toBe(409);
    expect(again.json.message).toBe(
      'A donation with this transaction id already exists for this organization.',
    );
    // Another organization may use the same transaction id.
    expect((await create(org.chapter, { transaction_id: 'tx-1' })).status).toBe(201);
    expect((await create(org.parent, { amount: -5 })).json.message).toBe('amount: Amount cannot be negative');
    expect((await create(org.parent, { company_id: 999_999 })).json).toEqual({
      message: 'Company not found',
    });
    expect((await create(org.parent, { donated_at: '3000-01-01' })).status).toBe(400);
    expect((await create(org.parent, { donor: { name: ' ' } })).json.message).toBe(
      'donor.name: Donor name is required',
    );
    expect(await t.db.select().from(donations)).toHaveLength(2);
  });

  it('answers concurrent creates of one transaction id with one match and 409s, never a 500', async () => {
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => create(org.parent, { transaction_id: 'tx-race' })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409]);
    expect(await t.db.select().from(donations)).toHaveLength(1);
  });

  it('is refused to a reader (403) and an outsider (404), changing nothing', async () => {
    expect((await create(org.parent, {}, 'reader')).status).toBe(403);
    expect((await create(org.parent, {}, 'outsider')).status).toBe(404);
    expect(await t.db.select().from(donations)).toHaveLength(0);
  });
});

describe('updating, confirming and deleting a match', () => {
  it('keeps the status on a plain save, re-resolves it when the company changes or on reprocess', async () => {
    const d = await created(org.parent);
    const put = (body: Record<string, unknown>) =>
      call(t.app, 'PUT', `/api/donation/${d.id}`, {
        token: token.writer ?? '',
        body: match({ id: d.id, ...body }),
      });
    await t.db.update(donations).set({ status_id: 28 }).where(eq(donations.id, d.id));
    const plain = await put({ amount: 120 });
    expect(plain.json.donation).toMatchObject({ status_id: 28, amount: 120, matched: 150 });
    const moved = await put({ company_id: idOf('Test Portal Co') });
    expect(moved.json.donation).toMatchObject({
      status_id: 7,
      status: { name: 'Donor to Submit in Company Portal' },
    });
    await t.db.update(donations).set({ status_id: 20 }).where(eq(donations.id, d.id));
    expect((await put({ company_id: idOf('Test Portal Co'), reprocess: true })).json.donation.status_id).toBe(
      7,
    );
    const history = await t.db
      .select()
      .from(donationStatusHistory)
      .where(eq(donationStatusHistory.donation_id, d.id));
    expect(history.map((h) => [h.from_status_id, h.to_status_id])).toEqual([
      [null, 3],
      [28, 7],
      [20, 7],
    ]);
  });

  it("shows the other gifts of a recurring series as its history, newest first, and none of another organization's", async () => {
    const first = await created(org.parent, {
      recurring_id: 'series-1',
      donated_at: '2025-01-01 12:00:00',
      amount: 20,
    });
    const second = await created(org.parent, {
      recurring_id: 'series-1',
      donated_at: '2025-02-01 12:00:00',
      amount: 25,
    });
    const third = await created(org.parent, {
      recurring_id: 'series-1',
      donated_at: '2025-03-01 12:00:00',
      amount: 30,
    });
    await created(org.parent, { recurring_id: 'series-2', amount: 40 });
    await created(org.other, { recurring_id: 'series-1', amount: 50 });
    const res = await call(t.app, 'GET', `/api/donation/${third.id}`, { token: token.reader ?? '' });
    expect(res.status).toBe(200);
    expect(
      res.json.donation.recurring_history.map((h: { id: number; amount: number }) => [h.id, h.amount]),
    ).toEqual([
      [second.id, 25],
      [first.id, 20],
    ]);
    expect(res.json.donation.recurring_history[0].donated_at).toBe('2025-02-01T12:00:00.000Z');
    const single = await created(org.parent, { amount: 60 });
    const alone = await call(t.app, 'GET', `/api/donation/${single.id}`, { token: token.reader ?? '' });
    expect(alone.json.donation.recurring_history).toEqual([]);
  });

  it('keeps the hidden custom keys out of reach of an edit', async () => {
    const d = await created(org.parent, { custom: { team: 'blue', history: 'forged' } });
    await t.db
      .update(donations)
      .set({ custom: { team: 'blue', history: 'kept' } })
      .where(eq(donations.id, d.id));
    const res = await call(t.app, 'PUT', `/api/donation/${d.id}`, {
      token: token.writer ?? '',
      body: match({ id: d.id, custom: { team: 'red', history: 'changed' } }),
    });
    expect(res.json.donation.custom).toEqual({ team: 'red', history: 'kept' });
  });

  it('confirms several matches at once with history rows, or none when one is out of reach', async () => {
    const a = await created(org.parent);
    const b = await created(org.chapter);
    const theirs = await created(org.other);
    const confirm = (ids: number[], who = 'writer') =>
      call(t.app, 'POST', '/api/donation/confirm', {
        token: token[who] ?? '',
        body: { donation_ids: ids, status: 'no-charge' },
      });
    const refused = await confirm([a.id, theirs.id]);
    expect(refused.status).toBe(404);
    expect((await confirm([a.id, 999_999])).json.message).toBe('Donation not found');
    expect((await confirm([a.id], 'reader')).status).toBe(403);
    const statusOf = async (id: number) =>
      (await t.db.select({ s: donations.status_id }).from(donations).where(eq(donations.id, id)))[0]?.s;
    expect(await statusOf(a.id)).toBe(3);
    const ok = await confirm([a.id, b.id]);
    expect(ok.status).toBe(200);
    expect(ok.json.message).toBe('Donation status updated successfully.');
    expect([await statusOf(a.id), await statusOf(b.id), await statusOf(theirs.id)]).toEqual([
      13,
      13,
      theirs.status_id,
    ]);
    const got = await call(t.app, 'GET', `/api/donation/${a.id}`, { token: token.reader ?? '' });
    expect(got.json.donation.status.name).toBe('No Charge (internal)');
    const history = await t.db
      .select()
      .from(donationStatusHistory)
      .where(eq(donationStatusHistory.to_status_id, 13));
    expect(history).toHaveLength(2);
  });

  it('deletes a match for a writer; an outsider can neither read, change nor delete it', async () => {
    const d = await created(org.parent);
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', match({ id: d.id })],
      ['DELETE', undefined],
    ] as const) {
      const res = await call(t.app, method, `/api/donation/${d.id}`, { token: token.outsider ?? '', body });
      // Exactly as for an id that does not exist: another organization's ids are not confirmed.
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ message: 'Donation not found' });
      const missing = await call(t.app, method, '/api/donation/987654321', {
        token: token.outsider ?? '',
        body,
      });
      expect(missing.status).toBe(404);
      expect(missing.json).toEqual(res.json);
    }
    const confirmOthers = await call(t.app, 'POST', '/api/donation/confirm', {
      token: token.outsider ?? '',
      body: { donation_ids: [d.id], status: 'submitted' },
    });
    expect(confirmOthers.json).toEqual({ message: 'Donation not found' });
    expect((await call(t.app, 'DELETE', `/api/donation/${d.id}`, { token: token.reader ?? '' })).status).toBe(
      403,
    );
    const res = await call(t.app, 'DELETE', `/api/donation/${d.id}`, { token: token.writer ?? '' });
    expect(res.json).toEqual({ message: 'Match deleted successfully.' });
    expect((await call(t.app, 'GET', `/api/donation/${d.id}`, { token: token.writer ?? '' })).json).toEqual({
      message: 'Donation not found',
    });
  });
});

describe('the donations list', () => {
  beforeEach(async () => {
    await created(org.parent, {
      donated_at: '2025-01-10 09:00',
      amount: 50,
      donor: { name: 'Ann Alpha', email: 'ann@example.org' },
    });
    await created(org.parent, {
      donated_at: '2025-02-10 09:00',
      amount: 300,
      company_id: idOf('Test Esign Co'),
    });
    await created(org.chapter, {
      donated_at: '2025-03-10 09:00',
      amount: 75,
      company_id: idOf('Test Portal Co'),
      donor: { name: 'Cy Chapter', email: 'cy@chapter.example.org' },
    });
    await created(org.other, { donated_at: '2025-03-11 09:00' });
    const [noResponse] = await t.db
      .select({ id: donations.id })
      .from(donations)
      .where(eq(donations.amount_cents, 30_000));
    await t.db
      .update(donations)
      .set({ status_id: 20 })
      .where(eq(donations.id, noResponse?.id ?? 0));
  });

  it("shows a parent its chapters' matches, newest first, with the tile counts; a chapter only its own", async () => {
    const res = await list(org.parent);
    expect(res.status).toBe(200);
    expect(res.json.total).toBe(3);
    expect(res.json.donations.map((d: { donated_at: string }) => d.donated_at.slice(0, 10))).toEqual([
      '2025-03-10',
      '2025-02-10',
      '2025-01-10',
    ]);
    expect(res.json.donations[0].organization.name).toBe(names.northShore);
    expect(res.json.counts).toEqual({
      donor_contacted: 1,
      npo_verify: 1,
      engaged_submitted: 0,
      no_response: 1,
    });
    expect((await list(org.chapter)).json.total).toBe(1);
  });

  it('filters by dates, company, donor name or email, minimum amount and tile; counts ignore only the tile', async () => {
    const total = async (query: string) => (await list(org.parent, query)).json.total;
    expect(await total('?filters[dateFrom]=2025-02-10&filters[dateTo]=2025-03-09')).toBe(1);
    expect(await total('?filters[dateTo]=2025-01-10')).toBe(1);
    expect(await total('?filters[company]=ESIGN')).toBe(1);
    expect(await total('?filters[donor]=alpha')).toBe(1);
    expect(await total('?filters[donor]=chapter.example')).toBe(1);
    expect(await total('?filters[minAmount]=75')).toBe(2);
    const tile = await list(org.parent, '?filters[status_group]=no_response&filters[minAmount]=60');
    expect(tile.json.total).toBe(1);
    expect(tile.json.counts).toEqual({
      donor_contacted: 1,
      npo_verify: 0,
      engaged_submitted: 0,
      no_response: 1,
    });
  });

  it('counts the tiles from the running counts exactly as from the gifts, through inserts, updates and deletes', async () => {
    // The running counts (donation_status_totals, donation_day_stats, donation_company_stats) answer
    // the list without filters, with dates only and with 'company contains' alone; a minimum of
    // $0 selects the same gifts but counts them one by one, the truth each is compared with.
    const rows = Array.from({ length: 40 }, (_, i) => ({
      organization_id: [org.parent, org.chapter, org.other][i % 3] ?? org.parent,
      status_id: [1, 2, 3, 4, 7, 20, 21, 28][i % 8] ?? 1,
      amount_cents: 1_000 + i,
      donated_at: new Date(Date.UTC(2025, i % 4, 1 + (i % 27), 23, 30)),
      company_name:
        i % 5 === 0 ? null : (['Acme Widgets', 'ACME Tools', 'Globex', 'Ümlaut Ltd'][i % 4] ?? null),
    }));
    await t.db.insert(donations).values(rows);
    const queries = [
      '',
      '?filters[dateFrom]=2025-02-01&filters[dateTo]=2025-03-15',
      '?filters[dateTo]=2025-01-20',
      '?filters[company]=acme',
      '?filters[company]=ümlaut',
      '?filters[company]=%25',
      '?filters[company]=acme&filters[status_group]=npo_verify',
    ];
    const agree = async () => {
      for (const query of queries)
        for (const orgId of [org.parent, org.chapter]) {
          const fast = (await list(orgId, query)).json;
          const slow = (await list(orgId, `${query}${query ? '&' : '?'}filters[minAmount]=0`)).json;
          expect([query, fast.total, fast.counts]).toEqual([query, slow.total, slow.counts]);
        }
    };
    await agree();
    expect((await list(org.parent, '?filters[company]=acme')).json.total).toBeGreaterThan(0);
    await t.db.update(donations).set({ status_id: 28 }).where(eq(donations.status_id, 1));
    await t.db
      .update(donations)
      .set({ company_name: 'Acme Widgets' })
      .where(eq(donations.company_name, 'Globex'));
    await t.db.update(donations).set({ organization_id: org.other }).where(eq(donations.amount_cents, 1_004));
    await t.db.update(donations).set({ silenced: true }); // counts nothing: changes nothing
    await agree();
    await t.db.delete(donations).where(inArray(donations.status_id, [2, 21]));
    await agree();
  });

  it('sorts by an allowed field and pages, and refuses anything else with a clear message', async () => {
    const byAmount = await list(org.parent, '?sort_field=amount&ascending=true&per_page=2&page=1');
    expect(byAmount.json.donations.map((d: { amount: number }) => d.amount)).toEqual([50, 75]);
    expect(byAmount.json.total).toBe(3);
    const second = await list(org.parent, '?sort_field=amount&ascending=true&per_page=2&page=2');
    expect(second.json.donations.map((d: { amount: number }) => d.amount)).toEqual([300]);
    expect((await list(org.parent, '?per_page=101')).json.message).toBe(
      'per_page must be a whole number from 1 to 100',
    );
    expect((await list(org.parent, '?sort_field=password')).status).toBe(400);
    expect((await list(org.parent, '?filters[dateFrom]=2025-02-30')).json.message).toBe(
      'dateFrom is not a valid date',
    );
  });

  it('pages a parent and its chapters by date or amount exactly as one sorted list would, ties broken by id, both directions', async () => {
    // Same-day gifts spread over the parent and a chapter, on top of the three above.
    for (let i = 0; i < 9; i++)
      await created(i % 2 ? org.chapter : org.parent, {
        donated_at: `2025-0${1 + (i % 3)}-10 09:00`,
        amount: 10 + (i % 4),
        ...(i % 4 === 0 ? { company_id: idOf('Test Esign Co') } : {}),
      });
    const all = await t.db
      .select({
        id: donations.id,
        at: donations.donated_at,
        amount: donations.amount_cents,
        status: donations.status_id,
      })
      .from(donations)
      .where(inArray(donations.organization_id, [org.parent, org.chapter]));
    type Row = (typeof all)[number];
    const key = { donated_at: (r: Row) => r.at.getTime(), amount: (r: Row) => r.amount };
    const expected = (
      ascending: boolean,
      keep: (r: Row) => boolean = () => true,
      by: keyof typeof key = 'donated_at',
    ) =>
      all
        .filter(keep)
        .sort((a, b) => key[by](a) - key[by](b) || a.id - b.id)
        .map((r) => r.id)
        [ascending ? 'slice' : 'reverse']();
    for (const by of ['donated_at', 'amount'] as const)
      for (const ascending of [false, true]) {
        const pages: number[] = [];
        for (let page = 1; page <= 3; page++) {
          const res = await list(
            org.parent,
            `?per_page=5&page=${page}&sort_field=${by}&ascending=${ascending}`,
          );
          expect(res.status).toBe(200);
          expect(res.json.total).toBe(all.length);
          pages.push(...res.json.donations.map((d: { id: number }) => d.id));
        }
        expect(pages, `${by} ${ascending ? 'ascending' : 'descending'}`).toEqual(
          expected(ascending, undefined, by),
        );
      }
    // With a tile chosen, the same merge keeps only its statuses (NPO to Verify: 3, 5, 25).
    const tile = await list(org.parent, '?per_page=3&page=2&filters[status_group]=npo_verify');
    expect(tile.json.donations.map((d: { id: number }) => d.id)).toEqual(
      expected(false, (r) => [3, 5, 25].includes(r.status)).slice(3, 6),
    );
  });

  it('is refused to an outsider with 404', async () => {
    const res = await list(org.parent, '', 'outsider');
    expect(res.status).toBe(404);
    expect(res.json.message).toBe(`Organization with id ${org.parent} not found`);
  });
});
