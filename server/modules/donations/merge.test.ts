import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, donationStatusHistory, donations, outbox } from '../../db/schema.ts';
import { call, demoOrganizationIds, readyForMatching, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';

let t: TestContext;
let writer = '';
let hope = 0;
const company: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestContext({ config: { logRequests: false } });
  hope = (await demoOrganizationIds(t.db)).hopeHarbor;
  await readyForMatching(t.db, [hope]);
  const made = await t.db
    .insert(companies)
    .values([
      { name: 'Merge Min Co', match_method: 'csr', minimum_match_cents: 5000 },
      { name: 'Other Min Co', match_method: 'csr', minimum_match_cents: 5000 },
    ])
    .returning();
  for (const c of made) company[c.name] = c.id;
  writer = await signIn(t.app, 'writer@twofold.test');
});
afterAll(() => t.close());

async function give(email: string, amount: number, companyName = 'Merge Min Co', day = '2026-03-01') {
  const res = await call(t.app, 'POST', `/api/organization/${hope}/donation`, {
    token: writer,
    body: {
      id: 0,
      donated_at: `${day} 12:00:00`,
      amount,
      donor: { name: 'Mia Merge', email },
      company_id: company[companyName],
    },
  });
  expect(res.status).toBe(201);
  return res.json.donation as {
    id: number;
    status_id: number;
    amount: number;
    custom: Record<string, unknown>;
  };
}

describe('below-minimum gifts (spec FAQ: "the system merges below-minimum donations")', () => {
  it('merges a donor’s below-minimum gifts into one request once they reach the minimum, keeping the history', async () => {
    const first = await give('mia@example.org', 30, 'Merge Min Co', '2026-03-01');
    expect(first.status_id).toBe(10);
    const second = await give('mia@example.org', 25, 'Merge Min Co', '2026-03-08');
    expect(second.status_id).toBe(7);
    expect(second.amount).toBe(55);
    const [stored] = await t.db.select().from(donations).where(eq(donations.id, second.id));
    expect(stored?.custom.history).toEqual({
      merged_from: [
        { id: first.id, amount: 30, donated_at: '2026-03-01T12:00:00.000Z' },
        { id: second.id, amount: 25, donated_at: '2026-03-08T12:00:00.000Z' },
      ],
    });
    // The donor hears about the merged request, though the first gift's email went out this week.
    const mails = await t.db
      .select()
      .from(outbox)
      .where(eq(outbox.to, 'mia@example.org'))
      .orderBy(asc(outbox.id));
    expect(mails.map((m) => m.subject)).toEqual([
      'Your gift to Hope Harbor Foundation is below Merge Min Co’s minimum',
      'Double your gift to Hope Harbor Foundation',
    ]);
    const [earlier] = await t.db.select().from(donations).where(eq(donations.id, first.id));
    expect(earlier?.custom.history).toEqual({ merged_into: second.id });
    expect(earlier?.status_id).toBe(10);
    const history = await t.db
      .select()
      .from(donationStatusHistory)
      .where(eq(donationStatusHistory.donation_id, second.id));
    expect(history.map((h) => [h.from_status_id, h.to_status_id])).toEqual([
      [null, 10],
      [10, 7],
    ]);
    // A later small gift starts afresh: merged gifts are not merged again.
    const third = await give('mia@example.org', 30, 'Merge Min Co', '2026-03-15');
    expect(third.status_id).toBe(10);
    expect(third.amount).toBe(30);
  });

  it('merges them on a file import too', async () => {
    const file = [
      'Donor Name,Donor Email,Amount,Date,Company,Organization',
      'Ivy Import,ivy-import@example.org,30,2026-04-01,Merge Min Co,Hope Harbor Foundation',
      'Ivy Import,ivy-import@example.org,25,2026-04-08,Merge Min Co,Hope Harbor Foundation',
    ].join('\n');
    const form = new FormData();
    form.set('donations', new File([file], 'gifts.csv'));
    form.set('type', 'Upload');
    form.set(
      'map',
      JSON.stringify({
        donor_name: 'donor.name',
        donor_email: 'donor.email',
        amount: 'amount',
        date: 'donated_at',
        company: 'company.name',
        organization: 'organization_name',
      }),
    );
    const res = await t.app.request(`/api/organization/${hope}/donation/import-file/Upload`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${writer}` },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const mine = (await t.db.select().from(donations).orderBy(asc(donations.id))).filter(
      (d) => d.donated_at.toISOString().startsWith('2026-04-0') && d.company_id === company['Merge Min Co'],
    );
    // The newest gift becomes the request for the sum, as when the gifts arrive one by one.
    expect(mine.map((d) => [d.status_id, d.amount_cents])).toEqual([
      [10, 30_00],
      [7, 55_00],
    ]);
    expect(mine[0]?.custom.history).toEqual({ merged_into: mine[1]?.id });
  });

  it('does not merge below the minimum, nor across companies or donors', async () => {
    expect((await give('ned@example.org', 20)).status_id).toBe(10);
    expect((await give('ned@example.org', 20)).status_id).toBe(10); // $40 < $50
    expect((await give('ned@example.org', 20, 'Other Min Co')).status_id).toBe(10);
    expect((await give('ola@example.org', 45)).status_id).toBe(10);
    const rows = await t.db.select().from(donations);
    const untouched = rows.filter((d) => [20_00, 45_00].includes(d.amount_cents));
    expect(untouched).toHaveLength(4);
    expect(untouched.every((d) => d.custom.history === undefined && d.status_id === 10)).toBe(true);
  });
});
