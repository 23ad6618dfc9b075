import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportTestResponse } from '../../../src/contract/donation-import.ts';
import {
  donationEmployerEvents,
  donations,
  donors,
  employerReviews,
  organizations,
} from '../../db/schema.ts';
import { demoOrganizationIds, readyForMatching, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';

let t: TestContext;
let token = '';
let orgId = 0;
beforeAll(async () => {
  t = await createTestContext({ config: { logRequests: false } });
  orgId = (await demoOrganizationIds(t.db)).mapleStreet;
  await readyForMatching(t.db, [orgId]);
  token = await signIn(t.app, 'admin@twofold.test');
});
afterAll(() => t.close());

// A donation platform's export: typed employers in any spelling, work and misspelt addresses.
const file = [
  'Donor Name,Donor Email,Gift Amount,Donation Date,Employer,Transaction ID',
  'Ann One,ann@gmail.com,100.00,2026-03-01,"Acme Analytics, Inc.",emp-1',
  'Bo Two,bo@yahoo.com,100.00,2026-03-01,Acme Analytcs,emp-2',
  'Cy Three,cy@eu.birch-bank.example.com,100.00,2026-03-01,,emp-3',
  'Di Four,di@gmial.com,100.00,2026-03-01,Retired,emp-4',
  'Ed Five,ed@acme-analytics.example.com,100.00,2026-03-01,Birch Bank,emp-5',
  'Fay Six,fay@hotmail.com,100.00,2026-03-01,Zephyr Robotics,emp-6',
].join('\n');
const map = {
  donor_name: 'donor.name',
  donor_email: 'donor.email',
  gift_amount: 'amount',
  donation_date: 'donated_at',
  employer: 'company.name',
  transaction_id: 'transaction_id',
};

async function send(kind: 'Test' | 'Upload') {
  const form = new FormData();
  form.set('donations', new File([file], 'messy.csv'));
  form.set('map', JSON.stringify(map));
  form.set(kind === 'Test' ? 'emailForEmployer' : 'no_company', 'true');
  if (kind === 'Upload') form.set('type', 'Upload');
  const res = await t.app.request(`/api/organization/${orgId}/donation/import-file/${kind}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

describe('the import finds each row’s employer', () => {
  it('shows on Test the company, confidence and reason of each row, and which rows need a person', async () => {
    const { status, json } = await send('Test');
    expect(status).toBe(200);
    const body = json as ImportTestResponse;
    expect(body.employer_threshold).toBe(80);
    const rows = body.employers?.map((e) => [e.company_name, e.method, e.applied, e.needs_person, e.reason]);
    expect(rows).toEqual([
      ['Acme Analytics', 'name', true, false, "typed 'Acme Analytics, Inc.', the name of Acme Analytics"],
      ['Acme Analytics', 'name', true, false, "typed 'Acme Analytcs', close to Acme Analytics"],
      [
        'Birch Bank',
        'domain',
        true,
        false,
        'email domain eu.birch-bank.example.com, part of birch-bank.example.com',
      ],
      [null, null, false, true, "typed 'Retired': no employer"],
      [
        'Acme Analytics',
        'domain',
        false,
        true,
        "email domain acme-analytics.example.com, but typed 'Birch Bank', the name of Birch Bank",
      ],
      [
        null,
        null,
        false,
        true,
        "typed 'Zephyr Robotics' names no catalogue company; hotmail.com is a free-mail domain",
      ],
    ]);
    expect(body.employers?.[3]?.email_correction).toEqual({ from: 'di@gmial.com', to: 'di@gmail.com' });
  });

  it('creates the matches with how each company was found, corrects misspelt emails with history, and queues the uncertain ones for review', async () => {
    const { status, json } = await send('Upload');
    expect(status).toBe(200);
    expect(json).toMatchObject({ created: 6, employers_found: 3, employers_to_review: 1 });
    const rows = await t.db
      .select({
        id: donations.id,
        tx: donations.transaction_id,
        company: donations.company_name,
        status: donations.status_id,
        method: donations.employer_method,
        confidence: donations.employer_confidence,
        reason: donations.employer_reason,
        email: donors.email,
      })
      .from(donations)
      .innerJoin(donors, eq(donors.id, donations.donor_id))
      .where(eq(donations.organization_id, orgId))
      .orderBy(asc(donations.transaction_id));
    expect(rows.map((r) => [r.tx, r.method, r.status === 23])).toEqual([
      ['emp-1', 'name', false],
      ['emp-2', 'name', false],
      ['emp-3', 'domain', false],
      ['emp-4', null, true],
      ['emp-5', null, true],
      ['emp-6', null, true],
    ]);
    expect(rows[1]?.confidence).toBeGreaterThanOrEqual(80);
    expect(rows[3]?.email).toBe('di@gmail.com');
    const events = await t.db.select().from(donationEmployerEvents).orderBy(asc(donationEmployerEvents.id));
    expect(events.filter((e) => e.kind === 'identified')).toHaveLength(3);
    const correction = events.find((e) => e.kind === 'email_corrected');
    expect(correction).toMatchObject({
      donation_id: rows[3]?.id,
      email_from: 'di@gmial.com',
      email_to: 'di@gmail.com',
    });
    const reviews = await t.db.select().from(employerReviews);
    expect(reviews).toEqual([
      expect.objectContaining({
        donation_id: rows[4]?.id,
        status: 'pending',
        method: 'domain',
        confidence: 60,
      }),
    ]);
  });

  it("follows the organization's settings: a lower threshold applies more, correction can be turned off", async () => {
    await t.db.delete(donations).where(eq(donations.organization_id, orgId));
    await t.db
      .update(organizations)
      .set({ employer_threshold: 55, correct_email_typos: false })
      .where(eq(organizations.id, orgId));
    try {
      const body = (await send('Test')).json as ImportTestResponse;
      expect(body.employers?.[4]).toMatchObject({ company_name: 'Acme Analytics', applied: true });
      expect(body.employers?.[3]).toMatchObject({ email: 'di@gmial.com', email_correction: null });
    } finally {
      await t.db
        .update(organizations)
        .set({ employer_threshold: 80, correct_email_typos: true })
        .where(eq(organizations.id, orgId));
    }
  });
});
