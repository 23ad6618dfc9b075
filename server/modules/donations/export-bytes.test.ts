import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { desc, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { billingStatusLabels, billingStatusOf, statusName } from '../../../src/contract/statuses.ts';
import { bills, campaigns, companies, donations, donors, organizations } from '../../db/schema.ts';
import { demoOrganizationIds } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';
import { csvColumns, exportDonationsCsv, neutraliseCell } from './export.ts';

/**
 * The export's lines are written by the database (export.ts csvLine). They must be the bytes the
 * export wrote when it formatted each row in JavaScript with csv-stringify: that formatting is
 * kept here as the reference, and hostile values go through both.
 */

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ config: { logRequests: false } });
});
afterAll(() => t.close());

/** The export's row formatting before the database wrote the lines (csvRecord + csv-stringify). */
async function referenceCsv(orgIds: number[]): Promise<string> {
  const rows = await t.db
    .select({
      id: donations.id,
      transaction_id: donations.transaction_id,
      donated_at: donations.donated_at,
      amount_cents: donations.amount_cents,
      matched_cents: donations.matched_cents,
      donor_name: donors.name,
      donor_email: donors.email,
      company_name: donations.company_name,
      catalogue_name: companies.name,
      organization_name: organizations.name,
      status_id: donations.status_id,
      eligible_bill_id: donations.eligible_bill_id,
      processed_bill_id: donations.processed_bill_id,
      silenced: donations.silenced,
      created_at: donations.created_at,
      campaign_name: campaigns.name,
    })
    .from(donations)
    .innerJoin(organizations, eq(organizations.id, donations.organization_id))
    .leftJoin(donors, eq(donors.id, donations.donor_id))
    .leftJoin(companies, eq(companies.id, donations.company_id))
    .leftJoin(campaigns, eq(campaigns.id, donations.campaign_id))
    .where(inArray(donations.organization_id, orgIds))
    // The list's default order: newest gift first, the id breaking ties.
    .orderBy(desc(donations.donated_at), desc(donations.id));
  const money = (cents: number) => (cents / 100).toFixed(2);
  const text = (value: string | null) => neutraliseCell(value ?? '');
  const records = rows.map((row) => [
    String(row.id),
    text(row.transaction_id),
    row.donated_at.toISOString().slice(0, 10),
    money(row.amount_cents),
    money(row.matched_cents),
    text(row.donor_name),
    text(row.donor_email),
    text(row.catalogue_name ?? row.company_name),
    text(row.organization_name),
    text(statusName(row.status_id)),
    billingStatusLabels[billingStatusOf(row)],
    row.silenced ? 'Yes' : 'No',
    row.created_at.toISOString(),
    text(row.campaign_name),
  ]);
  return `\uFEFF${stringify([[...csvColumns]])}${stringify(records)}`;
}

it('writes the same bytes as csv-stringify did, for hostile text, every status, bills and odd amounts', async () => {
  const demo = await demoOrganizationIds(t.db);
  const hostile = [
    '',
    'plain',
    'Comma, Inc.',
    'She said "hi"',
    'two\nlines',
    'carriage\rreturn',
    'crlf\r\nend',
    '=SUM(A1:A2)',
    '+1-555',
    '-2+3',
    '@handle',
    '\tTabbed',
    '\rstarts with CR',
    "O'Brien",
    'Ünïcödé — 寄付 🎁',
    '  padded  ',
    '"',
    ',',
    '=',
    'back\\slash',
    "'=already quoted",
  ];
  const [catalogue] = await t.db
    .insert(companies)
    .values({ name: '=Catalogue, "Co"', match_method: 'form' })
    .returning({ id: companies.id });
  const [campaign] = await t.db
    .insert(campaigns)
    .values({
      organization_id: demo.hopeHarbor,
      company_id: catalogue?.id ?? 0,
      name: '=Double, "Match"\nDay',
      start_date: '1999-01-01',
      end_date: '2030-12-31',
    })
    .returning({ id: campaigns.id });
  const [bill] = await t.db
    .insert(bills)
    .values({
      organization_id: demo.hopeHarbor,
      plan: 'elig_5',
      period_start: new Date('2025-03-01T00:00:00Z'),
      period_end: new Date('2025-04-01T00:00:00Z'),
    })
    .returning({ id: bills.id });
  const donorRows = await t.db
    .insert(donors)
    .values(
      hostile.map((name, i) => ({
        organization_id: demo.hopeHarbor,
        name: i % 7 === 3 ? null : name,
        email: i % 3 === 0 ? null : `${hostile[(i * 5) % hostile.length]}@example.org`,
      })),
    )
    .returning({ id: donors.id });
  const statusIds = [...Array.from({ length: 28 }, (_, i) => i + 1), 99];
  await t.db.insert(donations).values(
    statusIds.map((status, i) => ({
      organization_id: i % 4 === 0 ? demo.northShore : demo.hopeHarbor,
      donor_id: i % 6 === 5 ? null : (donorRows[i % donorRows.length]?.id ?? null),
      company_id: i % 5 === 0 ? (catalogue?.id ?? null) : null,
      company_name: i % 5 === 4 ? null : (hostile[(i * 3) % hostile.length] ?? null),
      transaction_id: i % 4 === 1 ? null : `${hostile[(i * 7) % hostile.length]} ${i}`,
      amount_cents: [0, 1, 5, 10, 99, 100, 105, 123_456_789, 2_147_483_647][i % 9] ?? 0,
      matched_cents: [0, 7, 250, 1_999, 100_000, -50, -12_345][i % 7] ?? 0,
      donated_at: new Date(Date.UTC(1999 + (i % 30), i % 12, 1 + i, 23, 59, 59, 999)),
      status_id: status,
      eligible_bill_id: i % 3 === 1 ? (bill?.id ?? null) : null,
      processed_bill_id: i % 7 === 2 ? (bill?.id ?? null) : null,
      silenced: i % 2 === 0,
      campaign_id: i % 5 === 0 && i % 4 !== 0 ? (campaign?.id ?? null) : null,
    })),
  );
  // created_at carries microseconds; both ways keep the milliseconds (toISOString truncates).
  await t.db.execute(
    sql`update donations set created_at = '2025-05-06 07:08:09.123999+00'::timestamptz + (id * interval '1.000017 second')`,
  );
  const orgIds = [demo.hopeHarbor, demo.northShore];
  const bytes = await new Response(
    exportDonationsCsv(t.db, demo.hopeHarbor, {}, { batchSize: 7 }),
  ).arrayBuffer();
  const exported = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  expect(parse(exported, { bom: true }).length).toBe(statusIds.length + 1);
  expect(exported).toBe(await referenceCsv(orgIds));
});
