import { readFileSync } from 'node:fs';
import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { importMessages, mappingProblem, normaliseHeader } from '../../../src/contract/donation-import.ts';
import {
  fileKind,
  parseAmountCents,
  parseGiftDate,
  parseMapField,
  proposeMap,
  readRow,
  readTable,
  uniqueHeaders,
} from './import-parse.ts';

const messy = readFileSync(new URL('./fixtures/messy-donations.csv', import.meta.url));
const bytes = (text: string) => new TextEncoder().encode(text);
const workbook = (rows: unknown[][], bookType: 'xlsx' | 'biff8') => {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Donations');
  return new Uint8Array(XLSX.write(book, { type: 'buffer', bookType }) as Buffer);
};
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return { status: (error as { status?: number }).status, message: (error as Error).message };
  }
  return undefined;
};

describe('headers and the proposed map', () => {
  it('normalises headers to snake_case, names blank ones and numbers repeats', () => {
    expect(normaliseHeader('  Gift Amount ($) ')).toBe('gift_amount');
    expect(normaliseHeader('E-mail / Address')).toBe('e_mail_address');
    expect(uniqueHeaders(['Email', 'email ', '', 'Notes'])).toEqual([
      'email',
      'email_2',
      'column_3',
      'notes',
    ]);
  });

  it('recognises the usual export headers and keeps unknown columns as custom fields', () => {
    const headers = uniqueHeaders([
      'Gift Amount',
      'Donation Date',
      'Employer Name',
      'Email Address',
      'Full Name',
      'Gift ID',
      'Phone',
      'Street Address',
      'City',
      'State',
      'Postal Code',
      'Country',
      'Chapter',
      'EIN',
      'Campaign',
      'Total',
    ]);
    expect(proposeMap(headers)).toEqual({
      gift_amount: 'amount',
      donation_date: 'donated_at',
      employer_name: 'company.name',
      email_address: 'donor.email',
      full_name: 'donor.name',
      gift_id: 'transaction_id',
      phone: 'donor.phone',
      street_address: 'address.street',
      city: 'city',
      state: 'state',
      postal_code: 'zip',
      country: 'country',
      chapter: 'organization_name',
      ein: 'ein',
      campaign: 'custom.campaign',
      // A second amount-like column does not claim amount twice.
      total: 'custom.total',
    });
  });

  it('maps First Name and Last Name together to donor.name, unless a full-name column exists', () => {
    expect(proposeMap(['first_name', 'last_name', 'amount'])).toMatchObject({
      first_name: 'donor.name',
      last_name: 'donor.name',
    });
    expect(proposeMap(['name', 'first_name'])).toEqual({
      name: 'donor.name',
      first_name: 'custom.first_name',
    });
    expect(
      mappingProblem({ a: 'donor.name', b: 'donor.name', c: 'amount', d: 'donated_at' }, false),
    ).toBeNull();
  });

  it("checks a map with the spec's messages", () => {
    const base = { amount: 'amount', date: 'donated_at', name: 'donor.name' };
    expect(mappingProblem({ ...base, total: 'amount' }, false)).toBe(importMessages.duplicateTarget);
    expect(mappingProblem({ ...base, x: 'custom.x', y: 'custom.x' }, false)).toBe(
      importMessages.duplicateTarget,
    );
    expect(mappingProblem({ ...base, x: 'skip', y: 'skip' }, false)).toBeNull();
    expect(mappingProblem(base, true)).toBe(importMessages.organizationNameRequired);
    expect(mappingProblem({ ...base, org: 'organization_name' }, true)).toBeNull();
    expect(mappingProblem({ date: 'donated_at', name: 'donor.name' }, false)).toBe(
      importMessages.amountRequired,
    );
    expect(mappingProblem({ amount: 'amount', name: 'donor.name' }, false)).toBe(importMessages.dateRequired);
    expect(mappingProblem({ amount: 'amount', date: 'donated_at' }, false)).toBe(
      importMessages.donorRequired,
    );
    expect(mappingProblem({ ...base, x: 'donor.age' }, false)).toBe(importMessages.unknownTarget);
  });

  it('reads the map field: columns left out are not uploaded, anything but an object of strings is refused', () => {
    expect(parseMapField('{"amount":"amount"}', ['amount', 'notes'])).toEqual({
      amount: 'amount',
      notes: 'skip',
    });
    for (const bad of ['nope', '[]', 'null', '{"amount":1}'])
      expect(refusal(() => parseMapField(bad, ['amount']))).toEqual({
        status: 400,
        message: importMessages.badMap,
      });
  });
});

describe('cell values', () => {
  it('reads US amounts and refuses the rest', () => {
    expect(
      ['1200', '$1,200.00', '1,200.5', 'USD 25', '25 USD', '.5', '0', '12.345'].map(parseAmountCents),
    ).toEqual([120_000, 120_000, 120_050, 2_500, 2_500, 50, 0, 1_235]);
    expect(parseAmountCents('1.200,00')).toMatch(/not a number in US format/);
    expect(parseAmountCents('12,00')).toMatch(/not a number/);
    expect(parseAmountCents('-5')).toBe('Amount cannot be negative');
    expect(parseAmountCents('(5.00)')).toBe('Amount cannot be negative');
    expect(parseAmountCents('')).toBe('Missing amount');
    expect(parseAmountCents('2000000')).toMatch(/too large/);
  });

  it('reads the date styles files carry, at noon UTC when no time is given', () => {
    const iso = (text: string) => {
      const date = parseGiftDate(text);
      return typeof date === 'string' ? date : date.toISOString();
    };
    expect(iso('2025-03-01')).toBe('2025-03-01T12:00:00.000Z');
    expect(iso('03/01/2025')).toBe('2025-03-01T12:00:00.000Z');
    expect(iso('3/1/25')).toBe('2025-03-01T12:00:00.000Z');
    expect(iso('45717')).toBe('2025-03-01T12:00:00.000Z');
    expect(iso('45717.75')).toBe('2025-03-01T18:00:00.000Z');
    expect(iso('Mar 1, 2025')).toBe('2025-03-01T12:00:00.000Z');
    expect(iso('2025-03-01 14:30:00')).toBe('2025-03-01T14:30:00.000Z');
    expect(iso('2025-03-01T14:30:00-05:00')).toBe('2025-03-01T19:30:00.000Z');
    expect(iso('02/30/2025')).toMatch(/not a date/);
    expect(iso('13/01/2025')).toMatch(/not a date/);
    expect(iso('2025')).toMatch(/not a date/);
    expect(iso('')).toBe('Missing donation date');
  });

  it('reads a row with the map: names joined, custom fields kept, reasons for unreadable rows', () => {
    const map = {
      amount: 'amount',
      date: 'donated_at',
      first: 'donor.name',
      last: 'donor.name',
      email: 'donor.email',
      city: 'city',
      notes: 'custom.notes',
      history: 'custom.history',
      ignored: 'skip',
    };
    const cells = {
      amount: '$10',
      date: '2025-03-01',
      first: 'Jane',
      last: 'Smith',
      email: 'JANE@Example.org',
      city: 'Portland',
      notes: 'gala',
      history: 'old system',
      ignored: 'x',
    };
    expect(readRow({ line: 2, cells }, map)).toMatchObject({
      line: 2,
      amountCents: 1000,
      donorName: 'Jane Smith',
      donorEmail: 'jane@example.org',
      custom: { city: 'Portland', notes: 'gala', history_column: 'old system' },
    });
    expect(readRow({ line: 3, cells: { ...cells, first: '', last: '', email: '' } }, map)).toEqual({
      line: 3,
      reason: 'Missing donor name and email',
    });
    expect(readRow({ line: 4, cells: { ...cells, email: 'not-an-email' } }, map)).toMatchObject({
      reason: expect.stringMatching(/not a valid email/),
    });
    // The one rule (src/contract/email.ts): what the donor's own edit form would refuse is refused here.
    for (const email of ['a@b.c', 'ann@@example.org', 'ann@example', 'ann lee@example.org'])
      expect(readRow({ line: 4, cells: { ...cells, email } }, map)).toMatchObject({
        reason: expect.stringMatching(/not a valid email/),
      });
    expect(
      readRow({ line: 4, cells: { ...cells, email: 'Ann.Lee+gala@mail.example.co' } }, map),
    ).toMatchObject({
      donorEmail: 'ann.lee+gala@mail.example.co',
    });
    expect(readRow({ line: 5, cells: { ...cells, date: '' } }, map)).toMatchObject({
      reason: 'Missing donation date',
    });
    // A NUL in a custom column is the row's problem, not a database error for the whole upload.
    expect(readRow({ line: 6, cells: { ...cells, notes: 'ga\u0000la' } }, map)).toEqual({
      line: 6,
      reason: 'Text cannot contain NUL characters',
    });
  });
});

describe('reading files', () => {
  it('reads the messy CSV: BOM, quoted commas, trailing spaces, blank lines, with file line numbers', () => {
    const table = readTable('donations.csv', messy);
    expect(table.originalHeaders[0]).toBe('Gift Amount');
    expect(table.headers).toEqual([
      'gift_amount',
      'donation_date',
      'first_name',
      'last_name',
      'email_address',
      'employer',
      'transaction_id',
      'notes',
    ]);
    expect(table.rows.map((r) => r.line)).toEqual([2, 3, 5, 7, 8]);
    expect(table.rows[0]?.cells).toMatchObject({ gift_amount: '$1,200.00', last_name: 'Smith, Jr.' });
    expect(table.rows[1]?.cells.first_name).toBe('Bob');
    expect(table.rows[2]?.cells.notes).toBe('trailing spaces');
  });

  it('numbers rows by the line they end on when a quoted cell spans lines, and in files whose lines end in a lone carriage return', () => {
    const encode = (text: string) => new TextEncoder().encode(text);
    const spanning = readTable(
      'donations.csv',
      encode('Name,Notes\r\nAda,"two\nlines"\r\n\r\nBob,one\r\nCy,"a\nb\nc"\r\nDee,x'),
    );
    expect(spanning.rows.map((r) => [r.line, r.cells.name])).toEqual([
      [3, 'Ada'],
      [5, 'Bob'],
      [8, 'Cy'],
      [9, 'Dee'],
    ]);
    expect(spanning.rows[0]?.cells.notes).toBe('two\nlines');
    const oldMac = readTable('donations.csv', encode('Name,Notes\rAda,one\r\rBob,two\r'));
    expect(oldMac.rows.map((r) => [r.line, r.cells.name])).toEqual([
      [2, 'Ada'],
      [4, 'Bob'],
    ]);
    // One record per line: numbered without csv-parse's per-record info, blank lines counted.
    const plain = readTable('donations.csv', encode('\nName,Notes\n\nAda,one\n   \nBob,two'));
    expect(plain.rows.map((r) => [r.line, r.cells.name])).toEqual([
      [4, 'Ada'],
      [6, 'Bob'],
    ]);
  });

  it('reads .xlsx and .xls workbooks, with real date cells and serial numbers', () => {
    const rows = [
      ['Donor Name', 'Amount', 'Date'],
      ['Xena Sheet', 1200.5, new Date(Date.UTC(2025, 2, 1))],
      ['Yuri Serial', 25, 45717],
    ];
    for (const [name, type] of [
      ['gifts.xlsx', 'xlsx'],
      ['gifts.xls', 'biff8'],
    ] as const) {
      const table = readTable(name, workbook(rows, type));
      expect(table.headers).toEqual(['donor_name', 'amount', 'date']);
      const map = proposeMap(table.headers);
      const read = table.rows.map((r) => readRow(r, map));
      expect(read).toMatchObject([
        { line: 2, donorName: 'Xena Sheet', amountCents: 120_050 },
        { line: 3, donorName: 'Yuri Serial', amountCents: 2_500 },
      ]);
      for (const row of read)
        expect('donatedAt' in row && row.donatedAt.toISOString().slice(0, 10)).toBe('2025-03-01');
    }
  });

  it('reads date cells of a 1904-based workbook (old Mac Excel) as the dates they show', () => {
    const sheet = XLSX.utils.aoa_to_sheet([
      ['Donor Name', 'Amount', 'Date'],
      ['Mac Donor', 10, 0],
    ]);
    // 2025-03-01 counted from 1904-01-01, with a date format.
    sheet.C2 = { t: 'n', v: 45717 - 1462, z: 'm/d/yy' };
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, sheet, 'Gifts');
    book.Workbook = { WBProps: { date1904: true } };
    const table = readTable(
      'mac.xlsx',
      new Uint8Array(XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer),
    );
    expect(table.rows[0]?.cells.date).toBe('2025-03-01');
    const row = readRow(table.rows[0] ?? { line: 2, cells: {} }, proposeMap(table.headers));
    expect('donatedAt' in row && row.donatedAt.toISOString()).toBe('2025-03-01T12:00:00.000Z');
  });

  it('decides the type by extension and content', () => {
    const xlsx = workbook([['a'], ['1']], 'xlsx');
    expect(fileKind('a.CSV', bytes('a,b\n1,2'))).toBe('csv');
    expect(fileKind('a.xlsx', xlsx)).toBe('spreadsheet');
    expect(fileKind('a.xls', xlsx)).toBe('spreadsheet');
    const unsupported = { status: 400, message: importMessages.unsupportedType };
    expect(refusal(() => fileKind('a.csv', xlsx))).toEqual(unsupported);
    expect(refusal(() => fileKind('a.xlsx', bytes('a,b\n1,2')))).toEqual(unsupported);
    expect(refusal(() => fileKind('a.pdf', bytes('%PDF-1.7')))).toEqual(unsupported);
    expect(refusal(() => fileKind('a.txt', bytes('a,b')))).toEqual(unsupported);
    expect(refusal(() => fileKind('a.csv', new Uint8Array([0x61, 0, 0x62])))).toEqual(unsupported);
  });

  it('refuses empty files, files without column names or rows, and more than 4000 rows', () => {
    const read = (text: string) => refusal(() => readTable('d.csv', bytes(text)));
    expect(read('')).toEqual({ status: 400, message: importMessages.empty });
    expect(read('\n\n,,\n')).toEqual({ status: 400, message: importMessages.empty });
    expect(read('Amount,Date\n')).toEqual({ status: 400, message: importMessages.noRows });
    expect(read('25.00,2025-03-01\n30,2025-03-02\n')).toEqual({
      status: 400,
      message: importMessages.noHeader,
    });
    const rows = (n: number) =>
      ['Amount,Date', ...Array.from({ length: n }, () => '1,2025-03-01')].join('\n');
    expect(readTable('d.csv', bytes(rows(4000))).rows).toHaveLength(4000);
    expect(read(rows(4001))).toEqual({ status: 400, message: 'Upload is limited to 4000 rows' });
    expect(refusal(() => readTable('d.xlsx', bytes('PK\u0003\u0004garbage')))).toEqual({
      status: 400,
      message: importMessages.unreadable,
    });
  });
});

/**
 * Issue 30: a typical export had 3 of 8 columns recognised. Header rows as the platforms write
 * them, through the same read and proposal the Test call makes; every column is asserted.
 */
describe('the automatic mapping of usual platform and CRM exports', () => {
  const proposed = (headerRow: string) =>
    proposeMap(readTable('export.csv', bytes(`${headerRow}\n1,2,3\n`)).headers);

  it("reads the issue's typical export and a Raiser's Edge gift export", () => {
    expect(
      proposed(
        'Gift Date,Donor Email Address,Employer,Gift Amount,First Name,Last Name,Campaign,Payment Method',
      ),
    ).toEqual({
      gift_date: 'donated_at',
      donor_email_address: 'donor.email',
      employer: 'company.name',
      gift_amount: 'amount',
      first_name: 'donor.name',
      last_name: 'donor.name',
      // No target of their own: kept on the match as custom fields.
      campaign: 'custom.campaign',
      payment_method: 'custom.payment_method',
    });
    expect(
      proposed(
        'Constituent ID,Gift ID,Gift Date,Gift Amount ($),Constituent Name,Preferred Email,Employer Name,Fund',
      ),
    ).toEqual({
      constituent_id: 'custom.constituent_id',
      gift_id: 'transaction_id',
      gift_date: 'donated_at',
      gift_amount: 'amount',
      constituent_name: 'donor.name',
      preferred_email: 'donor.email',
      employer_name: 'company.name',
      fund: 'custom.fund',
    });
  });

  it('reads Salesforce NPSP, Bloomerang and Classy exports', () => {
    expect(proposed('Opportunity ID,Close Date,Amount,Primary Contact,Primary Email,Company,Stage')).toEqual({
      opportunity_id: 'transaction_id',
      close_date: 'donated_at',
      amount: 'amount',
      primary_contact: 'donor.name',
      primary_email: 'donor.email',
      company: 'company.name',
      stage: 'custom.stage',
    });
    expect(
      proposed('Transaction ID,Date Received,Donation Amount,Full Name,Email Address,EMPLOYER,Phone Number'),
    ).toEqual({
      transaction_id: 'transaction_id',
      date_received: 'donated_at',
      donation_amount: 'amount',
      full_name: 'donor.name',
      email_address: 'donor.email',
      employer: 'company.name',
      phone_number: 'donor.phone',
    });
    expect(
      proposed(
        'Transaction Date,Gross Transaction Amount,Billing First Name,Billing Last Name,Email Address (Primary),Company Name,Billing Postal Code',
      ),
    ).toEqual({
      transaction_date: 'donated_at',
      gross_transaction_amount: 'amount',
      billing_first_name: 'donor.name',
      billing_last_name: 'donor.name',
      email_address_primary: 'donor.email',
      company_name: 'company.name',
      billing_postal_code: 'zip',
    });
  });

  it('reads DonorPerfect, Givebutter, Donorbox, Neon and PayPal Giving exports, spelling and case aside', () => {
    expect(proposed('gift_date,amount,first_name,last_name,email,employer,gift_id')).toEqual({
      gift_date: 'donated_at',
      amount: 'amount',
      first_name: 'donor.name',
      last_name: 'donor.name',
      email: 'donor.email',
      employer: 'company.name',
      gift_id: 'transaction_id',
    });
    expect(
      proposed(
        'Donation Date,Donation Amount (USD),Donor Name,Donor Email,Matching Gift Company,Address Line 1,City',
      ),
    ).toEqual({
      donation_date: 'donated_at',
      donation_amount_usd: 'amount',
      donor_name: 'donor.name',
      donor_email: 'donor.email',
      matching_gift_company: 'company.name',
      address_line_1: 'address.street',
      city: 'city',
    });
    expect(proposed('donation-date,  DONATION amount ,E-Mail,Employer/Company,Account ID')).toEqual({
      donation_date: 'donated_at',
      donation_amount: 'amount',
      e_mail: 'donor.email',
      employer_company: 'company.name',
      account_id: 'custom.account_id',
    });
    expect(proposed('Gift Date (MM/DD/YYYY),Gross Amount,Donor Full Name,Email 1,Workplace')).toEqual({
      gift_date_mm_dd_yyyy: 'donated_at',
      gross_amount: 'amount',
      donor_full_name: 'donor.name',
      email_1: 'donor.email',
      workplace: 'company.name',
    });
  });

  it('gives one column each target: a second email or amount column stays a custom field', () => {
    expect(proposed('Email,Secondary Email,Amount,Net Amount,Home Email')).toEqual({
      email: 'donor.email',
      secondary_email: 'custom.secondary_email',
      amount: 'amount',
      net_amount: 'custom.net_amount',
      home_email: 'custom.home_email',
    });
  });
});
