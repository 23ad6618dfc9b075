import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { importMessages, tableLimits } from '../../../src/contract/donation-import.ts';
import { HttpError } from '../../http/errors.ts';
import { consoleLogger, type Logger } from '../../http/logger.ts';
import type { ImportTable, RowLimit } from './import-parse.ts';
import type { TableAnswer, TableTask } from './table-worker.ts';

/**
 * Uploaded tables (donation files, payout reports) are read in worker threads, never on the
 * event loop: reading a 4000-row workbook takes tens of milliseconds and a hostile one far
 * longer, and every other request would wait. Each worker has a heap limit, so a file that
 * needs more memory kills its worker alone (the pool starts another) and is answered 413; a
 * reading that takes too long is stopped the same way. Two workers at most (the server's cores),
 * and a short queue: past it, uploads are answered 429 rather than held in memory.
 */
export type TableReaderOptions = {
  threads: number;
  queue: number;
  memoryMb: number;
  timeoutMs: number;
};

export const tableReaderOptions: TableReaderOptions = {
  threads: 2,
  queue: 8,
  memoryMb: tableLimits.memoryMb,
  timeoutMs: tableLimits.seconds * 1000,
};

// The server runs its TypeScript through tsx; a worker thread loads it the same way, also
// under vitest (whose own transform does not reach worker threads).
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

export type TableReader = {
  read: (name: string, bytes: Uint8Array, limit?: RowLimit) => Promise<ImportTable>;
  close: () => Promise<void>;
};

export function tableReader(options: TableReaderOptions, logger: Logger = consoleLogger): TableReader {
  let pool: Piscina<TableTask, TableAnswer> | undefined;
  // Started at the first upload: most processes (the tests, the CLI tools) never read one.
  const started = () => {
    if (pool) return pool;
    pool = new Piscina<TableTask, TableAnswer>({
      filename: new URL('./table-worker.ts', import.meta.url).href,
      name: 'readTableTask',
      execArgv: ['--import', tsxLoader],
      // One worker stays ready once uploads have begun (its start costs the first reading
      // hundreds of milliseconds); a second one comes and goes with the load.
      minThreads: 1,
      maxThreads: options.threads,
      idleTimeout: 60_000,
      resourceLimits: {
        maxOldGenerationSizeMb: options.memoryMb,
        maxYoungGenerationSizeMb: Math.min(64, Math.max(8, Math.floor(options.memoryMb / 8))),
      },
    });
    // A worker that dies with no reading in hand (the pool starts another) is reported here;
    // unheard, the pool's 'error' event would end the process. Once per pool: adding it on every
    // upload grew its listeners without end (Node's MaxListenersExceeded warning at the 11th).
    pool.on('error', (error: unknown) => logger.error('upload reader: a worker thread failed', error));
    return pool;
  };
  // Readings running or waiting; counted here rather than by the pool's queue, which also
  // counts the room of workers still starting.
  let admitted = 0;
  const read: TableReader['read'] = async (name, bytes, limit) => {
    if (admitted >= options.threads + options.queue)
      throw new HttpError(429, importMessages.busy, { 'Retry-After': '60' });
    admitted++;
    let answer: TableAnswer;
    try {
      answer = await started().run(
        { name, bytes, ...(limit ? { limit } : {}) },
        { signal: AbortSignal.timeout(options.timeoutMs) },
      );
    } catch (error) {
      throw refusal(error);
    } finally {
      admitted--;
    }
    if ('refused' in answer) throw new HttpError(answer.refused.status as 400 | 413, answer.refused.message);
    return answer.table;
  };
  const close = async () => {
    const running = pool;
    pool = undefined;
    await running?.destroy();
  };
  return { read, close };
}

/** What a failed reading is answered with: a file that is too much to read is a 413. */
function refusal(error: unknown): Error {
  const { code, name } = (error ?? {}) as { code?: string; name?: string };
  if (code === 'ERR_WORKER_OUT_OF_MEMORY') return new HttpError(413, importMessages.tooDemanding);
  if (name === 'AbortError') return new HttpError(413, importMessages.tooSlow);
  return error instanceof Error ? error : new Error(String(error));
}

const reader = tableReader(tableReaderOptions);

/** The server's reader (the import and the payout report). */
export const readUploadedTableOffThread = reader.read;

/** Stops the workers (shutdown). */
export const closeTableReader = reader.close;
