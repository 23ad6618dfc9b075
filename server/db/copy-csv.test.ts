import { stringify } from 'csv-stringify/sync';
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing.ts';
import type { Database } from './client.ts';
import { type CompiledQuery, type CsvCopySource, inlineParams, streamCopyCsv } from './copy-csv.ts';

const hostile = [
  'plain',
  'back\\slash',
  '\\',
  '\\.',
  'two\nlines',
  'carriage\rreturn\r\n',
  '\tTabbed',
  'bell\b form\f vertical\v',
  '"quoted", with commas',
  "O'Brien",
  'Ünïcödé — 寄付 🎁',
  'ends with a backslash\\',
  ' spaced ',
];

describe('inlineParams', () => {
  it('writes each value as a quoted literal where its placeholder stands, $10 apart from $1', () => {
    const params = ['a', 2, 3, 4, 5, 6, 7, 8, 9, 'ten'];
    expect(inlineParams('select $1, $10 where x in ($2, $3)', params)).toBe(
      "select 'a', 'ten' where x in ('2', '3')",
    );
  });
  it('leaves placeholders inside quoted literals and identifiers alone', () => {
    expect(inlineParams(`select '$1 it''s', "col$1", "say ""$1""", $1`, ['v'])).toBe(
      `select '$1 it''s', "col$1", "say ""$1""", 'v'`,
    );
  });
  it('quotes quotes and backslashes safely, writes dates as ISO instants and null as NULL', () => {
    expect(inlineParams('select $1, $2, $3, $4', ["it's \\' ; drop table x; --", null, true, 12.5])).toBe(
      String.raw`select  E'it''s \\'' ; drop table x; --', null, 'true', '12.5'`,
    );
    expect(inlineParams('select $1', [new Date('2025-03-01T12:34:56.789Z')])).toBe(
      "select '2025-03-01T12:34:56.789Z'",
    );
  });
  it('refuses what it cannot write for sure: objects, missing values, E-strings and dollar quoting', () => {
    expect(() => inlineParams('select $1', [{ a: 1 }])).toThrow(/cannot be written/);
    expect(() => inlineParams('select $2', ['a'])).toThrow(/no value for \$2/);
    expect(() => inlineParams("select E'\\n', $1", ['a'])).toThrow(/escape-string/);
    expect(() => inlineParams('select $$x$$', [])).toThrow(/dollar quoting/);
    expect(() => inlineParams('select $1', [Number.NaN])).toThrow(/finite/);
  });
});

describe('streamCopyCsv', () => {
  let testDatabase: TestDatabase;
  let database: Database;
  beforeAll(async () => {
    testDatabase = await createTestDatabase({ empty: true });
    database = await testDatabase.open();
  });
  afterAll(async () => {
    await database.close();
    await testDatabase.drop();
  });

  const compile = (query: SQL): CompiledQuery => new PgDialect().sqlToQuery(query);
  const text = (stream: ReadableStream<Uint8Array>) => new Response(stream).text();
  /** generate_series(1, rows) as (g, text), whole or in batches of `per` (g ranges), in order of g. */
  const series = (rows: number, per: number, cells: SQL = sql`g, 'row ' || g`): CsvCopySource => ({
    whole: async () => compile(sql`select ${cells} from generate_series(1, ${rows}::int) g order by g`),
    batches: async function* () {
      for (let first = 1; first <= rows; first += per)
        yield compile(
          sql`select ${cells} from generate_series(${first}::int, ${Math.min(rows, first + per - 1)}::int) g order by g`,
        );
    },
  });

  /** The source, and whether its batches were let go (their generator finished or was ended). */
  const watched = (source: CsvCopySource) => {
    let ended = false;
    const batches = source.batches;
    return {
      source: {
        ...source,
        batches: async function* () {
          try {
            yield* batches();
          } finally {
            ended = true;
          }
        },
      },
      batchesEnded: () => ended,
    };
  };

  it('writes the rows as csv-stringify does, byte for byte, hostile text, NULL and bound values included', async () => {
    const values = hostile.map((value, i) => sql`select ${i}::int as n, ${value}::text as cell`);
    const rows = sql`(${sql.join(values, sql` union all `)}) v`;
    const query = (from: number, to: number) =>
      compile(
        sql`select n, cell, null::text from ${rows} where n >= ${from}::int and n < ${to}::int order by n`,
      );
    const source: CsvCopySource = {
      whole: async () => query(0, hostile.length),
      batches: async function* () {
        for (let first = 0; first < hostile.length; first += 4) yield query(first, first + 4);
      },
    };
    const got = await text(streamCopyCsv(database.db, source));
    expect(got).toBe(stringify(hostile.map((value, i) => [i, value, null])));
  });

  it('reads many rows in order, nothing repeated or skipped, and passes over an empty batch', async () => {
    const source = series(25000, 999);
    const batches = source.batches;
    // An empty batch in the middle writes nothing.
    source.batches = async function* () {
      let i = 0;
      for await (const batch of batches()) {
        if (i++ === 3) yield compile(sql`select 1, 'none' where false`);
        yield batch;
      }
    };
    const got = await text(streamCopyCsv(database.db, source));
    expect(got).toBe(stringify(Array.from({ length: 25000 }, (_, i) => [i + 1, `row ${i + 1}`])));
  });

  it('gives back what it holds (the pooled connection, or its batches) when the reader cancels, and the database is usable after', async () => {
    const { source, batchesEnded } = watched(series(200000, 100, sql`g, repeat('x', 1000)`));
    const reader = streamCopyCsv(database.db, source).getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    await reader.cancel();
    const client = (database.db as unknown as { $client: unknown }).$client;
    // PostgreSQL: the connection that ran the COPY is closed, not put back mid-COPY. PGlite:
    // the batches are let go (no further COPY runs).
    if (client instanceof pg.Pool)
      await vi.waitFor(() => expect(client.totalCount - client.idleCount).toBe(0));
    else expect(batchesEnded()).toBe(true);
    const after = await database.db.execute(sql`select 1 as one`);
    expect((after as unknown as { rows: unknown[] }).rows).toEqual([{ one: 1 }]);
  });

  it('ends with an error and lets go when the reader takes nothing for the idle time', async () => {
    const { source, batchesEnded } = watched(series(200000, 100, sql`g, repeat('y', 1000)`));
    const reader = streamCopyCsv(database.db, source, { idleTimeoutMs: 50 }).getReader();
    await reader.read();
    // The reader stops asking; the stream gives up after the idle time and says so on the next read.
    const client = (database.db as unknown as { $client: unknown }).$client;
    await vi.waitFor(() => {
      if (client instanceof pg.Pool) expect(client.totalCount - client.idleCount).toBe(0);
      else expect(batchesEnded()).toBe(true);
    });
    await expect(reader.read()).rejects.toThrow(/took no data/);
  });

  it('reports a failing query as an error of the stream', async () => {
    await expect(text(streamCopyCsv(database.db, series(5, 2, sql`(1 / (g - 3))`)))).rejects.toThrow(
      /division by zero/,
    );
  });
});
