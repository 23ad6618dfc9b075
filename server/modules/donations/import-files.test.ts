import { beforeEach, describe, expect, it } from 'vitest';
import type { ImportMap } from '../../../src/contract/donation-import.ts';
import { HttpError } from '../../http/errors.ts';
import {
  type ImportFileReader,
  importFileReader,
  type KeptReadLimits,
  keptReadLimits,
} from './import-files.ts';
import { readUploadedTable } from './import-parse.ts';

const encode = (text: string) => new TextEncoder().encode(text);
const file = (rows: number, amount = '$50.00') =>
  encode(
    [
      'Donor Name,Donor Email,Gift Amount,Donation Date,Employer',
      ...Array.from({ length: rows }, (_, i) => `Donor ${i},d${i}@example.org,${amount},2025-03-01,Acme`),
    ].join('\n'),
  );
const map: ImportMap = {
  donor_name: 'donor.name',
  donor_email: 'donor.email',
  gift_amount: 'amount',
  donation_date: 'donated_at',
  employer: 'company.name',
};
const mapOf = () => map;

/** A reader with these limits (the server's by default) on a clock the test moves. */
let clock = { ms: 0 };
let readImportFile: ImportFileReader;
const reader = (limits: Partial<KeptReadLimits> = {}) => {
  clock = { ms: 0 };
  readImportFile = importFileReader(
    { ...keptReadLimits, ...limits },
    { now: () => clock.ms },
    // The same reading in this thread: these tests are about what is kept, not where it is read.
    (name, bytes) => readUploadedTable(name, bytes),
  ).read;
};
beforeEach(() => reader());

describe('readImportFile (a Test read kept for its Upload)', () => {
  it('reuses the read of the same bytes under the same map, whatever the order of the map’s keys', async () => {
    const first = await readImportFile(1, 'gifts.csv', file(3), mapOf);
    expect(first.rows).toHaveLength(3);
    expect(first.rows[0]).toMatchObject({ line: 2, amountCents: 5000, donorEmail: 'd0@example.org' });
    const reordered = Object.fromEntries(Object.entries(map).reverse()) as ImportMap;
    clock.ms = 1000;
    const again = await readImportFile(1, 'gifts.csv', file(3), () => reordered);
    expect(again.table).toBe(first.table);
    expect(again.rows).toBe(first.rows);
    expect(again.map).toBe(reordered);
  });

  it('reads again a changed file of the same name, another map, another organization or another name', async () => {
    const first = await readImportFile(1, 'gifts.csv', file(3), mapOf);
    const changed = await readImportFile(1, 'gifts.csv', file(3, '$75.00'), mapOf);
    expect(changed.table).not.toBe(first.table);
    expect(changed.rows[0]).toMatchObject({ amountCents: 7500 });
    const otherMap = await readImportFile(1, 'gifts.csv', file(3), () => ({
      ...map,
      employer: 'custom.employer',
    }));
    // The table is the same file's; the rows are read under the new map.
    expect(otherMap.table).toBe(first.table);
    expect(otherMap.rows).not.toBe(first.rows);
    expect(otherMap.rows[0]).toMatchObject({ companyName: null, custom: { employer: 'Acme' } });
    expect((await readImportFile(2, 'gifts.csv', file(3), mapOf)).table).not.toBe(first.table);
    expect((await readImportFile(1, 'other.csv', file(3), mapOf)).table).not.toBe(first.table);
  });

  it('refuses a bad map for a kept file as for a new one', async () => {
    await readImportFile(1, 'gifts.csv', file(3), mapOf);
    await expect(
      readImportFile(1, 'gifts.csv', file(3), () => {
        throw new HttpError(400, 'bad map');
      }),
    ).rejects.toThrow('bad map');
  });

  it('forgets a read after its time, the least recently used beyond the count, and never keeps a large file', async () => {
    const first = await readImportFile(1, 'gifts.csv', file(3), mapOf);
    clock.ms = keptReadLimits.ttlMs;
    expect((await readImportFile(1, 'gifts.csv', file(3), mapOf)).table).toBe(first.table);
    // Last used at ttlMs: still there just before ttlMs * 2, gone after.
    clock.ms = keptReadLimits.ttlMs * 2 + 1;
    expect((await readImportFile(1, 'gifts.csv', file(3), mapOf)).table).not.toBe(first.table);

    reader({ files: 2 });
    const a = await readImportFile(1, 'a.csv', file(1), mapOf);
    const b = await readImportFile(1, 'b.csv', file(1), mapOf);
    await readImportFile(1, 'a.csv', file(1), mapOf); // a is now the most recent
    await readImportFile(1, 'c.csv', file(1), mapOf); // b goes
    expect((await readImportFile(1, 'a.csv', file(1), mapOf)).table).toBe(a.table);
    expect((await readImportFile(1, 'b.csv', file(1), mapOf)).table).not.toBe(b.table);

    reader({ bytes: file(3).byteLength - 1 });
    const large = await readImportFile(1, 'gifts.csv', file(3), mapOf);
    expect((await readImportFile(1, 'gifts.csv', file(3), mapOf)).table).not.toBe(large.table);
    // A smaller file still is.
    const small = await readImportFile(1, 'gifts.csv', file(1), mapOf);
    expect((await readImportFile(1, 'gifts.csv', file(1), mapOf)).table).toBe(small.table);
  });
});
