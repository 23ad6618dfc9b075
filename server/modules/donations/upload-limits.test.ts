import { randomBytes } from 'node:crypto';
import * as XLSX from '@e965/xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importMessages, tableLimits } from '../../../src/contract/donation-import.ts';
import { memoryLogger } from '../../http/logger.ts';
import { demoOrganizationIds, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';
import { tableReader, tableReaderOptions } from './table-reader.ts';
import { zipBombXlsx } from './zip-bomb.fixture.ts';

/**
 * Issue 29: an upload must not stall the server or keep its memory. The donation import's Test
 * and the payout preview read uploaded tables; these send what an attacker would (a real zip
 * bomb, honest and lying about its size, a million lines, too many columns) and check the
 * answer, the time a cheap request took meanwhile, and the process's memory after.
 */

let t: TestContext;
let token = '';
let orgId = 0;

beforeAll(async () => {
  t = await createTestContext({ config: { logRequests: false } });
  orgId = (await demoOrganizationIds(t.db)).northShore;
  token = await signIn(t.app, 'writer@twofold.test');
});
afterAll(() => t.close());

async function post(path: string, field: string, name: string, bytes: Uint8Array | string) {
  const form = new FormData();
  form.set(field, new File([bytes as BlobPart], name));
  const response = await t.app.request(`/api/organization/${orgId}/${path}`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: response.status, json: (await response.json()) as { message?: string } };
}
const importTest = (name: string, bytes: Uint8Array | string) =>
  post('donation/import-file/Test', 'donations', name, bytes);
const payoutPreview = (name: string, bytes: Uint8Array | string) =>
  post('payouts/preview', 'report', name, bytes);

/** Runs `work` while a cheap request is sent again and again; the slowest cheap request's time. */
async function whileOthersAsk<T>(work: () => Promise<T>): Promise<{ result: T; slowestMs: number }> {
  let done = false;
  let slowestMs = 0;
  let answered = 0;
  const others = (async () => {
    while (!done) {
      const started = performance.now();
      const health = await t.app.request('/api/health');
      expect(health.status).toBe(200);
      slowestMs = Math.max(slowestMs, performance.now() - started);
      answered++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const result = await work();
  done = true;
  await others;
  expect(answered).toBeGreaterThan(0);
  return { result, slowestMs };
}

const mib = 1024 * 1024;
const gib = 1024 * mib;

function workbook(rows: unknown[][]): Uint8Array {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Gifts');
  return new Uint8Array(XLSX.write(book, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer);
}

describe('a zip bomb (an .xlsx of 2 MB whose sheet inflates to 2 GiB)', () => {
  it('with honest size headers: 413 naming the limit, others answered meanwhile, no memory kept', async () => {
    const bomb = zipBombXlsx({ inflatedBytes: 2 * gib, declared: 'honest' });
    expect(bomb.byteLength).toBeLessThan(3 * mib);
    const rssBefore = process.memoryUsage().rss;
    const { result, slowestMs } = await whileOthersAsk(() => importTest('gifts.xlsx', bomb));
    expect(result).toEqual({ status: 413, json: { message: importMessages.unpacksTooLarge } });
    expect(importMessages.unpacksTooLarge).toContain('100 MB');
    // Generous bounds: no timing goal, only "not stalled" and "not gigabytes".
    expect(slowestMs).toBeLessThan(2000);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(gib);
  });

  it('with lying size headers: refused once an entry inflates past what it declares', async () => {
    const bomb = zipBombXlsx({ inflatedBytes: 2 * gib, declared: 'lying' });
    const rssBefore = process.memoryUsage().rss;
    const { result, slowestMs } = await whileOthersAsk(() => importTest('gifts.xlsx', bomb));
    expect(result).toEqual({ status: 400, json: { message: importMessages.unpackedSizeMismatch } });
    expect(slowestMs).toBeLessThan(2000);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(gib);
  });

  it('is refused by the payout preview the same way', async () => {
    const honest = zipBombXlsx({ inflatedBytes: 2 * gib, declared: 'honest' });
    expect(await payoutPreview('benevity.xlsx', honest)).toEqual({
      status: 413,
      json: { message: importMessages.unpacksTooLarge },
    });
    const lying = zipBombXlsx({ inflatedBytes: 2 * gib, declared: 'lying' });
    expect(await payoutPreview('benevity.xlsx', lying)).toEqual({
      status: 400,
      json: { message: importMessages.unpackedSizeMismatch },
    });
  });

  it('under its limit, a workbook that unpacks to little is still read', async () => {
    // The same construction at 8 MiB inflated: a sheet of one column name and no rows.
    const small = zipBombXlsx({ inflatedBytes: 8 * mib, declared: 'honest' });
    expect(await importTest('gifts.xlsx', small)).toEqual({
      status: 400,
      json: { message: importMessages.noRows },
    });
  });
});

describe('the wrong content under a spreadsheet name', () => {
  it('a CSV named .xlsx, random bytes named .xlsx, and a broken zip named .xlsx are refused as such', async () => {
    const unsupported = { status: 400, json: { message: importMessages.unsupportedType } };
    expect(await importTest('gifts.xlsx', 'Name,Amount\nAda,5\n')).toEqual(unsupported);
    expect(await importTest('gifts.xlsx', new Uint8Array(randomBytes(64 * 1024)))).toEqual(unsupported);
    const brokenZip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...randomBytes(64 * 1024)]);
    expect(await importTest('gifts.xlsx', brokenZip)).toEqual({
      status: 400,
      json: { message: importMessages.unreadable },
    });
  });
});

describe('row and column caps', () => {
  it('a million-row CSV is refused naming the cap, and does not hold up other requests', async () => {
    const lines = `Name,Amount,Date\n${'a,1,2025-03-01\n'.repeat(1_000_000)}`;
    expect(lines.length).toBeLessThan(16 * mib);
    const { result, slowestMs } = await whileOthersAsk(() =>
      importTest('gifts.csv', lines.slice(0, 10 * mib)),
    );
    expect(result).toEqual({ status: 400, json: { message: importMessages.tooManySheetRows } });
    expect(importMessages.tooManySheetRows).toContain('100,000 rows');
    expect(slowestMs).toBeLessThan(2000);
    expect(await payoutPreview('report.csv', lines.slice(0, 10 * mib))).toEqual(result);
  });

  it('a sheet of more than 100,000 rows is refused naming the cap', async () => {
    const rows: unknown[][] = [['Name'], ...Array.from({ length: tableLimits.rows + 1 }, (_, i) => [i])];
    expect(await importTest('gifts.xlsx', workbook(rows))).toEqual({
      status: 400,
      json: { message: importMessages.tooManySheetRows },
    });
  });

  it('more than 1,000 columns, in a CSV or a workbook, is refused naming the cap', async () => {
    const header = Array.from({ length: tableLimits.columns + 1 }, (_, i) => `Column ${i}`);
    const row = header.map(() => '1');
    const tooMany = { status: 400, json: { message: importMessages.tooManyColumns } };
    expect(importMessages.tooManyColumns).toContain('1,000 columns');
    expect(await importTest('gifts.csv', `${header.join(',')}\n${row.join(',')}\n`)).toEqual(tooMany);
    expect(await importTest('gifts.xlsx', workbook([header, row]))).toEqual(tooMany);
    // A single gigantic line: millions of columns.
    expect(await importTest('gifts.csv', `${'x,'.repeat(4 * mib)}x\n1\n`)).toEqual(tooMany);
    expect(await payoutPreview('report.csv', `${header.join(',')}\n${row.join(',')}\n`)).toEqual(tooMany);
  });

  it('a sheet whose few cells span more than 2,000,000 cells is refused before its blanks are filled in', async () => {
    const sheet = XLSX.utils.aoa_to_sheet([['Name']]);
    XLSX.utils.sheet_add_aoa(sheet, [['far away']], { origin: { r: 2999, c: 999 } });
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, sheet, 'Gifts');
    const bytes = new Uint8Array(XLSX.write(book, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer);
    expect(await importTest('gifts.xlsx', bytes)).toEqual({
      status: 400,
      json: { message: importMessages.tooManyCells },
    });
  });
});

describe('the worker threads that read uploads', () => {
  const csv = `Name,Amount,Date\n${'Ada Lovelace,25.00,2025-03-01\n'.repeat(3000)}`;
  const bytes = new TextEncoder().encode(csv);

  it('a reading that needs more than the memory limit ends its worker alone: 413, and the next reading works', async () => {
    const logger = memoryLogger();
    const reader = tableReader({ ...tableReaderOptions, threads: 1, memoryMb: 64 }, logger);
    try {
      // 2000 rows of 900 distinct 16-character cells (30 MB, within every cap): their strings,
      // arrays and row objects cannot fit a 64 MB heap.
      const cell = (r: number, c: number) => `${r}`.padStart(8, 'r') + `${c}`.padStart(8, 'c');
      const huge = new TextEncoder().encode(
        Array.from({ length: 2000 }, (_, r) =>
          Array.from({ length: 900 }, (_, c) => cell(r, c)).join(','),
        ).join('\n'),
      );
      await expect(reader.read('gifts.csv', huge)).rejects.toMatchObject({
        status: 413,
        message: importMessages.tooDemanding,
      });
      const small = new TextEncoder().encode('Name,Amount\nAda,1\nBob,2\n');
      expect((await reader.read('gifts.csv', small)).rows).toHaveLength(2);
    } finally {
      await reader.close();
    }
  }, 60_000);

  it('many readings on one pool add no listeners: no MaxListenersExceeded warning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    const reader = tableReader({ ...tableReaderOptions, threads: 1 });
    try {
      const small = new TextEncoder().encode('Name,Amount\nAda,1\n');
      for (let i = 0; i < 15; i++) expect((await reader.read('gifts.csv', small)).rows).toHaveLength(1);
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((name) => name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      await reader.close();
    }
  }, 60_000);

  it('a reading that takes too long is stopped: 413', async () => {
    const reader = tableReader({ ...tableReaderOptions, timeoutMs: 1 });
    try {
      await expect(reader.read('gifts.csv', bytes)).rejects.toMatchObject({
        status: 413,
        message: importMessages.tooSlow,
      });
    } finally {
      await reader.close();
    }
  });

  it('past the queue, uploads are answered 429 rather than held', async () => {
    const reader = tableReader({ ...tableReaderOptions, threads: 1, queue: 1 });
    try {
      // A started worker (a cold pool counts the workers it is starting as room).
      await reader.read('gifts.csv', bytes);
      const answers = await Promise.allSettled(
        Array.from({ length: 6 }, () => reader.read('gifts.csv', bytes)),
      );
      const refused = answers.filter((a) => a.status === 'rejected');
      expect(answers.filter((a) => a.status === 'fulfilled').length).toBeGreaterThanOrEqual(2);
      expect(refused.length).toBeGreaterThan(0);
      for (const a of refused)
        expect((a as PromiseRejectedResult).reason).toMatchObject({
          status: 429,
          message: importMessages.busy,
        });
    } finally {
      await reader.close();
    }
  });
});
