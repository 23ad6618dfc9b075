import type { Readable } from 'node:stream';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { type CopyToStreamQuery, to as copyTo } from 'pg-copy-streams';
import type { Db } from './client.ts';
import { isTurnTaking } from './turns.ts';

/** A compiled query, as drizzle's `toSQL()` gives it ($1, $2… in the text, their values in order). */
export type CompiledQuery = { sql: string; params: unknown[] };

/**
 * How long the stream waits for its reader to ask for more before giving up: a download whose
 * client stops reading ends (with an error) and gives its database connection back.
 */
export const queryLinesIdleTimeoutMs = 60_000;

/** Rows per FETCH on PGlite (one string of about 2 MB for a CSV export). */
export const pgliteFetchRows = 10_000;

const encoder = new TextEncoder();
let cursorCount = 0;

/**
 * A query of ONE text column, streamed as its values, each followed by a line feed, in UTF-8:
 * the database runs the query once (one scan, one sort, one pass over the joins) and memory
 * stays flat however many rows there are, as the reader's pace sets the database's.
 *
 * - PostgreSQL: `COPY (query) TO STDOUT` on a connection of the pool held for the stream's life
 *   (what psql's \copy does), so the rows arrive as the bytes COPY writes, at COPY's speed, with
 *   no per-row work in JavaScript. COPY's text format ends each row with a line feed and escapes
 *   only backslashes and control characters (unescapeCopyText undoes exactly that). COPY takes no
 *   bind parameters, so the values are written into the text as literals (inlineParams).
 * - PGlite (one connection serves every request, so no transaction may stay open between
 *   batches): a WITH HOLD cursor, which the database fills when it is declared and keeps in its
 *   own temporary files beyond work_mem; each pull is one FETCH of `pgliteFetchRows` rows, with
 *   other requests free to run in between.
 *
 * The value of a row must not be NULL (COPY would write `\N`).
 */
export function streamQueryLines(
  db: Db,
  query: () => Promise<CompiledQuery>,
  options: { fetchRows?: number; idleTimeoutMs?: number } = {},
): ReadableStream<Uint8Array> {
  const client = (db as unknown as { $client: unknown }).$client;
  let source: LineSource;
  if (client instanceof pg.Pool) source = copyLines(client, query);
  // PGlite itself, or the client that gives its statements turns (server/db/turns.ts): each FETCH
  // then waits its turn like any other request's statement.
  else if (client instanceof PGlite || isTurnTaking(client))
    source = pgliteLines(client, query, options.fetchRows ?? pgliteFetchRows);
  else throw new Error('streamQueryLines: the database is neither a node-postgres pool nor PGlite');
  const idleTimeoutMs = options.idleTimeoutMs ?? queryLinesIdleTimeoutMs;
  let idle: ReturnType<typeof setTimeout> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        clearTimeout(idle);
        try {
          const chunk = await source.next();
          if (chunk === undefined) {
            await source.close();
            controller.close();
            return;
          }
          controller.enqueue(chunk);
        } catch (error) {
          await source.close(error instanceof Error ? error : new Error(String(error)));
          throw error;
        }
        // Nothing more is read until the reader asks; a reader that never asks again is let go.
        idle = setTimeout(() => {
          const error = new Error(`the reader took no data for ${idleTimeoutMs} ms`);
          controller.error(error);
          void source.close(error);
        }, idleTimeoutMs);
        idle.unref?.();
      },
      async cancel() {
        clearTimeout(idle);
        await source.close(new Error('the reader cancelled the stream'));
      },
    },
    // One chunk is read ahead at most, so the database waits for the reader.
    { highWaterMark: 1 },
  );
}

/** Chunks of lines, pulled one at a time: `next` gives undefined after the last; `close` (idempotent) ends early with an error, or after the end. */
type LineSource = { next: () => Promise<Uint8Array | undefined>; close: (error?: Error) => Promise<void> };

function copyLines(pool: pg.Pool, query: () => Promise<CompiledQuery>): LineSource {
  let started: Promise<{ connection: pg.PoolClient; copy: CopyToStreamQuery }> | undefined;
  let released = false;
  /** The COPY's error, kept from the moment it happens (it may come while nobody is reading). */
  let failure: Error | undefined;
  const decode = unescapeCopyText();
  const start = async () => {
    const compiled = await query();
    const connection = await pool.connect();
    try {
      const copy = connection.query(
        copyTo(`copy (${inlineParams(compiled.sql, compiled.params)}) to stdout`),
      );
      copy.on('error', (error: Error) => {
        failure ??= error;
      });
      return { connection, copy };
    } catch (error) {
      released = true;
      connection.release(error instanceof Error ? error : new Error(String(error)));
      throw error;
    }
  };
  return {
    async next() {
      started ??= start();
      const { copy } = await started;
      for (;;) {
        if (failure) throw failure;
        const chunk = await readChunk(copy, () => failure);
        if (chunk === undefined) return undefined;
        const lines = decode(chunk);
        if (lines.byteLength > 0) return lines;
      }
    },
    async close(error) {
      if (!started || released) return;
      const { connection } = await started.catch(() => ({ connection: undefined }));
      if (!connection || released) return;
      released = true;
      // Ended early, the COPY may still be sending: the connection is closed (release with an
      // error), which stops it; the COPY's own "connection terminated" is expected then.
      failure ??= error;
      connection.release(error);
    },
  };
}

/** The next chunk a Node readable gives, or undefined at its end; rejects once `failed` gives an error. */
function readChunk(stream: Readable, failed: () => Error | undefined): Promise<Buffer | undefined> {
  const chunk = stream.read() as Buffer | null;
  if (chunk !== null) return Promise.resolve(chunk);
  if (stream.readableEnded) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      stream.off('readable', onReadable);
      stream.off('end', onEnd);
      stream.off('error', onError);
    };
    const onReadable = () => {
      const next = stream.read() as Buffer | null;
      if (next === null) return;
      cleanup();
      resolve(next);
    };
    const onEnd = () => {
      cleanup();
      resolve(undefined);
    };
    const onError = () => {
      cleanup();
      reject(failed());
    };
    stream.on('readable', onReadable);
    stream.on('end', onEnd);
    stream.on('error', onError);
  });
}

function pgliteLines(
  client: Pick<PGlite, 'query'>,
  query: () => Promise<CompiledQuery>,
  fetchRows: number,
): LineSource {
  const name = `twofold_lines_${++cursorCount}`;
  let declared: Promise<void> | undefined;
  let done = false;
  let closed = false;
  const declare = async () => {
    const compiled = await query();
    await client.query(`declare ${name} no scroll cursor with hold for ${compiled.sql}`, compiled.params);
  };
  return {
    async next() {
      if (done) return undefined;
      declared ??= declare();
      await declared;
      const { rows } = await client.query<[string]>(`fetch forward ${fetchRows} from ${name}`, [], {
        rowMode: 'array',
      });
      if (rows.length < fetchRows) done = true;
      if (rows.length === 0) return undefined;
      return encoder.encode(`${rows.map((r) => r[0]).join('\n')}\n`);
    },
    // The cursor and the rows it holds are dropped (early, if the reader went away).
    async close() {
      if (!declared || closed) return;
      closed = true;
      await declared.catch(() => {});
      await client.query(`close ${name}`).catch(() => {});
    },
  };
}

/**
 * Undoes COPY's text-format escaping of one column (PostgreSQL's CopyAttributeOutText): a
 * backslash before b f n r t v stands for that control character, before anything else (a
 * backslash) for itself. Rows end with a bare line feed, which is kept. Chunks may split an
 * escape: the returned function carries a trailing backslash over to the next chunk. A chunk with
 * no backslash is returned as it is.
 */
export function unescapeCopyText(): (chunk: Uint8Array) => Uint8Array {
  let carried = false;
  const controls: Record<number, number> = { 98: 8, 102: 12, 110: 10, 114: 13, 116: 9, 118: 11 };
  const backslash = 92;
  return (chunk) => {
    let next = chunk.indexOf(backslash);
    if (!carried && next === -1) return chunk;
    const out = new Uint8Array(chunk.byteLength);
    let written = 0;
    let from = 0;
    if (carried && chunk.byteLength > 0) {
      const escaped = chunk[0] as number;
      out[written++] = controls[escaped] ?? escaped;
      from = 1;
      carried = false;
      next = chunk.indexOf(backslash, from);
    }
    while (next !== -1) {
      out.set(chunk.subarray(from, next), written);
      written += next - from;
      if (next === chunk.byteLength - 1) {
        carried = true;
        return out.subarray(0, written);
      }
      const escaped = chunk[next + 1] as number;
      out[written++] = controls[escaped] ?? escaped;
      from = next + 2;
      next = chunk.indexOf(backslash, from);
    }
    out.set(chunk.subarray(from), written);
    written += chunk.byteLength - from;
    return out.subarray(0, written);
  };
}

/**
 * The query's $n placeholders replaced by its values as quoted literals, for statements that take
 * no bind parameters (COPY). Each value is written as node-postgres would send it (text, its type
 * inferred by the database from where it stands, as for a bound parameter): a string as it is, a
 * number, bigint or boolean as its text, a Date as its ISO instant, null as NULL; anything else is
 * refused. Placeholders inside quoted literals or identifiers are left alone; escape-string
 * literals (E'…') and dollar quoting, which drizzle does not write, are refused rather than
 * guessed at.
 */
export function inlineParams(text: string, params: readonly unknown[]): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === "'" || c === '"') {
      if (c === "'" && /[Ee]$/.test(text.slice(Math.max(0, i - 1), i)) && !/[\w$]/.test(text[i - 2] ?? ' '))
        throw new Error('inlineParams: escape-string literals are not supported');
      let end = i + 1;
      for (;;) {
        end = text.indexOf(c, end);
        if (end === -1) throw new Error('inlineParams: an unterminated quote');
        if (text[end + 1] === c) end += 2;
        else break;
      }
      out += text.slice(i, end + 1);
      i = end + 1;
      continue;
    }
    if (c === '$' && !/[\w$]/.test(text[i - 1] ?? ' ')) {
      const digits = /^\d+/.exec(text.slice(i + 1))?.[0];
      if (digits === undefined) throw new Error('inlineParams: dollar quoting is not supported');
      const index = Number(digits) - 1;
      if (index < 0 || index >= params.length) throw new Error(`inlineParams: no value for $${digits}`);
      out += literal(params[index]);
      i += 1 + digits.length;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return pg.escapeLiteral(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`inlineParams: ${value} is not a finite number`);
    return pg.escapeLiteral(String(value));
  }
  if (typeof value === 'bigint' || typeof value === 'boolean') return pg.escapeLiteral(String(value));
  if (value instanceof Date) return pg.escapeLiteral(value.toISOString());
  throw new Error(`inlineParams: a ${typeof value} value cannot be written as a literal`);
}
