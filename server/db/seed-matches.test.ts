import { count, eq, inArray, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../testing.ts';
import { campaigns, donationStatusHistory, donations, organizations } from './schema.ts';
import { demoOrganizationNames } from './seed.ts';
import { seedDemoMatches } from './seed-matches.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

describe('the demo matches', () => {
  it('gives the demo organizations matches in several statuses, each with its history, once', async () => {
    await seedDemoMatches(t.db);
    await seedDemoMatches(t.db);
    const orgs = await t.db
      .select({ id: organizations.id })
      .from(organizations)
      .where(inArray(organizations.name, Object.values(demoOrganizationNames)));
    const rows = await t.db
      .select({ id: donations.id, status: donations.status_id, org: donations.organization_id })
      .from(donations)
      .where(
        inArray(
          donations.organization_id,
          orgs.map((o) => o.id),
        ),
      );
    expect(rows).toHaveLength(72);
    expect(new Set(rows.map((r) => r.org)).size).toBe(orgs.length);
    const statuses = new Set(rows.map((r) => r.status));
    expect(statuses.size).toBeGreaterThanOrEqual(6);
    expect(statuses.has(4)).toBe(true); // some confirmed Submitted
    expect(statuses.has(13)).toBe(true); // some No Charge
    const [first] = rows;
    const [history] = await t.db
      .select({ n: count() })
      .from(donationStatusHistory)
      .where(eq(donationStatusHistory.donation_id, first?.id ?? 0));
    expect(history?.n).toBeGreaterThanOrEqual(1);
    // Hope Harbor is on a per-match plan: its (and its chapters') submitted matches are on its bill.
    const billed = await t.db
      .select({
        org: donations.organization_id,
        bill: donations.eligible_bill_id,
        status: donations.status_id,
      })
      .from(donations)
      .where(isNotNull(donations.eligible_bill_id));
    expect(billed.length).toBeGreaterThan(0);
    expect(billed.every((r) => r.status === 4)).toBe(true);
    const [maple] = await t.db
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.name, demoOrganizationNames.mapleStreet));
    expect(billed.some((r) => r.org === maple?.id)).toBe(false);
    // Hope Harbor's one demo campaign, this month, seeded once however often the seed runs.
    const seeded = await t.db.select().from(campaigns);
    expect(seeded.map((c) => c.match_ratio)).toEqual(['2:1']);
    const today = new Date().toISOString().slice(0, 10);
    expect((seeded[0]?.start_date ?? '') <= today && today <= (seeded[0]?.end_date ?? '')).toBe(true);
  });
});
