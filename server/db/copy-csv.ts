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
const copyIdleTimeoutMs = 60_000;

/** The rows to write, as the database runs them. */
export type CsvCopySource = {
  /** The whole selection as one query (PostgreSQL runs it once, under one snapshot). */
  whole: () => Promise<CompiledQuery>;
  /**
   * The same rows as the queries of consecutive batches, in order (PGlite: one connection serves
   * every request, so nothing may stay open between two of them). Pulled one at a time, as the
   * reader reads.
   */
  batches: () => AsyncIterable<CompiledQuery>;
};

/**
 * A query's rows as CSV, written by the database's own `COPY … (FORMAT csv)`: the cells are
 * quoted (a quote, comma, line feed or carriage return inside), quotes doubled, NULL written as
 * nothing, rows ended by a line feed, in UTF-8. The server passes bytes along and does no work
 * per row, and memory stays flat however many rows there are, as the reader's pace sets the
 * database's.
 *
 * - PostgreSQL: `COPY (whole) TO STDOUT` on a connection of the pool held for the stream's life
 *   (what psql's \copy does): one statement, one snapshot, streamed at COPY's speed.
 * - PGlite: each batch is one `COPY (batch) TO '/dev/blob'` (PGlite's COPY to memory), run when
 *   the reader asks for it; other requests' statements run in between (server/db/turns.ts).
 *
 * COPY takes no bind parameters, so the values are written into the text as literals
 * (inlineParams).
 */
export function streamCopyCsv(
  db: Db,
  source: CsvCopySource,
  options: { idleTimeoutMs?: number } = {},
): ReadableStream<Uint8Array> {
  const client = (db as unknown as { $client: unknown }).$client;
  let chunks: ChunkSource;
  if (client instanceof pg.Pool) chunks = copyChunks(client, source.whole);
  // PGlite itself, or the client that gives its statements turns (server/db/turns.ts): each batch
  // then waits its turn like any other request's statement.
  else if (client instanceof PGlite || isTurnTaking(client)) chunks = pgliteChunks(client, source.batches);
  else throw new Error('streamCopyCsv: the database is neither a node-postgres pool nor PGlite');
  const idleTimeoutMs = options.idleTimeoutMs ?? copyIdleTimeoutMs;
  let idle: ReturnType<typeof setTimeout> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        clearTimeout(idle);
        try {
          const chunk = await chunks.next();
          if (chunk === undefined) {
            await chunks.close();
            controller.close();
            return;
          }
          controller.enqueue(chunk);
        } catch (error) {
          await chunks.close(error instanceof Error ? error : new Error(String(error)));
          throw error;
        }
        // Nothing more is read until the reader asks; a reader that never asks again is let go.
        idle = setTimeout(() => {
          const error = new Error(`the reader took no data for ${idleTimeoutMs} ms`);
          controller.error(error);
          void chunks.close(error);
        }, idleTimeoutMs);
        idle.unref?.();
      },
      async cancel() {
        clearTimeout(idle);
        await chunks.close(new Error('the reader cancelled the stream'));
      },
    },
    // One chunk is read ahead at most, so the database waits for the reader.
    { highWaterMark: 1 },
  );
}

/**
 * Chunks of CSV, pulled one at a time: `next` gives undefined after the last; `close` (idempotent)
 * ends early with an error, or after the end.
 */
type ChunkSource = { next: () => Promise<Uint8Array | undefined>; close: (error?: Error) => Promise<void> };

const copyCsv = (query: CompiledQuery, to: string) =>
  `copy (${inlineParams(query.sql, query.params)}) to ${to} with (format csv)`;

function copyChunks(pool: pg.Pool, query: () => Promise<CompiledQuery>): ChunkSource {
  let started: Promise<{ connection: pg.PoolClient; copy: CopyToStreamQuery }> | undefined;
  let released = false;
  /** The COPY's error, kept from the moment it happens (it may come while nobody is reading). */
  let failure: Error | undefined;
  const start = async () => {
    const compiled = await query();
    const connection = await pool.connect();
    try {
      const copy = connection.query(copyTo(copyCsv(compiled, 'stdout')));
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
      if (failure) throw failure;
      const chunk = await readChunk(copy, () => failure);
      return chunk === undefined
        ? undefined
        : new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
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

/**
 * The next chunk a Node readable gives, or undefined at its end; rejects once `failed` gives an
 * error.
 */
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

function pgliteChunks(
  client: Pick<PGlite, 'query'>,
  batches: () => AsyncIterable<CompiledQuery>,
): ChunkSource {
  let iterator: AsyncIterator<CompiledQuery> | undefined;
  let closed = false;
  return {
    async next() {
      iterator ??= batches()[Symbol.asyncIterator]();
      for (;;) {
        if (closed) return undefined;
        const batch = await iterator.next();
        if (batch.done) return undefined;
        const result = await client.query(copyCsv(batch.value, "'/dev/blob'"));
        // An empty batch writes no blob (or an empty one): ask for the next.
        if (result.blob && result.blob.size > 0) return new Uint8Array(await result.blob.arrayBuffer());
      }
    },
    // Nothing is held between batches; the batches' own queries are let go.
    async close() {
      if (closed) return;
      closed = true;
      await iterator?.return?.();
    },
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
