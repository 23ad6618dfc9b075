import { readFileSync } from 'node:fs';
import * as XLSX from '@e965/xlsx';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { importMessages } from '../../../src/contract/donation-import.ts';
import { queryRows } from '../../db/rows.ts';
import { companies, donationStatusHistory, donations, donors, permissions, users } from '../../db/schema.ts';
import { flushSearchIndexes } from '../../db/search-indexes.ts';
import { demoOrganizationNames as names } from '../../db/seed.ts';
import { afterCommitSettled } from '../../jobs/after-commit.ts';
import { demoOrganizationIds, readyForMatching, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';
import { hashPassword } from '../auth/passwords.ts';

let t: TestContext;
const token: Record<string, string> = {};
const org = { parent: 0, north: 0, riverside: 0, other: 0 };
let writerId = 0;

const messy = readFileSync(new URL('./fixtures/messy-donations.csv', import.meta.url));
const messyMap = {
  gift_amount: 'amount',
  donation_date: 'donated_at',
  first_name: 'donor.name',
  last_name: 'donor.name',
  email_address: 'donor.email',
  employer: 'company.name',
  transaction_id: 'transaction_id',
  notes: 'custom.notes',
};

beforeAll(async () => {
  t = await createTestContext({ config: { logRequests: false } });
  const demo = await demoOrganizationIds(t.db);
  org.parent = demo.hopeHarbor;
  org.north = demo.northShore;
  org.riverside = demo.riverside;
  org.other = demo.mapleStreet;
  await readyForMatching(t.db, [org.parent, org.north, org.riverside]);
  await t.db.insert(companies).values([
    { name: 'Test Form Co', match_method: 'form', minimum_match_cents: 2500, match_ratio: '2' },
    { name: 'Test Esign Co', match_method: 'esign', match_ratio: '1', maximum_match_cents: 100_000 },
  ]);
  const [outsider] = await t.db
    .insert(users)
    .values({
      email: 'outsider@example.org',
      name: 'Out Sider',
      password_hash: await hashPassword('outsider-pass'),
    })
    .returning();
  await t.db.insert(permissions).values({ org_id: org.other, user_id: outsider?.id ?? 0, level: 'admin' });
  const [writer] = await t.db.select().from(users).where(eq(users.email, 'writer@twofold.test'));
  writerId = writer?.id ?? 0;
  token.writer = await signIn(t.app, 'writer@twofold.test');
  token.reader = await signIn(t.app, 'reader@twofold.test');
  token.outsider = await signIn(t.app, 'outsider@example.org', 'outsider-pass');
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.delete(donations);
  await t.db.delete(donors);
});

type Send = {
  file: Blob | Uint8Array | string;
  name?: string;
  map?: Record<string, string> | string;
  fields?: Record<string, string>;
  as?: string;
};

async function send(kind: 'Test' | 'Upload', orgId: number, options: Send) {
  const form = new FormData();
  const body = options.file instanceof Blob ? options.file : new Blob([options.file as BlobPart]);
  form.set('donations', new File([body], options.name ?? 'donations.csv'));
  if (kind === 'Upload') form.set('type', 'Upload');
  if (options.map !== undefined)
    form.set('map', typeof options.map === 'string' ? options.map : JSON.stringify(options.map));
  for (const [key, value] of Object.entries(options.fields ?? {})) form.set(key, value);
  const response = await t.app.request(`/api/organization/${orgId}/donation/import-file/${kind}`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${options.as ?? token.writer}` },
  });
  // biome-ignore lint/suspicious/noExplicitAny: tests read the JSON answers.
  return { status: response.status, json: (await response.json()) as any };
}

const csv = (rows: string[][]) =>
  rows.map((r) => r.map((c) => `"${c.replaceAll('"', '""')}"`).join(',')).join('\n');

async function stored(orgIds = [org.parent, org.north, org.riverside]) {
  return t.db
    .select({
      id: donations.id,
      organization_id: donations.organization_id,
      transaction_id: donations.transaction_id,
      amount_cents: donations.amount_cents,
      matched_cents: donations.matched_cents,
      donated_at: donations.donated_at,
      status_id: donations.status_id,
      company_name: donations.company_name,
      custom: donations.custom,
      donor_name: donors.name,
      donor_email: donors.email,
    })
    .from(donations)
    .leftJoin(donors, eq(donors.id, donations.donor_id))
    .where(inArray(donations.organization_id, orgIds))
    .orderBy(asc(donations.transaction_id), asc(donations.id));
}

/** Everything an import could write. */
const counts = async () =>
  queryRows(
    t.db,
    sql`select (select count(*)::int from donations) as donations, (select count(*)::int from donors) as donors, (select count(*)::int from donation_status_history) as history`,
  );

describe('import Test', () => {
  it('proposes a map for the messy CSV, samples it and reports what an upload would do, writing nothing', async () => {
    const before = await counts();
    const res = await send('Test', org.north, { file: messy });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      map: messyMap,
      headers: Object.keys(messyMap),
      original_headers: [
        'Gift Amount',
        'Donation Date',
        'First Name',
        'Last Name',
        'Email Address',
        'Employer',
        'Transaction ID',
        'Notes',
      ],
      rows: 5,
      ready: 4,
      duplicates: 0,
      errors: [{ row: 7, reason: expect.stringMatching(/not a number in US format.*1\.200,00/) }],
      organization: { id: org.north, name: names.northShore, children: [] },
    });
    expect(res.json.sample).toHaveLength(5);
    expect(res.json.sample[0]).toMatchObject({ gift_amount: '$1,200.00', last_name: 'Smith, Jr.' });
    expect(await counts()).toEqual(before);
  });

  it("checks the rows with the map sent, and lists a parent's chapters", async () => {
    const res = await send('Test', org.parent, {
      file: csv([
        ['Name', 'Amount', 'Date', 'Chapter', 'Employer'],
        ['A', '10', '2025-03-01', names.northShore, 'Test Form Co'],
        ['B', '10', '2025-03-01', 'Nowhere Chapter', 'Test Form Co'],
      ]),
      map: {
        name: 'donor.name',
        amount: 'amount',
        date: 'donated_at',
        chapter: 'skip',
        employer: 'company.name',
      },
    });
    expect(res.status).toBe(200);
    expect(res.json.organization.children.map((c: { id: number }) => c.id).sort()).toEqual(
      [org.north, org.riverside].sort(),
    );
    // Without organization_name mapped, a parent's rows have nowhere to go.
    expect(res.json.errors).toEqual([
      { row: 2, reason: 'Missing organization name' },
      { row: 3, reason: 'Missing organization name' },
    ]);
    const mapped = await send('Test', org.parent, {
      file: csv([
        ['Name', 'Amount', 'Date', 'Chapter', 'Employer'],
        ['A', '10', '2025-03-01', names.northShore, 'Test Form Co'],
        ['B', '10', '2025-03-01', 'Nowhere Chapter', 'Test Form Co'],
      ]),
    });
    expect(mapped.json).toMatchObject({
      ready: 1,
      errors: [{ row: 3, reason: expect.stringMatching(/Nowhere Chapter/) }],
    });
  });
});

describe('import Upload', () => {
  it('creates the readable rows with resolved statuses, donors, custom fields and history; a second upload creates nothing', async () => {
    const res = await send('Upload', org.north, { file: messy, map: messyMap });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      message: 'Upload successful',
      created: 4,
      duplicates: 0,
      errors: [{ row: 7, reason: expect.any(String) }],
      employers_found: 3,
      employers_to_review: 0,
    });
    const rows = await stored();
    expect(
      rows.map((r) => ({
        tx: r.transaction_id,
        org: r.organization_id,
        cents: r.amount_cents,
        matched: r.matched_cents,
        day: r.donated_at.toISOString(),
        status: r.status_id,
        company: r.company_name,
        name: r.donor_name,
        email: r.donor_email,
      })),
    ).toEqual([
      {
        tx: 'TX-1',
        org: org.north,
        cents: 120_000,
        matched: 100_000,
        day: '2025-03-01T12:00:00.000Z',
        status: 5,
        company: 'Test Esign Co',
        name: 'Jane Smith, Jr.',
        email: 'jane@example.org',
      },
      {
        tx: 'TX-2',
        org: org.north,
        cents: 2_500,
        matched: 5_000,
        day: '2025-03-15T12:00:00.000Z',
        status: 3,
        company: 'Test Form Co',
        name: 'Bob Jones',
        email: 'bob@example.org',
      },
      {
        tx: 'TX-3',
        org: org.north,
        cents: 5_050,
        matched: 0,
        day: '2025-03-01T12:00:00.000Z',
        status: 23,
        company: 'Unknown Corp',
        name: 'Carol King',
        email: 'carol@example.org',
      },
      {
        tx: 'TX-5',
        org: org.north,
        cents: 10_000,
        matched: 20_000,
        day: '2025-03-01T12:00:00.000Z',
        status: 3,
        company: 'Test Form Co',
        name: 'Serial Date',
        email: 'serial@example.org',
      },
    ]);
    expect(rows[0]?.custom).toEqual({ notes: 'Met at gala, wants a receipt' });
    const history = await t.db
      .select()
      .from(donationStatusHistory)
      .where(
        inArray(
          donationStatusHistory.donation_id,
          rows.map((r) => r.id),
        ),
      );
    expect(history).toHaveLength(4);
    expect(history.every((h) => h.user_id === writerId && h.from_status_id === null)).toBe(true);

    const again = await send('Upload', org.north, { file: messy, map: messyMap });
    expect(again.json).toMatchObject({ created: 0, duplicates: 4 });
    expect(await stored()).toHaveLength(4);
    expect((await send('Test', org.north, { file: messy })).json).toMatchObject({ ready: 0, duplicates: 4 });
  });

  it('skips rows without a transaction id that match a stored gift (donor, amount, day), so a re-upload creates nothing', async () => {
    const file = csv([
      ['Name', 'Email', 'Amount', 'Date', 'Employer'],
      ['Ann Email', 'ann@example.org', '10', '2025-03-01', 'Test Form Co'],
      ['Nat Noemail', '', '10', '03/01/2025', 'Test Form Co'],
    ]);
    const map = {
      name: 'donor.name',
      email: 'donor.email',
      amount: 'amount',
      date: 'donated_at',
      employer: 'company.name',
    };
    expect((await send('Upload', org.north, { file, map })).json).toMatchObject({
      created: 2,
      duplicates: 0,
    });
    expect((await send('Upload', org.north, { file, map })).json).toMatchObject({
      created: 0,
      duplicates: 2,
    });
    const other = csv([
      ['Name', 'Email', 'Amount', 'Date', 'Employer'],
      ['Ann Email', 'ann@example.org', '10', '2025-03-02', 'Test Form Co'],
      ['Nat Noemail', '', '11', '2025-03-01', 'Test Form Co'],
    ]);
    expect((await send('Upload', org.north, { file: other, map })).json).toMatchObject({
      created: 2,
      duplicates: 0,
    });
    expect(await stored()).toHaveLength(4);
  });

  it('finds known donors by email, and counts a transaction id repeated in the file as a duplicate', async () => {
    const file = csv([
      ['Email', 'Name', 'Amount', 'Date', 'Employer', 'Gift ID'],
      ['pat@example.org', 'Pat One', '10', '2025-03-01', 'Test Form Co', 'G-1'],
      ['PAT@example.org', 'Pat Renamed', '20', '2025-03-02', 'Test Form Co', 'G-2'],
      ['pat@example.org', 'Pat Again', '30', '2025-03-03', 'Test Form Co', 'G-1'],
      ['', 'No Email', '40', '2025-03-04', 'Test Form Co', ''],
      ['', 'No Email', '40', '2025-03-04', 'Test Form Co', ''],
    ]);
    const map = {
      email: 'donor.email',
      name: 'donor.name',
      amount: 'amount',
      date: 'donated_at',
      employer: 'company.name',
      gift_id: 'transaction_id',
    };
    const res = await send('Upload', org.north, { file, map });
    expect(res.json).toMatchObject({ created: 4, duplicates: 1, errors: [] });
    const patDonors = await t.db.select().from(donors).where(eq(donors.email, 'pat@example.org'));
    expect(patDonors).toHaveLength(1);
    const next = await send('Upload', org.north, {
      file: csv([
        ['Email', 'Name', 'Amount', 'Date', 'Employer', 'Gift ID'],
        ['pat@example.org', 'Pat Final', '50', '2025-03-05', 'Test Form Co', 'G-3'],
      ]),
      map,
    });
    expect(next.json.created).toBe(1);
    const after = await t.db.select().from(donors).where(eq(donors.email, 'pat@example.org'));
    expect(after.map((d) => [d.id, d.name])).toEqual([[patDonors[0]?.id, 'Pat Final']]);
  });

  it('opt_in holds donor-action matches at Awaiting Donor Opt-In; no_company accepts rows without a company at Missing Company Hold', async () => {
    const file = csv([
      ['Name', 'Amount', 'Date', 'Employer', 'Reference'],
      ['Esign Donor', '100', '2025-03-01', 'Test Esign Co', 'O-1'],
      ['Form Donor', '100', '2025-03-01', 'Test Form Co', 'O-2'],
      ['Nobody Employed', '100', '2025-03-01', '', 'O-3'],
    ]);
    const map = {
      name: 'donor.name',
      amount: 'amount',
      date: 'donated_at',
      employer: 'company.name',
      reference: 'transaction_id',
    };
    const plain = await send('Upload', org.north, {
      file,
      map,
      fields: { opt_in: 'false', no_company: 'false' },
    });
    expect(plain.json).toMatchObject({
      created: 2,
      errors: [{ row: 4, reason: expect.stringMatching(/^Missing company/), kind: 'missing_company' }],
    });
    expect((await stored()).map((r) => [r.transaction_id, r.status_id])).toEqual([
      ['O-1', 5],
      ['O-2', 3],
    ]);
    await t.db.delete(donations);
    const held = await send('Upload', org.north, {
      file,
      map,
      fields: { opt_in: 'true', no_company: 'true' },
    });
    expect(held.json).toMatchObject({ created: 3, errors: [] });
    expect((await stored()).map((r) => [r.transaction_id, r.status_id])).toEqual([
      ['O-1', 24],
      ['O-2', 3],
      ['O-3', 23],
    ]);
    // The Test call takes the same choices under its own names.
    await t.db.delete(donations);
    const test = await send('Test', org.north, {
      file,
      map,
      fields: { sendOptInEmail: 'true', emailForEmployer: 'true' },
    });
    expect(test.json).toMatchObject({ ready: 3, errors: [] });
  });

  it("routes a parent's rows to its chapters by organization name, and refuses names outside it", async () => {
    const file = csv([
      ['Name', 'Amount', 'Date', 'Organization', 'Employer', 'Transaction ID'],
      ['P', '10', '2025-03-01', names.hopeHarbor, 'Test Form Co', 'R-1'],
      ['N', '10', '2025-03-01', names.northShore.toUpperCase(), 'Test Form Co', 'R-2'],
      ['R', '10', '2025-03-01', names.riverside, 'Test Form Co', 'R-3'],
      ['M', '10', '2025-03-01', names.mapleStreet, 'Test Form Co', 'R-4'],
      ['E', '10', '2025-03-01', '', 'Test Form Co', 'R-5'],
    ]);
    const map = {
      name: 'donor.name',
      amount: 'amount',
      date: 'donated_at',
      organization: 'organization_name',
      employer: 'company.name',
      transaction_id: 'transaction_id',
    };
    const res = await send('Upload', org.parent, { file, map });
    expect(res.json).toMatchObject({
      created: 3,
      errors: [
        {
          row: 5,
          reason: `Unknown organization '${names.mapleStreet}': not this organization or one of its chapters`,
        },
        { row: 6, reason: 'Missing organization name' },
      ],
    });
    expect((await stored()).map((r) => [r.transaction_id, r.organization_id])).toEqual([
      ['R-1', org.parent],
      ['R-2', org.north],
      ['R-3', org.riverside],
    ]);
    expect(await stored([org.other])).toEqual([]);
  });

  it("refuses maps the spec forbids with the spec's messages, writing nothing", async () => {
    const file = csv([
      ['Name', 'Amount', 'Total', 'Date'],
      ['A', '10', '10', '2025-03-01'],
    ]);
    const before = await counts();
    const duplicate = await send('Upload', org.north, {
      file,
      map: { name: 'donor.name', amount: 'amount', total: 'amount', date: 'donated_at' },
    });
    expect(duplicate).toEqual({ status: 400, json: { message: importMessages.duplicateTarget } });
    expect(duplicate.json.message).toBe(
      "Mapping Error: One or more fields are mapped to the same column. Look for red dropdown buttons and reassign to 'custom' or 'do not upload'",
    );
    const noOrg = await send('Upload', org.parent, {
      file,
      map: { name: 'donor.name', amount: 'amount', total: 'skip', date: 'donated_at' },
    });
    expect(noOrg).toEqual({
      status: 400,
      json: { message: 'Missing Required Field: Organization Name is required for this upload.' },
    });
    expect((await send('Upload', org.north, { file })).json).toEqual({ message: importMessages.badMap });
    expect((await send('Upload', org.north, { file, map: '{nope' })).status).toBe(400);
    expect(
      (await send('Upload', org.north, { file, map: { name: 'donor.name' }, fields: { type: 'Delete' } }))
        .json,
    ).toEqual({ message: "type must be 'Upload'" });
    expect(await counts()).toEqual(before);
  });

  it('reads .xlsx and .xls uploads', async () => {
    for (const [name, bookType, prefix] of [
      ['gifts.xlsx', 'xlsx', 'X'],
      ['gifts.xls', 'biff8', 'B'],
    ] as const) {
      const book = XLSX.utils.book_new();
      XLSX.utils.book_append_sheet(
        book,
        XLSX.utils.aoa_to_sheet([
          ['Donor Name', 'Gift Amount', 'Gift Date', 'Company', 'Donation ID'],
          ['Sheet Donor', 1200.5, new Date(Date.UTC(2025, 2, 1)), 'Test Form Co', `${prefix}-1`],
          ['Serial Donor', 30, 45717, 'Test Form Co', `${prefix}-2`],
        ]),
        'Gifts',
      );
      const file = new Uint8Array(XLSX.write(book, { type: 'buffer', bookType }) as Buffer);
      const test = await send('Test', org.north, { file, name });
      expect(test.json).toMatchObject({ rows: 2, ready: 2, errors: [] });
      const upload = await send('Upload', org.north, { file, name, map: test.json.map });
      expect(upload.json).toMatchObject({ created: 2 });
    }
    const rows = await stored();
    expect(
      rows.map((r) => [r.transaction_id, r.amount_cents, r.donated_at.toISOString().slice(0, 10)]),
    ).toEqual([
      ['B-1', 120_050, '2025-03-01'],
      ['B-2', 3_000, '2025-03-01'],
      ['X-1', 120_050, '2025-03-01'],
      ['X-2', 3_000, '2025-03-01'],
    ]);
  });

  it('refuses unsupported files, more than 4000 rows and files over 10 MB', async () => {
    expect(await send('Test', org.north, { file: '%PDF-1.7', name: 'gifts.pdf' })).toEqual({
      status: 400,
      json: { message: 'Unsupported file type: use .csv, .xlsx or .xls' },
    });
    const rows = ['Name,Amount,Date', ...Array.from({ length: 4001 }, (_, i) => `D${i},1,2025-03-01`)].join(
      '\n',
    );
    expect(await send('Test', org.north, { file: rows })).toEqual({
      status: 400,
      json: { message: 'Upload is limited to 4000 rows' },
    });
    // Just over 10 MB (refused by the handler), and well over it (refused before the body is read).
    for (const size of [10 * 1024 * 1024 + 100, 11 * 1024 * 1024]) {
      const huge = `Name,Amount,Date\n${'x'.repeat(size)}`;
      expect(await send('Test', org.north, { file: huge })).toEqual({
        status: 413,
        json: { message: importMessages.tooLarge },
      });
    }
    const noFile = new FormData();
    noFile.set('map', '{}');
    const res = await t.app.request(`/api/organization/${org.north}/donation/import-file/Test`, {
      method: 'POST',
      body: noFile,
      headers: { authorization: `Bearer ${token.writer}` },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toContain(importMessages.missingFile);
  });

  it('creates 4000 rows in one go', async () => {
    const rows = [
      'Donor Name,Donor Email,Gift Amount,Donation Date,Employer,Transaction ID',
      ...Array.from(
        { length: 4000 },
        (_, i) =>
          `Donor ${i},donor${i % 1500}@example.org,"$${(25 + (i % 400)).toLocaleString('en-US')}.00",${i % 2 ? '2025-03-01' : '03/15/2025'},Test Form Co,BULK-${i}`,
      ),
    ].join('\n');
    const test = await send('Test', org.north, { file: rows });
    expect(test.json).toMatchObject({ ready: 4000, errors: [] });
    const upload = await send('Upload', org.north, { file: rows, map: test.json.map });
    expect(upload.json).toMatchObject({ created: 4000, duplicates: 0 });
    const [{ n } = { n: 0 }] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(donations)
      .where(eq(donations.organization_id, org.north));
    expect(n).toBe(4000);
    const donorCount = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(donors)
      .where(eq(donors.organization_id, org.north));
    expect(donorCount[0]?.n).toBe(1500);
  });

  it("merges the contains filters' pending index entries after it commits, off the Upload's answer", async () => {
    // A plain insert leaves its trigram entries in the GIN pending lists, which a flush merges.
    await t.db
      .insert(donors)
      .values({ organization_id: org.north, name: 'Pending Pat', email: 'pat@example.org' });
    expect(await flushSearchIndexes(t.db, ['donors', 'donations'])).toBeGreaterThan(0);
    expect(await flushSearchIndexes(t.db, ['donors', 'donations'])).toBe(0);
    const rows = csv([
      ['Donor Name', 'Donor Email', 'Gift Amount', 'Donation Date', 'Employer', 'Transaction ID'],
      ...Array.from({ length: 200 }, (_, i) => [
        `Donor ${i}`,
        `flush${i}@example.org`,
        '$50.00',
        '2025-03-01',
        'Test Form Co',
        `FLUSH-${i}`,
      ]),
    ]);
    const upload = await send('Upload', org.north, {
      file: rows,
      map: {
        donor_name: 'donor.name',
        donor_email: 'donor.email',
        gift_amount: 'amount',
        donation_date: 'donated_at',
        employer: 'company.name',
        transaction_id: 'transaction_id',
      },
    });
    expect(upload.json).toMatchObject({ created: 200 });
    await afterCommitSettled(t.db);
    // Nothing left to merge: the import did it once its transaction had committed.
    expect(await flushSearchIndexes(t.db, ['donors', 'donations'])).toBe(0);
    // And the contains filter finds the new donors through the merged index.
    const list = await t.app.request(
      `/api/organization/${org.north}/donation?${new URLSearchParams({ 'filters[donor]': 'flush19' })}`,
      { headers: { authorization: `Bearer ${token.writer}` } },
    );
    expect(((await list.json()) as { total: number }).total).toBe(11);
  });

  it("leaves the indexes to vacuum, without failing, where the server's role does not own them", async () => {
    await t.db
      .transaction(async (tx) => {
        await tx
          .insert(donors)
          .values({ organization_id: org.north, name: 'Pending Pia', email: 'pia@example.org' });
        await tx.execute(sql`create role twofold_not_owner`);
        await tx.execute(sql`grant usage on schema public to twofold_not_owner`);
        await tx.execute(sql`set local role twofold_not_owner`);
        expect(await flushSearchIndexes(tx, ['donors', 'donations'])).toBe(0);
        await tx.execute(sql`reset role`);
        // The owner still merges what the other role left.
        expect(await flushSearchIndexes(tx, ['donors', 'donations'])).toBeGreaterThan(0);
        tx.rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof Error) || error.message !== 'Rollback') throw error;
      });
  });

  it('writes nothing when a failure happens mid-way', async () => {
    // A database fault on the 1500th row, after the first batch of 1000 was inserted.
    await t.db.execute(
      sql.raw(`create or replace function import_test_fail() returns trigger language plpgsql as $$
        begin if new.amount_cents = 6666600 then raise exception 'injected failure'; end if; return new; end $$`),
    );
    await t.db.execute(
      sql.raw(
        'create trigger import_test_fail before insert on donations for each row execute function import_test_fail()',
      ),
    );
    try {
      const rows = [
        'Donor Name,Donor Email,Amount,Date,Employer,Transaction ID',
        ...Array.from(
          { length: 1600 },
          (_, i) =>
            `Donor ${i},fail${i}@example.org,${i === 1499 ? '66666' : '10'},2025-03-01,Test Form Co,FAIL-${i}`,
        ),
      ].join('\n');
      const before = await counts();
      const res = await send('Upload', org.north, {
        file: rows,
        map: {
          donor_name: 'donor.name',
          donor_email: 'donor.email',
          amount: 'amount',
          date: 'donated_at',
          employer: 'company.name',
          transaction_id: 'transaction_id',
        },
      });
      expect(res.status).toBe(500);
      expect(await counts()).toEqual(before);
    } finally {
      await t.db.execute(sql.raw('drop trigger import_test_fail on donations'));
    }
  });

  it('refuses readers (403) and other organizations (404), writing nothing', async () => {
    const before = await counts();
    const reader = await send('Upload', org.north, { file: messy, map: messyMap, as: token.reader });
    expect(reader.status).toBe(403);
    expect((await send('Test', org.north, { file: messy, as: token.reader })).status).toBe(403);
    const outsider = await send('Upload', org.north, { file: messy, map: messyMap, as: token.outsider });
    expect(outsider).toEqual({
      status: 404,
      json: { message: `Organization with id ${org.north} not found` },
    });
    const other = await send('Upload', org.other, { file: messy, map: messyMap });
    expect(other.status).toBe(404);
    expect(await counts()).toEqual(before);
    expect(
      await t.db
        .select()
        .from(donations)
        .where(and(eq(donations.organization_id, org.other))),
    ).toEqual([]);
  });
});
