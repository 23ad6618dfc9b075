import { PGlite } from '@electric-sql/pglite';
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing.ts';
import type { Database } from './client.ts';
import { type CompiledQuery, inlineParams, streamQueryLines, unescapeCopyText } from './query-lines.ts';
import { isTurnTaking } from './turns.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** COPY's text-format escaping of one value (PostgreSQL's CopyAttributeOutText), to test the undoing. */
function copyEscape(text: string): string {
  const codes: Record<string, string> = { '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't', '\v': 'v' };
  return text.replace(/[\\\b\f\n\r\t\v]/g, (c) => `\\${codes[c] ?? c}`);
}

const hostile = [
  'plain',
  'back\\slash',
  '\\',
  '\\\\n is not a line feed',
  'two\nlines',
  'carriage\rreturn\r\n',
  '\tTabbed',
  'bell\b form\f vertical\v',
  '"quoted", with commas',
  "O'Brien",
  'Ünïcödé — 寄付 🎁',
  'ends with a backslash\\',
  '',
];

describe('unescapeCopyText', () => {
  it('gives back every value COPY escaped, wherever the chunks split (inside an escape too), and passes a chunk without escapes through as it is', () => {
    const expected = hostile.map((text) => `${text}\n`).join('');
    const copied = encoder.encode(hostile.map((text) => `${copyEscape(text)}\n`).join(''));
    for (let split = 0; split <= copied.byteLength; split++) {
      const decode = unescapeCopyText();
      const parts = [decode(copied.subarray(0, split)), decode(copied.subarray(split))];
      expect(decoder.decode(Buffer.concat(parts))).toBe(expected);
    }
    // Every byte alone: a backslash is carried over to the next chunk.
    const decode = unescapeCopyText();
    const bytes = [...copied].map((byte) => decode(Uint8Array.of(byte)));
    expect(decoder.decode(Buffer.concat(bytes))).toBe(expected);
    const clean = encoder.encode('1,plain,2025-01-01\n');
    expect(unescapeCopyText()(clean)).toBe(clean);
  });
});

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

describe('streamQueryLines', () => {
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

  const compile =
    (query: SQL): (() => Promise<CompiledQuery>) =>
    async () =>
      new PgDialect().sqlToQuery(query);
  const text = (stream: ReadableStream<Uint8Array>) => new Response(stream).text();

  it('streams the values of a one-column query, each with a line feed, byte for byte, hostile text and bound values included', async () => {
    const values = hostile.map((value, i) => sql`select ${i}::int as n, ${value}::text as line`);
    const query = sql`select line from (${sql.join(values, sql` union all `)}) v where n >= ${0}::int order by n`;
    const got = await text(streamQueryLines(database.db, compile(query), { fetchRows: 4 }));
    expect(got).toBe(hostile.map((value) => `${value}\n`).join(''));
  });

  it('reads many rows in order across fetch boundaries, the filter applied, nothing repeated or skipped', async () => {
    const query = sql`select g || ',' || (g % 7) from generate_series(1, 25000) g where g % 3 <> ${0} order by g % 7, g desc`;
    const got = (await text(streamQueryLines(database.db, compile(query), { fetchRows: 999 })))
      .split('\n')
      .slice(0, -1);
    const expected = Array.from({ length: 25000 }, (_, i) => i + 1)
      .filter((g) => g % 3 !== 0)
      .sort((a, b) => (a % 7) - (b % 7) || b - a)
      .map((g) => `${g},${g % 7}`);
    expect(got).toEqual(expected);
  });

  it('gives back what it holds (the pooled connection, or the cursor) when the reader cancels, and the database is usable after', async () => {
    const query = sql`select repeat('x', 1000) || g from generate_series(1, 200000) g`;
    const reader = streamQueryLines(database.db, compile(query), { fetchRows: 100 }).getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    await reader.cancel();
    const client = (database.db as unknown as { $client: unknown }).$client;
    if (client instanceof pg.Pool) {
      // The connection that ran the COPY is closed, not put back mid-COPY.
      await vi.waitFor(() => expect(client.totalCount - client.idleCount).toBe(0));
    } else {
      // PGlite, behind the turns the server gives its statements (server/db/turns.ts).
      if (!(client instanceof PGlite) && !isTurnTaking(client)) throw new Error('an unknown database client');
      const open = await client.query<{ n: number }>(
        "select count(*)::int as n from pg_cursors where name like 'twofold_lines_%'",
      );
      expect(open.rows[0]?.n).toBe(0);
    }
    const after = await database.db.execute(sql`select 1 as one`);
    expect((after as unknown as { rows: unknown[] }).rows).toEqual([{ one: 1 }]);
  });

  it('ends with an error and lets go when the reader takes nothing for the idle time', async () => {
    const query = sql`select repeat('y', 1000) || g from generate_series(1, 200000) g`;
    const stream = streamQueryLines(database.db, compile(query), { fetchRows: 100, idleTimeoutMs: 50 });
    const reader = stream.getReader();
    await reader.read();
    // The reader stops asking; the stream gives up after the idle time and says so on the next read.
    await vi.waitFor(async () => {
      const client = (database.db as unknown as { $client: unknown }).$client;
      if (client instanceof pg.Pool) expect(client.totalCount - client.idleCount).toBe(0);
      else {
        // PGlite, behind the turns the server gives its statements (server/db/turns.ts).
        if (!(client instanceof PGlite) && !isTurnTaking(client))
          throw new Error('an unknown database client');
        const open = await client.query<{ n: number }>(
          "select count(*)::int as n from pg_cursors where name like 'twofold_lines_%'",
        );
        expect(open.rows[0]?.n).toBe(0);
      }
    });
    await expect(reader.read()).rejects.toThrow(/took no data/);
  });

  it('reports a failing query as an error of the stream', async () => {
    const query = sql`select (1 / (g - 3))::text from generate_series(1, 5) g`;
    await expect(text(streamQueryLines(database.db, compile(query)))).rejects.toThrow(/division by zero/);
  });
});
