import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  companies,
  donationStatusHistory,
  donations,
  esignDocuments,
  permissions,
  users,
} from '../../db/schema.ts';
import { call, demoOrganizationIds, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';
import { hashPassword } from '../auth/passwords.ts';

let t: TestContext;
const token: Record<string, string> = {};
const org = { parent: 0, chapter: 0, other: 0 };
const company = { benevity: 0, form: 0 };

beforeAll(async () => {
  t = await createTestContext({ config: { logRequests: false } });
  const demo = await demoOrganizationIds(t.db);
  org.parent = demo.hopeHarbor;
  org.chapter = demo.northShore;
  org.other = demo.mapleStreet;
  const made = await t.db
    .insert(companies)
    .values([
      {
        name: 'Queue Portal Co',
        match_method: 'csr',
        csr_vendor: 'benevity',
        verify: 'email',
        deadline_rule: 'year-end',
      },
      { name: 'Queue Form Co', match_method: 'form', url: 'https://form.example.org', verify: 'both' },
    ])
    .returning({ id: companies.id });
  company.benevity = made[0]?.id ?? 0;
  company.form = made[1]?.id ?? 0;
  const [outsider] = await t.db
    .insert(users)
    .values({
      email: 'queue-outsider@example.org',
      name: 'Out',
      password_hash: await hashPassword('outsider-pass'),
    })
    .returning();
  await t.db.insert(permissions).values({ org_id: org.other, user_id: outsider?.id ?? 0, level: 'admin' });
  token.writer = await signIn(t.app, 'writer@twofold.test');
  token.reader = await signIn(t.app, 'reader@twofold.test');
  token.outsider = await signIn(t.app, 'queue-outsider@example.org', 'outsider-pass');
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.delete(donations);
});

async function stored(orgId: number, values: Partial<typeof donations.$inferInsert> = {}) {
  const [row] = await t.db
    .insert(donations)
    .values({
      organization_id: orgId,
      amount_cents: 10_000,
      matched_cents: 10_000,
      donated_at: new Date('2025-03-01T12:00:00Z'),
      status_id: 3,
      company_id: company.form,
      company_name: 'Queue Form Co',
      ...values,
    })
    .returning({ id: donations.id });
  return row?.id ?? 0;
}
const queue = (orgId: number, who = 'reader') =>
  call(t.app, 'GET', `/api/organization/${orgId}/verification`, { token: token[who] ?? '' });
const act = (orgId: number, action: 'verify' | 'decline', body: unknown, who = 'writer') =>
  call(t.app, 'POST', `/api/organization/${orgId}/verification/${action}`, { token: token[who] ?? '', body });
const statusOf = async (ids: number[]) =>
  (
    await t.db
      .select({ id: donations.id, s: donations.status_id })
      .from(donations)
      .where(inArray(donations.id, ids))
  )
    .sort((a, b) => a.id - b.id)
    .map((r) => r.s);

describe('the verification queue', () => {
  it('lists the matches waiting on the nonprofit, oldest first, grouped by company and vendor, chapters included', async () => {
    const newer = await stored(org.parent, { donated_at: new Date('2025-05-01T12:00:00Z') });
    const oldest = await stored(org.chapter, {
      donated_at: new Date('2025-01-10T12:00:00Z'),
      company_id: company.benevity,
      company_name: 'Queue Portal Co',
    });
    const esign = await stored(org.parent, { status_id: 25, donated_at: new Date('2025-02-01T12:00:00Z') });
    await stored(org.parent, { status_id: 4 }); // submitted: not waiting on anyone here
    await stored(org.other); // another organization's
    const res = await queue(org.parent);
    expect(res.status).toBe(200);
    expect(res.json.total).toBe(3);
    expect(res.json.groups).toMatchObject([
      {
        company_name: 'Queue Portal Co',
        vendor: 'Benevity',
        portal_url: 'https://causes.benevity.org',
        deadline: '2025-12-31',
        items: [{ id: oldest, status: { id: 3 } }],
      },
      {
        company_name: 'Queue Form Co',
        vendor: null,
        portal_url: 'https://form.example.org',
        items: [{ id: esign }, { id: newer }],
      },
    ]);
    expect(res.json.groups[0].items[0].check).toContain('Benevity portal');
    expect(res.json.groups[1].items[0].check).toContain('signs the company’s form first');
    expect(res.json.groups[1].items[1].check).toContain('by email and by phone');
  });

  it('marks the forms a donor signed in Twofold as waiting on the countersignature, and says so', async () => {
    const signed = await stored(org.parent);
    const unsigned = await stored(org.parent, { donated_at: new Date('2025-03-02T12:00:00Z') });
    const countersigned = await stored(org.parent, { donated_at: new Date('2025-03-03T12:00:00Z') });
    await t.db.insert(esignDocuments).values([
      { donation_id: signed, organization_id: org.parent, donor_signed_at: new Date() },
      {
        donation_id: countersigned,
        organization_id: org.parent,
        donor_signed_at: new Date(),
        countersigned_at: new Date(),
      },
    ]);
    const res = await queue(org.parent);
    expect(res.status).toBe(200);
    const items = (
      res.json.groups as Array<{ items: Array<{ id: number; awaiting_countersign: boolean; check: string }> }>
    ).flatMap((g) => g.items);
    const byId = new Map(items.map((i) => [i.id, i]));
    expect(byId.get(signed)?.awaiting_countersign).toBe(true);
    expect(byId.get(signed)?.check).toContain('countersign it');
    expect(byId.get(unsigned)?.awaiting_countersign).toBe(false);
    expect(byId.get(countersigned)?.awaiting_countersign).toBe(false);
    expect(byId.get(unsigned)?.check).not.toContain('countersign');
  });

  it("never shows another organization's queue", async () => {
    await stored(org.parent);
    expect((await queue(org.parent, 'outsider')).status).toBe(404);
  });
});

describe('bulk verify and decline', () => {
  it('verifies five matches at once: each moves to Submitted with a history row naming the staff member', async () => {
    const ids = await Promise.all([1, 2, 3, 4, 5].map(() => stored(org.parent)));
    const res = await act(org.parent, 'verify', { donation_ids: ids });
    expect(res.status, res.text).toBe(200);
    expect(res.json.message).toBe('5 matches verified.');
    expect(await statusOf(ids)).toEqual([4, 4, 4, 4, 4]);
    const history = await t.db
      .select()
      .from(donationStatusHistory)
      .where(inArray(donationStatusHistory.donation_id, ids));
    expect(history).toHaveLength(5);
    const [writer] = await t.db.select().from(users).where(eq(users.email, 'writer@twofold.test'));
    for (const h of history)
      expect(h).toMatchObject({ from_status_id: 3, to_status_id: 4, user_id: writer?.id, source: 'staff' });
    expect((await queue(org.parent)).json.total).toBe(0);
  });

  it('declines with the reason kept in the history', async () => {
    const ids = [await stored(org.parent), await stored(org.chapter)];
    const res = await act(org.parent, 'decline', { donation_ids: ids, reason: '  Gift was refunded  ' });
    expect(res.status, res.text).toBe(200);
    expect(await statusOf(ids)).toEqual([12, 12]);
    const history = await t.db
      .select()
      .from(donationStatusHistory)
      .where(inArray(donationStatusHistory.donation_id, ids));
    expect(history.map((h) => h.reason)).toEqual(['Gift was refunded', 'Gift was refunded']);
  });

  it('refuses a decline without a reason', async () => {
    const id = await stored(org.parent);
    const res = await act(org.parent, 'decline', { donation_ids: [id], reason: '   ' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('A reason is required');
    expect(await statusOf([id])).toEqual([3]);
  });

  it('needs write: a reader is refused and nothing changes', async () => {
    const id = await stored(org.parent);
    expect((await act(org.parent, 'verify', { donation_ids: [id] }, 'reader')).status).toBe(403);
    expect((await act(org.parent, 'decline', { donation_ids: [id], reason: 'x' }, 'reader')).status).toBe(
      403,
    );
    expect(await statusOf([id])).toEqual([3]);
  });

  it("is all or none: another organization's match, or one no longer queued, changes nothing", async () => {
    const mine = await stored(org.parent);
    const theirs = await stored(org.other);
    const res = await act(org.parent, 'verify', { donation_ids: [mine, theirs] });
    expect(res.status).toBe(404);
    const moved = await stored(org.parent, { status_id: 4 });
    const again = await act(org.parent, 'decline', { donation_ids: [mine, moved], reason: 'No gift' });
    expect(again.status).toBe(409);
    expect(await statusOf([mine, theirs, moved])).toEqual([3, 3, 4]);
    // The outsider, admin elsewhere, cannot act on Hope Harbor's queue at all.
    expect((await act(org.parent, 'verify', { donation_ids: [mine] }, 'outsider')).status).toBe(404);
    expect(await statusOf([mine])).toEqual([3]);
  });
});
