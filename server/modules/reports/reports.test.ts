import * as XLSX from '@e965/xlsx';
import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseAmountFilter, reportTexts } from '../../../src/contract/reports.ts';
import { addresses, donations, donors, organizations, reports } from '../../db/schema.ts';
import { call, demoOrganizationIds, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';

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
  const [address] = await t.db
    .insert(addresses)
    .values({ street: '1 Harbor Way', city: 'Gloucester', state: 'MA', country: 'US' })
    .returning();
  await t.db
    .update(organizations)
    .set({ address_id: address?.id ?? null, ein: '12-3456789' })
    .where(eq(organizations.id, org.parent));
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.delete(donations);
  await t.db.delete(reports);
});

async function gift(
  orgId: number,
  values: Partial<typeof donations.$inferInsert> & { donor?: [string, string] } = {},
) {
  const { donor, ...rest } = values;
  const [d] = donor
    ? await t.db
        .insert(donors)
        .values({ organization_id: orgId, name: donor[0], email: donor[1] })
        .returning()
    : [];
  const [row] = await t.db
    .insert(donations)
    .values({
      organization_id: orgId,
      amount_cents: 10_000,
      donated_at: new Date('2025-03-01T12:00:00Z'),
      status_id: 4,
      donor_id: d?.id ?? null,
      ...rest,
    })
    .returning();
  return row?.id ?? 0;
}

const save = (body: Record<string, unknown>, as = token.writer, orgId = org.parent) =>
  call(t.app, 'POST', `/api/organization/${orgId}/reports`, { token: as, body });

const reportBody = (extra: Record<string, unknown> = {}) => ({
  name: 'Big gifts',
  scope: 'organization',
  columns: { 'donations.id': 'ID' },
  ...extra,
});

/** Asks for the link as the portal does, then opens it without the bearer token. */
async function download(reportId: number, as = token.writer, format = 'csv', orgId = org.parent) {
  const link = await call(
    t.app,
    'GET',
    `/api/donation/${orgId}/csv-token?report_id=${reportId}&format=${format}`,
    { token: as },
  );
  if (link.status !== 200)
    return { status: link.status, message: link.json?.message as string, rows: [] as string[][] };
  const response = await t.app.request(link.json.url as string);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (format === 'xlsx') {
    // As Excel reads it: number formats kept, date-formatted numbers as dates.
    const book = XLSX.read(bytes, { type: 'array', cellNF: true, cellDates: true });
    const sheet = book.Sheets[book.SheetNames[0] ?? ''];
    const rows = sheet ? (XLSX.utils.sheet_to_json(sheet, { header: 1, raw: false }) as string[][]) : [];
    return { status: response.status, response, rows, sheet };
  }
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  return { status: response.status, response, text, rows: parse(text, { bom: true }) as string[][] };
}

async function idsFor(filters: Record<string, unknown>, scope = 'organization') {
  const saved = await save(reportBody({ scope, filters, columns: { 'donations.transaction_id': 'Tx' } }));
  expect(saved.status).toBe(200);
  const { rows } = await download(saved.json.report.id);
  return rows
    .slice(1)
    .map((r) => r[0])
    .sort();
}

describe('the amount filter forms', () => {
  it('reads >200, <50, 100-500 and a single amount, with $ and spaces, and nothing else', () => {
    expect(parseAmountFilter('>200')).toEqual({ kind: 'gt', value: 200 });
    expect(parseAmountFilter(' < $50 ')).toEqual({ kind: 'lt', value: 50 });
    expect(parseAmountFilter('100-500')).toEqual({ kind: 'between', min: 100, max: 500 });
    expect(parseAmountFilter('1,000.50')).toEqual({ kind: 'eq', value: 1000.5 });
    for (const bad of ['>', 'abc', '500-100', '>=200', '-5', '1.234'])
      expect(parseAmountFilter(bad)).toBeNull();
  });
});

describe('reports: list, save, delete', () => {
  it("lists the caller's own reports and the shared ones, never another's personal report", async () => {
    const mine = await save(reportBody({ name: 'Mine', scope: 'personal' }), token.writer);
    const shared = await save(reportBody({ name: 'Shared', scope: 'full_org' }), token.admin);
    const secret = await save(reportBody({ name: 'Admin only', scope: 'personal' }), token.admin);
    expect([mine.status, shared.status, secret.status]).toEqual([200, 200, 200]);
    const list = await call(t.app, 'GET', `/api/organization/${org.parent}/reports`, { token: token.writer });
    expect(list.status).toBe(200);
    expect(list.json.reports.map((r: { name: string }) => r.name)).toEqual(['Mine']);
    expect(list.json.sharedReports.map((r: { name: string }) => r.name)).toEqual(['Shared']);
    expect(list.json.sharedReports[0].author).toBe('Alex Morgan');
    // Another's personal report answers as a missing one, to edit, delete or download.
    const id = secret.json.report.id;
    expect((await save({ ...reportBody(), id }, token.writer)).json.message).toBe(reportTexts.notFound);
    expect((await call(t.app, 'DELETE', `/api/reports/${id}`, { token: token.writer })).status).toBe(404);
    expect((await download(id, token.writer)).status).toBe(404);
  });

  it('saves the entity with defaults: columns in order with names, Any dates kept, sort donations.id ascending', async () => {
    const res = await save(
      reportBody({
        columns: { 'users.name': 'Donor', 'donations.amount': 'Gift', 'statuses.name': 'Where it is' },
        filters: {
          'donations.amount': ' >200 ',
          'users.email': '',
          date_from: '2000-01-01',
          date_to: '2200-01-01',
        },
      }),
    );
    expect(res.status).toBe(200);
    const report = res.json.report;
    expect(Object.entries(report.columns)).toEqual([
      ['users.name', 'Donor'],
      ['donations.amount', 'Gift'],
      ['statuses.name', 'Where it is'],
    ]);
    expect(report.filters).toEqual({
      'donations.amount': '>200',
      date_from: '2000-01-01',
      date_to: '2200-01-01',
    });
    expect([report.sort_field, report.ascending, report.downloads]).toEqual(['donations.id', true, 0]);
    const renamed = await save({ ...reportBody({ name: 'Renamed' }), id: report.id });
    expect([renamed.status, renamed.json.report.id, renamed.json.report.name]).toEqual([
      200,
      report.id,
      'Renamed',
    ]);
  });

  it("answers the spec's validation texts and refuses bad filters with a 400", async () => {
    expect((await save(reportBody({ name: '  ' }))).json.message).toContain(reportTexts.nameRequired);
    expect((await save(reportBody({ columns: {} }))).json.message).toContain(reportTexts.columnRequired);
    expect((await save(reportBody({ columns: { 'users.password': 'x' } }))).status).toBe(400);
    const amount = await save(reportBody({ filters: { 'donations.amount': '>>3' } }));
    expect([amount.status, amount.json.message]).toEqual([
      400,
      expect.stringContaining(reportTexts.amountInvalid),
    ]);
    const dates = await save(reportBody({ filters: { date_from: '2025-05-01', date_to: '2025-01-01' } }));
    expect(dates.json.message).toContain(reportTexts.dateOrder);
    expect((await save(reportBody({ filters: { date_from: '2025-02-30' } }))).status).toBe(400);
    expect((await save(reportBody({ scope: 'everyone' }))).status).toBe(400);
    expect((await save(reportBody({ sort_field: 'password' }))).status).toBe(400);
    expect(await t.db.select().from(reports)).toEqual([]);
  });

  it('deletes a report, and a report of another organization is not found', async () => {
    const saved = await save(reportBody());
    const res = await call(t.app, 'DELETE', `/api/reports/${saved.json.report.id}`, { token: token.writer });
    expect([res.status, res.json.message]).toEqual([200, reportTexts.deleted]);
    expect(await t.db.select().from(reports)).toEqual([]);
    const elsewhere = await save(reportBody(), token.admin, org.other);
    expect(elsewhere.status).toBe(200);
    expect((await download(elsewhere.json.report.id, token.admin, 'csv', org.parent)).status).toBe(404);
  });
});

describe('report filters', () => {
  beforeEach(async () => {
    await gift(org.parent, {
      transaction_id: 'a50',
      amount_cents: 5_000,
      donor: ['Ann Lee', 'ann@example.org'],
      company_name: 'Acme',
    });
    await gift(org.parent, {
      transaction_id: 'a100',
      amount_cents: 10_000,
      donor: ['Bo Diaz', 'bo@corp.example'],
    });
    await gift(org.parent, { transaction_id: 'a200', amount_cents: 20_000 });
    await gift(org.parent, {
      transaction_id: 'a201',
      amount_cents: 20_100,
      donated_at: new Date('2025-06-30T23:00:00Z'),
    });
    await gift(org.parent, {
      transaction_id: 'a500',
      amount_cents: 50_000,
      donated_at: new Date('2024-12-31T12:00:00Z'),
    });
    await gift(org.parent, { transaction_id: 'inert', amount_cents: 30_000, inert: 1 });
    await gift(org.chapter, { transaction_id: 'chapter', amount_cents: 30_000 });
    await gift(org.other, { transaction_id: 'other', amount_cents: 30_000 });
  });

  it('applies every amount form', async () => {
    expect(await idsFor({ 'donations.amount': '>200' })).toEqual(['a201', 'a500']);
    expect(await idsFor({ 'donations.amount': '<100' })).toEqual(['a50']);
    expect(await idsFor({ 'donations.amount': '100-200' })).toEqual(['a100', 'a200']);
    expect(await idsFor({ 'donations.amount': '200' })).toEqual(['a200']);
  });

  it('applies the text filters as case-insensitive "contains", with LIKE characters literal', async () => {
    expect(await idsFor({ 'users.name': 'ann' })).toEqual(['a50']);
    expect(await idsFor({ 'users.email': 'CORP' })).toEqual(['a100']);
    expect(await idsFor({ 'companies.name': 'acm' })).toEqual(['a50']);
    expect(await idsFor({ 'users.name': '%' })).toEqual([]);
    const all = ['a100', 'a200', 'a201', 'a50', 'a500'];
    expect(await idsFor({ 'organizations.ein': '3456' })).toEqual(all);
    expect(await idsFor({ 'addresses.city': 'glouc' })).toEqual(all);
    expect(await idsFor({ 'addresses.state': 'ma' })).toEqual(all);
    expect(await idsFor({ 'addresses.state': 'ny' })).toEqual([]);
  });

  it('applies the dates as whole days, include_inert, and the scopes', async () => {
    expect(await idsFor({ date_from: '2025-03-01', date_to: '2025-06-30' })).toEqual([
      'a100',
      'a200',
      'a201',
      'a50',
    ]);
    expect(await idsFor({ date_to: '2024-12-31' })).toEqual(['a500']);
    expect(await idsFor({ include_inert: true, 'donations.amount': '300' })).toEqual(['inert']);
    expect(await idsFor({ 'donations.amount': '300' })).toEqual([]);
    expect(await idsFor({ 'donations.amount': '300' }, 'full_org')).toEqual(['chapter']);
    expect(await idsFor({ 'donations.amount': '300' }, 'personal')).toEqual([]);
  });

  it('filters on the payment received, and shows the paid amount and date', async () => {
    await t.db
      .update(donations)
      .set({ paid_cents: 9_900, paid_at: '2025-07-01' })
      .where(eq(donations.transaction_id, 'a100'));
    expect(await idsFor({ paid: 'paid' })).toEqual(['a100']);
    expect(await idsFor({ paid: 'unpaid' })).toEqual(['a200', 'a201', 'a50', 'a500']);
    const saved = await save(
      reportBody({
        filters: { paid: 'paid' },
        columns: {
          'donations.transaction_id': 'Tx',
          'donations.paid_amount': 'Paid',
          'donations.paid_at': 'Paid on',
        },
      }),
    );
    expect(saved.status).toBe(200);
    expect((await download(saved.json.report.id)).rows).toEqual([
      ['Tx', 'Paid', 'Paid on'],
      ['a100', '99.00', '2025-07-01'],
    ]);
  });
  it('shows and filters on how the employer was found (issue #31)', async () => {
    await t.db
      .update(donations)
      .set({ employer_method: 'domain' })
      .where(eq(donations.transaction_id, 'a100'));
    await t.db
      .update(donations)
      .set({ employer_method: 'person' })
      .where(eq(donations.transaction_id, 'a50'));
    expect(await idsFor({ 'donations.employer_method': 'Domain' })).toEqual(['a100']);
    const saved = await save(
      reportBody({
        columns: { 'donations.transaction_id': 'Tx', 'donations.employer_method': 'Found by' },
        sort_field: 'donations.transaction_id',
      }),
    );
    expect(saved.status).toBe(200);
    expect((await download(saved.json.report.id)).rows).toEqual([
      ['Tx', 'Found by'],
      ['a100', 'domain'],
      ['a200', ''],
      ['a201', ''],
      ['a50', 'person'],
      ['a500', ''],
    ]);
  });
});

describe('report download', () => {
  it("streams the report's columns in its order under their names, sorted as asked, and counts the download", async () => {
    const ids = [
      await gift(org.parent, {
        amount_cents: 25_000,
        donor: ['Cy Young', 'cy@example.org'],
        company_name: 'Globex',
        status_id: 4,
      }),
      await gift(org.parent, {
        amount_cents: 30_000,
        donor: ['=cmd()', 'x@example.org'],
        company_name: 'Acme',
        status_id: 2,
      }),
      await gift(org.parent, { amount_cents: 15_000, donor: ['Al Bee', 'al@example.org'] }),
    ];
    const saved = await save(
      reportBody({
        columns: {
          'users.name': 'Donor',
          'companies.name': 'Company',
          'statuses.name': 'Status',
          'donations.amount': 'Amount',
        },
        filters: { 'donations.amount': '>200' },
        sort_field: 'users.name',
        ascending: false,
      }),
    );
    const first = await download(saved.json.report.id);
    expect(first.status).toBe(200);
    expect(first.response?.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(first.response?.headers.get('content-disposition')).toMatch(
      /^attachment; filename=big-gifts-\d{4}-\d{2}-\d{2}\.csv$/,
    );
    expect(first.rows).toEqual([
      ['Donor', 'Company', 'Status', 'Amount'],
      ['Cy Young', 'Globex', 'Submitted', '250.00'],
      ["'=cmd()", 'Acme', 'Match Request Under Review', '300.00'],
    ]);
    // Small batches give the same rows in the same order (the sorted id list pages correctly).
    const { reportCsv } = await import('./reports.service.ts');
    const [row] = await t.db.select().from(reports).where(eq(reports.id, saved.json.report.id));
    const text = row ? await new Response(reportCsv(t.db, row, 1)).text() : '';
    expect(parse(text, { bom: true })).toEqual(first.rows);
    await download(saved.json.report.id, token.reader);
    const [counted] = await t.db
      .select({ downloads: reports.downloads })
      .from(reports)
      .where(eq(reports.id, saved.json.report.id));
    expect(counted?.downloads).toBe(2);
    expect(ids).toHaveLength(3);
  });

  it('pages the default id order in batches without losing or repeating a row', async () => {
    const made: string[] = [];
    for (let i = 0; i < 7; i++) made.push(String(await gift(org.parent, { amount_cents: 1_000 + i })));
    const saved = await save(reportBody({ ascending: false }));
    const [row] = await t.db.select().from(reports).where(eq(reports.id, saved.json.report.id));
    const { reportCsv } = await import('./reports.service.ts');
    const text = row ? await new Response(reportCsv(t.db, row, 3)).text() : '';
    expect((parse(text, { bom: true }) as string[][]).slice(1).map((r) => r[0])).toEqual([...made].reverse());
  });

  it('offers the same rows as an .xlsx workbook', async () => {
    await gift(org.parent, {
      amount_cents: 25_000,
      donor: ['Cy Young', 'cy@example.org'],
      company_name: 'Globex',
    });
    const saved = await save(
      reportBody({ columns: { 'users.email': 'Email', 'donations.amount': 'Amount' } }),
    );
    const { status, rows } = await download(saved.json.report.id, token.writer, 'xlsx');
    expect(status).toBe(200);
    expect(rows).toEqual([
      ['Email', 'Amount'],
      ['cy@example.org', '$250.00'],
    ]);
  });

  it('writes amounts as numbers under a currency format and dates as dates, so Excel sums and sorts', async () => {
    const paid = await gift(org.parent, {
      amount_cents: 123_456,
      paid_cents: 61_728,
      paid_at: '2025-04-30',
      donated_at: new Date('2025-03-31T23:30:00Z'),
      donor: ['Di Typed', 'di@example.org'],
    });
    const unpaid = await gift(org.parent, {
      amount_cents: 5_005,
      donated_at: new Date('2024-12-01T00:10:00Z'),
    });
    const saved = await save(
      reportBody({
        columns: {
          'donations.id': 'ID',
          'donations.donated_at': 'Donated',
          'donations.amount': 'Amount',
          'users.name': 'Donor',
          'donations.paid_amount': 'Paid',
          'donations.paid_at': 'Paid on',
        },
      }),
    );
    const { status, sheet } = await download(saved.json.report.id, token.writer, 'xlsx');
    expect(status).toBe(200);
    if (!sheet) throw new Error('no sheet');
    const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true });
    const rowOf = (id: number) => rows.findIndex((r) => r[0] === id) + 1; // 1-based sheet row
    const cell = (col: string, id: number) => sheet[`${col}${rowOf(id)}`] as XLSX.CellObject;
    expect(rowOf(paid)).toBeGreaterThan(1);

    expect(cell('A', paid)).toMatchObject({ t: 'n', v: paid });
    // The UTC day, as the CSV has it, whatever the server's time zone.
    expect(cell('B', paid)).toMatchObject({ t: 'd', w: '2025-03-31', z: 'yyyy-mm-dd' });
    expect((cell('B', paid).v as Date).toISOString().slice(0, 10)).toBe('2025-03-31');
    expect(cell('C', paid)).toMatchObject({ t: 'n', v: 1234.56, z: '"$"#,##0.00', w: '$1,234.56' });
    expect(cell('D', paid)).toMatchObject({ t: 's', v: 'Di Typed' });
    expect(cell('E', paid)).toMatchObject({ t: 'n', v: 617.28, z: '"$"#,##0.00' });
    expect(cell('F', paid)).toMatchObject({ t: 'd', w: '2025-04-30' });

    expect(cell('B', unpaid)).toMatchObject({ t: 'd', w: '2024-12-01' });
    expect(cell('C', unpaid)).toMatchObject({ t: 'n', v: 50.05 });
    // Not received: the payment cells are empty, not a zero or an empty string.
    expect(cell('E', unpaid)).toBeUndefined();
    expect(cell('F', unpaid)).toBeUndefined();
  });

  it('refuses an expired or tampered link, and one whose user lost the report', async () => {
    const saved = await save(reportBody({ scope: 'personal' }));
    const link = await call(
      t.app,
      'GET',
      `/api/donation/${org.parent}/csv-token?report_id=${saved.json.report.id}`,
      { token: token.writer },
    );
    const url = link.json.url as string;
    expect((await t.app.request(`${url}x`)).status).toBe(401);
    // A link names its report: on a missing report it is not found, on another report refused.
    expect(
      (await t.app.request(url.replace(`/reports/${saved.json.report.id}/`, '/reports/999999/'))).status,
    ).toBe(404);
    const other = await save(reportBody({ scope: 'organization', name: 'Another report' }));
    expect(
      (
        await t.app.request(
          url.replace(`/reports/${saved.json.report.id}/`, `/reports/${other.json.report.id}/`),
        )
      ).status,
    ).toBe(401);
    await t.db.update(reports).set({ user_id: null }).where(eq(reports.id, saved.json.report.id));
    expect((await t.app.request(url)).status).toBe(404);
    expect(
      (
        await call(t.app, 'GET', `/api/donation/${org.parent}/csv-token?report_id=abc`, {
          token: token.writer,
        })
      ).status,
    ).toBe(400);
  });
});
