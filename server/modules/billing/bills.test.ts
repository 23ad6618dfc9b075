import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bills, companies, donations, organizations } from '../../db/schema.ts';
import { call, demoOrganizationIds, readyForMatching, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';
import { billMessages, issueBills, monthOf } from './bills.ts';

let t: TestContext;
let token = '';
const org = { hope: 0, chapter: 0, maple: 0 };
let companyId = 0;

beforeAll(async () => {
  t = await createTestContext({ config: { logRequests: false } });
  const demo = await demoOrganizationIds(t.db);
  org.hope = demo.hopeHarbor;
  org.chapter = demo.northShore;
  org.maple = demo.mapleStreet;
  await readyForMatching(t.db, [org.hope, org.chapter, org.maple]);
  // Hope Harbor pays 5% of its eligible match requests, for its chapter too; Maple Street a flat fee.
  await t.db
    .update(organizations)
    .set({ plan: 'elig_5', is_premium: 'true' })
    .where(eq(organizations.id, org.hope));
  await t.db
    .update(organizations)
    .set({ plan: '', is_premium: 'parent' })
    .where(eq(organizations.id, org.chapter));
  await t.db
    .update(organizations)
    .set({ plan: 'flat_20', is_premium: 'true' })
    .where(eq(organizations.id, org.maple));
  const [company] = await t.db
    .insert(companies)
    .values({ name: 'Bills Form Co', match_method: 'form', match_ratio: '1' })
    .returning({ id: companies.id });
  companyId = company?.id ?? 0;
  token = await signIn(t.app, 'admin@twofold.test');
});
afterAll(() => t.close());

let transaction = 0;
async function newMatch(orgId: number): Promise<number> {
  const res = await call(t.app, 'POST', `/api/organization/${orgId}/donation`, {
    token,
    body: {
      id: 0,
      transaction_id: `bills-${++transaction}`,
      donated_at: '2026-11-02 12:00:00',
      amount: 200,
      donor: { name: 'Robin Hale', email: `robin-${transaction}@example.org` },
      company_id: companyId,
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.json.donation.id as number;
}
const confirm = (ids: number[], status: 'submitted' | 'no-charge' | 'refunded') =>
  call(t.app, 'POST', '/api/donation/confirm', { token, body: { donation_ids: ids, status } });
const read = async (id: number) => (await call(t.app, 'GET', `/api/donation/${id}`, { token })).json.donation;
/** The donor (or staff) moves the match to another company, so its status is resolved again. */
const moveTo = async (id: number, company: number) => {
  const res = await call(t.app, 'PUT', `/api/donation/${id}`, {
    token,
    body: {
      donated_at: '2026-11-02 12:00:00',
      amount: 200,
      donor: { name: 'Robin Hale', email: `robin-moved-${id}@example.org` },
      company_id: company,
    },
  });
  expect(res.status, res.text).toBe(200);
  return res.json.donation;
};
let highMinimumCompany = 0;
beforeAll(async () => {
  const [company] = await t.db
    .insert(companies)
    .values({
      name: 'Bills High Minimum Co',
      match_method: 'form',
      match_ratio: '1',
      minimum_match_cents: 50_000,
    })
    .returning({ id: companies.id });
  highMinimumCompany = company?.id ?? 0;
});

describe('per-match bills', () => {
  it('a submitted match of a per-match plan counts on the payer’s bill for the month; a chapter’s on its parent’s', async () => {
    const [own, chapters] = [await newMatch(org.hope), await newMatch(org.chapter)];
    expect((await read(own)).status.billing_status).toBe('ineligible');
    // The dialog is told the payer's rate, so it can say what Submitted will bill.
    expect((await read(own)).billing_rate).toBe(0.05);
    expect((await read(chapters)).billing_rate).toBe(0.05);
    expect((await confirm([own, chapters], 'submitted')).status).toBe(200);
    const [a, b] = [await read(own), await read(chapters)];
    expect(a.status).toMatchObject({ id: 4, billing_status: 'eligible' });
    expect(b.status.billing_status).toBe('eligible');
    expect(b.eligible_bill_id).toBe(a.eligible_bill_id);
    const [bill] = await t.db.select().from(bills).where(eq(bills.id, a.eligible_bill_id));
    expect(bill).toMatchObject({ organization_id: org.hope, plan: 'elig_5', issued_at: null });
    expect(bill?.period_start.toISOString()).toBe(monthOf(new Date()).start.toISOString());
  });

  it('a flat plan bills nothing per match: the match stays ineligible and can be No Charge', async () => {
    const id = await newMatch(org.maple);
    expect((await read(id)).billing_rate).toBeNull();
    await confirm([id], 'submitted');
    expect((await read(id)).status.billing_status).toBe('ineligible');
    expect((await confirm([id], 'refunded')).json.message).toBe(billMessages.refundUnbilled);
    expect((await confirm([id], 'no-charge')).status).toBe(200);
    expect((await read(id)).status_id).toBe(13);
  });

  it('No Charge is refused for a billed match and Refund for an unbilled one, changing nothing', async () => {
    const billed = await newMatch(org.hope);
    const unbilled = await newMatch(org.hope);
    await confirm([billed], 'submitted');
    const noCharge = await confirm([billed, unbilled], 'no-charge');
    expect(noCharge.status).toBe(400);
    expect(noCharge.json.message).toBe(billMessages.noChargeBilled);
    const refund = await confirm([billed, unbilled], 'refunded');
    expect(refund.status).toBe(400);
    expect(refund.json.message).toBe(billMessages.refundUnbilled);
    expect([(await read(billed)).status_id, (await read(unbilled)).status_id]).toEqual([4, 3]);
  });

  it('a refund of a billed match sets Refunded and credits this month’s bill; it cannot be refunded twice', async () => {
    const id = await newMatch(org.hope);
    await confirm([id], 'submitted');
    const refund = await confirm([id], 'refunded');
    expect(refund.status).toBe(200);
    const after = await read(id);
    expect(after.status_id).toBe(16);
    const [credit] = await t.db.select().from(bills).where(eq(bills.id, after.refunded_bill_id));
    expect(credit).toMatchObject({ organization_id: org.hope, plan: 'elig_5' });
    expect((await confirm([id], 'refunded')).json.message).toBe(billMessages.refundUnbilled);
    const [row] = await t.db.select().from(donations).where(eq(donations.id, id));
    expect(row?.refunded_bill_id).toBe(after.refunded_bill_id);
  });

  it('a billed match re-resolved out of the chargeable statuses leaves the open bill (nothing to refund, nothing charged)', async () => {
    const id = await newMatch(org.hope);
    await confirm([id], 'submitted');
    expect((await read(id)).status.billing_status).toBe('eligible');
    const moved = await moveTo(id, highMinimumCompany);
    expect(moved.status_id).toBe(10);
    expect(moved.status.billing_status).toBe('ineligible');
    expect(moved.eligible_bill_id).toBeNull();
    // Back to a company it can be matched by: unbilled until staff confirm it Submitted again.
    const back = await moveTo(id, companyId);
    expect(back.status_id).toBe(3);
    expect(back.eligible_bill_id).toBeNull();
    expect((await confirm([id], 'submitted')).status).toBe(200);
    expect((await read(id)).status.billing_status).toBe('eligible');
  });

  it('a billed match re-resolved to another chargeable status stays on its bill and can be refunded', async () => {
    const id = await newMatch(org.hope);
    await confirm([id], 'submitted');
    const { eligible_bill_id: billId } = await read(id);
    const [csr] = await t.db
      .insert(companies)
      .values({ name: `Bills Portal Co ${id}`, match_method: 'csr', match_ratio: '1' })
      .returning({ id: companies.id });
    const moved = await moveTo(id, csr?.id ?? 0);
    expect(moved.status_id).toBe(7);
    expect(moved.eligible_bill_id).toBe(billId);
    expect((await confirm([id], 'refunded')).status).toBe(200);
  });

  it('GET /bills lists the month with its requests, refunds and what they come to at the plan’s rate', async () => {
    const res = await call(t.app, 'GET', `/api/organization/${org.hope}/bills`, { token });
    expect(res.status).toBe(200);
    const { start } = monthOf(new Date());
    const month = res.json.bills.find(
      (b: { period_start: string }) => b.period_start === start.toISOString(),
    );
    // Every match above was $200 at 1:1, submitted this month; the two refunded ones are credited on
    // the same month's bill, so each counts once among the requests and once among the refunds.
    const rows = await t.db.select().from(donations).where(eq(donations.eligible_bill_id, month.id));
    expect(month).toMatchObject({ plan: 'elig_5', requests: rows.length, refunds: 2, refunded: 400 });
    expect(month.matched).toBe(200 * rows.length);
    expect(month.amount).toBeCloseTo(0.05 * 200 * (rows.length - 2), 2);
    expect((await call(t.app, 'GET', `/api/organization/${org.maple}/bills`, { token })).json.bills).toEqual(
      [],
    );
  });

  it('once the month is over its bill is issued and its matches are processed, once', async () => {
    const id = await newMatch(org.hope);
    await confirm([id], 'submitted');
    const { eligible_bill_id: billId } = await read(id);
    expect(await issueBills(t.db, new Date())).toEqual([]);
    const nextMonth = monthOf(new Date()).end;
    expect(await issueBills(t.db, nextMonth)).toContain(billId);
    expect(await issueBills(t.db, nextMonth)).toEqual([]);
    const after = await read(id);
    expect(after.status.billing_status).toBe('processed');
    expect(after.processed_bill_id).toBe(billId);
  });

  // Runs after the one above, which issued this month's bill early (as if the month were over).
  it('a match confirmed after its month’s bill was issued goes on the next month’s bill, not the issued one', async () => {
    const { start, end } = monthOf(new Date());
    const [issued] = await t.db
      .select({ id: bills.id, issued_at: bills.issued_at })
      .from(bills)
      .where(eq(bills.organization_id, org.hope))
      .orderBy(bills.period_start)
      .then((rows) => rows.filter((b) => b.issued_at !== null));
    expect(issued).toBeDefined();
    const requestsOn = async (billId: number) =>
      (await t.db.select().from(donations).where(eq(donations.eligible_bill_id, billId))).length;
    const before = await requestsOn(issued?.id ?? 0);
    const id = await newMatch(org.hope);
    expect((await confirm([id], 'submitted')).status).toBe(200);
    const after = await read(id);
    // An issued bill takes nothing more: the match would never become processed there.
    expect(after.eligible_bill_id).not.toBe(issued?.id);
    expect(await requestsOn(issued?.id ?? 0)).toBe(before);
    const [next] = await t.db.select().from(bills).where(eq(bills.id, after.eligible_bill_id));
    expect(next).toMatchObject({ organization_id: org.hope, issued_at: null });
    expect(next?.period_start.toISOString()).toBe(end.toISOString());
    expect(start.getTime()).toBeLessThan(end.getTime());
    // When that month is over, the match is issued with its bill and becomes processed.
    const issuedLater = await issueBills(t.db, monthOf(end).end);
    expect(issuedLater).toContain(after.eligible_bill_id);
    expect((await read(id)).status.billing_status).toBe('processed');
  });
});
