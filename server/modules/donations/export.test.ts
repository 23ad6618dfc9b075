import { parse } from 'csv-parse/sync';
import { inArray, sql } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { organizationNotFound } from '../../../src/contract/organization.ts';
import { bills, donations, donors, permissions, users } from '../../db/schema.ts';
import { demoOrganizationNames as names } from '../../db/seed.ts';
import { httpMessages } from '../../http/errors.ts';
import { call, demoOrganizationIds, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';
import { hashPassword } from '../auth/passwords.ts';
import { csvColumns, csvMessages, exportDonationsCsv, neutraliseCell } from './export.ts';

let t: TestContext;
const token: Record<string, string> = {};
const org = { parent: 0, chapter: 0, other: 0 };
let departingId = 0;

beforeAll(async () => {
  t = await createTestContext({ config: { logRequests: false } });
  const demo = await demoOrganizationIds(t.db);
  org.parent = demo.hopeHarbor;
  org.chapter = demo.northShore;
  org.other = demo.mapleStreet;
  const [departing] = await t.db
    .insert(users)
    .values({
      email: 'departing@example.org',
      name: 'Departing',
      password_hash: await hashPassword('departing-pass'),
    })
    .returning();
  departingId = departing?.id ?? 0;
  await t.db.insert(permissions).values({ org_id: org.parent, user_id: departingId, level: 'read' });
  token.reader = await signIn(t.app, 'reader@twofold.test');
  token.departing = await signIn(t.app, 'departing@example.org', 'departing-pass');
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.delete(donations);
});

async function donor(orgId: number, name: string, email: string | null) {
  const [row] = await t.db.insert(donors).values({ organization_id: orgId, name, email }).returning();
  return row?.id ?? 0;
}

async function gift(orgId: number, values: Partial<typeof donations.$inferInsert> = {}) {
  const [row] = await t.db
    .insert(donations)
    .values({
      organization_id: orgId,
      amount_cents: 10_000,
      donated_at: new Date('2025-03-01T12:00:00Z'),
      status_id: 23,
      ...values,
    })
    .returning();
  return row?.id ?? 0;
}

/** Asks for the link as the portal does, then opens it without the bearer token, as a new tab does. */
async function download(query = '', as = token.reader) {
  const link = await call(t.app, 'GET', `/api/donation/${org.parent}/csv-token${query}`, { token: as });
  expect(link.status).toBe(200);
  const response = await t.app.request(link.json.url as string);
  const bytes = await response.arrayBuffer();
  return {
    link: link.json.url as string,
    response,
    text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes),
  };
}

const records = (text: string) => parse(text, { bom: true }) as string[][];

describe('CSV export', () => {
  it('answers a link that opens without the bearer token and streams a CSV with BOM, header and the rows', async () => {
    const alice = await donor(org.parent, 'Alice Giver', 'alice@example.org');
    const [bill] = await t.db
      .insert(bills)
      .values({
        organization_id: org.parent,
        plan: 'elig_5',
        period_start: new Date('2025-03-01T00:00:00Z'),
        period_end: new Date('2025-04-01T00:00:00Z'),
      })
      .returning({ id: bills.id });
    await gift(org.parent, {
      donor_id: alice,
      transaction_id: 'T-1',
      amount_cents: 120_050,
      matched_cents: 120_050,
      company_name: 'Acme, Inc.',
      eligible_bill_id: bill?.id ?? null,
      silenced: true,
    });
    const { link, response, text } = await download();
    expect(link).toMatch(new RegExp(`^/api/donation/${org.parent}/csv\\?token=`));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const today = new Date().toISOString().slice(0, 10);
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename=donations-${org.parent}-${today}.csv`,
    );
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const [header, row, ...rest] = records(text);
    expect(header).toEqual([...csvColumns]);
    expect(rest).toEqual([]);
    expect(row?.slice(1, 13)).toEqual([
      'T-1',
      '2025-03-01',
      '1200.50',
      '1200.50',
      'Alice Giver',
      'alice@example.org',
      'Acme, Inc.',
      names.hopeHarbor,
      'Missing Company Hold',
      'Eligible',
      'Yes',
      expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    ]);
  });

  it("includes the chapters' matches and honours the list's filters exactly", async () => {
    const bob = await donor(org.chapter, 'Bob Chapter', 'bob@example.org');
    await gift(org.parent, { transaction_id: 'small', amount_cents: 1_000 });
    await gift(org.chapter, { transaction_id: 'chapter', donor_id: bob, company_name: 'Globex' });
    await gift(org.parent, { transaction_id: 'old', donated_at: new Date('2024-01-01T12:00:00Z') });
    await gift(org.other, { transaction_id: 'elsewhere' });
    const ids = async (query: string) => {
      const list = await call(t.app, 'GET', `/api/organization/${org.parent}/donation${query}`, {
        token: token.reader,
      });
      const csv = records((await download(query)).text).slice(1);
      expect(csv.map((r) => r[1]).sort()).toEqual(
        (list.json.donations as Array<{ transaction_id: string }>).map((d) => d.transaction_id).sort(),
      );
      return csv.map((r) => r[1]).sort();
    };
    expect(await ids('')).toEqual(['chapter', 'old', 'small']);
    expect(await ids('?filters[minAmount]=50')).toEqual(['chapter', 'old']);
    expect(await ids('?filters[dateFrom]=2025-01-01&filters[dateTo]=2025-12-31')).toEqual([
      'chapter',
      'small',
    ]);
    expect(await ids('?filters[donor]=bob')).toEqual(['chapter']);
    expect(await ids('?filters[company]=glob')).toEqual(['chapter']);
    expect(await ids('?filters[status_group]=npo_verify')).toEqual([]);
  });

  it('neutralises cells a spreadsheet would run as formulas', async () => {
    const evil = await donor(org.parent, '=HYPERLINK("http://evil.example","x")', '@evil@example.org');
    await gift(org.parent, { donor_id: evil, transaction_id: '+1-555', company_name: '-2+3' });
    const [, row] = records((await download()).text);
    expect(row?.[1]).toBe("'+1-555");
    expect(row?.[5]).toBe(`'=HYPERLINK("http://evil.example","x")`);
    expect(row?.[6]).toBe("'@evil@example.org");
    expect(row?.[7]).toBe("'-2+3");
    expect(['=1', '+1', '-1', '@a', '\tx', '\rx', 'plain', ''].map(neutraliseCell)).toEqual([
      "'=1",
      "'+1",
      "'-1",
      "'@a",
      "'\tx",
      "'\rx",
      'plain',
      '',
    ]);
  });

  it('reads every row across many batches in the list order (newest first, id breaking ties), without repeating or skipping any', async () => {
    await t.db.insert(donations).values(
      Array.from({ length: 45 }, (_, i) => ({
        organization_id: i % 3 === 0 ? org.chapter : org.parent,
        amount_cents: 100 * (i + 1),
        donated_at: new Date(Date.UTC(2025, 0, 1, 12) + (i % 7) * 86_400_000),
        status_id: 23,
        transaction_id: `batch-${i}`,
      })),
    );
    const stream = exportDonationsCsv(t.db, org.parent, { 'filters[minAmount]': '2' }, { batchSize: 4 });
    const rows = records(await new Response(stream).text()).slice(1);
    // Inserted in order, so ids follow i: the newest day first, the higher i first within a day.
    const expected = Array.from({ length: 44 }, (_, n) => n + 1).sort((a, b) => (b % 7) - (a % 7) || b - a);
    expect(rows.map((r) => r[1])).toEqual(expected.map((i) => `batch-${i}`));
  });

  it('exports thousands of rows in the list order across fetch boundaries, runs of equal keys and filters included, a filter text with quotes and backslashes too', async () => {
    const odd = await donor(org.parent, "O'Brien \\ Back", null);
    const plain = await donor(org.chapter, 'Plain Donor', null);
    const inserted = await t.db
      .insert(donations)
      .values(
        Array.from({ length: 2_500 }, (_, i) => ({
          organization_id: i % 4 === 0 ? org.chapter : org.parent,
          donor_id: i % 3 === 0 ? odd : plain,
          // Five amounts only, so long runs of equal keys straddle every fetch.
          amount_cents: 1_000 * ((i % 5) + 1),
          donated_at: new Date(Date.UTC(2025, 0, 1 + (i % 9), 12)),
          status_id: 23,
          transaction_id: `many-${i}`,
        })),
      )
      .returning({ id: donations.id, amount: donations.amount_cents, donor: donations.donor_id });
    const expected = (rows: typeof inserted) =>
      rows.sort((a, b) => a.amount - b.amount || a.id - b.id).map((r) => String(r.id));
    const exported = async (filters: Record<string, string>) =>
      records(
        await new Response(
          exportDonationsCsv(
            t.db,
            org.parent,
            { sort_field: 'amount', ascending: 'true', ...filters },
            { batchSize: 97 },
          ),
        ).text(),
      )
        .slice(1)
        .map((r) => r[0]);
    expect(await exported({ 'filters[minAmount]': '30' })).toEqual(
      expected(inserted.filter((r) => r.amount >= 3_000)),
    );
    // The donor filter's text reaches the database as a value (a literal in PostgreSQL's COPY).
    expect(await exported({ 'filters[donor]': "o'brien \\ b" })).toEqual(
      expected(inserted.filter((r) => r.donor === odd)),
    );
    expect(await exported({ 'filters[donor]': "o'brien \\' or true --" })).toEqual([]);
  });

  it("follows the table's sort in both directions across batches, NULL names and equal keys included, as the list orders them", async () => {
    const names = ['delta', null, 'Alpha', 'charlie', null, 'alpha', 'Bravo', 'delta', null, 'echo'];
    for (const [i, name] of names.entries()) {
      const donorId = name === null ? null : await donor(org.parent, name, null);
      await gift(i % 2 === 0 ? org.parent : org.chapter, {
        transaction_id: `s-${i}`,
        donor_id: donorId,
        company_name: name === null ? null : `${name} co`,
        // Gifts share a moment (equal keys), so the id must break the tie across batch edges.
        donated_at: new Date(Date.UTC(2025, 2, 1 + (i % 4), 12, 0, 0, 123)),
        amount_cents: 1_000 * ((i % 3) + 1),
      });
    }
    // Keys with microseconds (which a JavaScript Date cannot hold), as the batches' bounds carry them.
    await t.db.execute(
      sql`update donations set donated_at = donated_at + (id % 3) * interval '1 microsecond' where transaction_id like 's-%'`,
    );
    for (const sort of [
      'donor_name',
      'company_name',
      'donated_at',
      'amount',
      'matched',
      'organization_name',
      'status_id',
      'created_at',
      'id',
    ]) {
      for (const ascending of ['true', 'false']) {
        const query = `?sort_field=${sort}&ascending=${ascending}`;
        const list = await call(
          t.app,
          'GET',
          `/api/organization/${org.parent}/donation${query}&per_page=100`,
          {
            token: token.reader,
          },
        );
        const listed = (list.json.donations as Array<{ transaction_id: string }>).map(
          (d) => d.transaction_id,
        );
        expect(listed).toHaveLength(names.length);
        // Small batches put batch edges inside runs of equal keys and of NULLs.
        const stream = exportDonationsCsv(
          t.db,
          org.parent,
          { sort_field: sort as 'donor_name', ascending: ascending as 'true' },
          { batchSize: 3 },
        );
        const exported = records(await new Response(stream).text())
          .slice(1)
          .map((r) => r[1]);
        expect({ query, exported }).toEqual({ query, exported: listed });
        // And the link the portal opens carries the sort too.
        const linked = records((await download(query)).text)
          .slice(1)
          .map((r) => r[1]);
        expect({ query, linked }).toEqual({ query, linked: listed });
      }
    }
  });

  it('refuses an expired, forged or other-organization link, and a user who lost access since', async () => {
    await gift(org.parent, { transaction_id: 'secret' });
    const expired = await new SignJWT({ purpose: 'csv-link', org: org.parent, data: { filters: {} } })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('1')
      .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
      .sign(new TextEncoder().encode(t.config.jwtSecret));
    const open = (path: string) => call(t.app, 'GET', path);
    expect((await open(`/api/donation/${org.parent}/csv?token=${expired}`)).json).toEqual({
      message: csvMessages.expired,
    });
    expect((await open(`/api/donation/${org.parent}/csv?token=${expired}`)).status).toBe(401);
    expect((await open(`/api/donation/${org.parent}/csv?token=not-a-token`)).status).toBe(401);
    const { link } = await download();
    const csvToken = new URL(link, 'http://x').searchParams.get('token') ?? '';
    const other = await open(`/api/donation/${org.chapter}/csv?token=${csvToken}`);
    expect(other).toMatchObject({ status: 403, json: { message: httpMessages.otherOrganization } });
    // A staff access token is not a CSV link, and a CSV link is not an access token.
    expect((await open(`/api/donation/${org.parent}/csv?token=${token.reader}`)).status).toBe(401);
    const asBearer = await call(t.app, 'GET', `/api/organization/${org.parent}/donation`, {
      token: csvToken,
    });
    expect(asBearer.status).toBe(401);

    const departing = await download('', token.departing);
    expect(departing.response.status).toBe(200);
    const again = await call(t.app, 'GET', `/api/donation/${org.parent}/csv-token`, {
      token: token.departing,
    });
    await t.db.delete(permissions).where(inArray(permissions.user_id, [departingId]));
    const refused = await open(again.json.url as string);
    // The guard's answer to anyone who cannot reach the organization, as on every route.
    expect(refused).toMatchObject({ status: 404, json: { message: organizationNotFound(org.parent) } });
    expect(refused.text).not.toContain('secret');
    await t.db.insert(permissions).values({ org_id: org.parent, user_id: departingId, level: 'read' });
  });

  it('refuses the link to outsiders and anonymous callers (404 / 401), like the list', async () => {
    expect(
      (await call(t.app, 'GET', `/api/donation/${org.other}/csv-token`, { token: token.reader })).status,
    ).toBe(404);
    expect((await call(t.app, 'GET', `/api/donation/${org.parent}/csv-token`)).status).toBe(401);
    expect(
      (
        await call(t.app, 'GET', `/api/donation/${org.parent}/csv-token?filters[dateFrom]=2025-13-45`, {
          token: token.reader,
        })
      ).status,
    ).toBe(400);
  });

  it('refuses an .xlsx of the list (a workbook is a saved report’s) instead of a CSV under that name', async () => {
    const asked = await call(t.app, 'GET', `/api/donation/${org.parent}/csv-token?format=xlsx`, {
      token: token.reader,
    });
    expect(asked).toMatchObject({ status: 400, json: { message: csvMessages.xlsxNeedsReport } });
    const csv = await call(t.app, 'GET', `/api/donation/${org.parent}/csv-token?format=csv`, {
      token: token.reader,
    });
    expect(csv.status).toBe(200);
  });
});
