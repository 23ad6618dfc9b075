import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { ImportMap } from '../../../src/contract/donation-import.ts';
import { orgKey } from '../../db/rows.ts';
import { type ImportRowValues, type ImportTable, readRow } from './import-parse.ts';
import { readUploadedTableOffThread } from './table-reader.ts';

/**
 * A file read for the import: its table and each row's values under one map. The import dialog
 * always Tests a file before it Uploads it (spec: "…/import-file/Test", then "…/Upload" with the
 * map the Test proposed, perhaps edited), so the Upload would read the same bytes a second time:
 * for 4000 rows that is some 40–70 ms of the Upload's answer (the CSV parser, then every cell).
 * A read is therefore kept for a short while, keyed by the organization, the file's name (it
 * says how to read the bytes) and the SHA-256 of its bytes, and reused only for the same bytes;
 * a changed file, or a different map, is read again. Reading is a pure function of those, so a
 * kept read is exactly what a new one would give. Nothing of the database is kept: the Upload
 * looks up duplicates, companies, organizations and donors again in its own transaction.
 *
 * Kept reads are shared between calls: nothing may change them (the import copies what it adds).
 */
export type KeptReadLimits = {
  /** How many files are kept at most (the least recently used goes first). */
  files: number;
  /** Their total size in bytes at most: a larger file is not kept (it is read again). */
  bytes: number;
  /** How long a read is kept after it was last used. */
  ttlMs: number;
};

export const keptReadLimits: KeptReadLimits = { files: 8, bytes: 4 * 1024 * 1024, ttlMs: 10 * 60_000 };

export type ReadRow = ImportRowValues | { line: number; reason: string };
export type ImportFileRead = { table: ImportTable; map: ImportMap; rows: readonly ReadRow[] };
export type ImportFileReader = (
  orgId: number,
  name: string,
  bytes: Uint8Array,
  mapOf: (headers: string[]) => ImportMap,
) => Promise<ImportFileRead>;

/** How a file's table is read (table-reader.ts: in a worker thread, with the upload limits). */
export type TableOf = (name: string, bytes: Uint8Array) => Promise<ImportTable>;

type Kept = { size: number; table: ImportTable; mapKey: string; rows: readonly ReadRow[] };

/** The map as a text that does not depend on the order of its keys. */
const mapKeyOf = (map: ImportMap) =>
  JSON.stringify(Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/**
 * A reader keeping its reads within `limits` (least recently used first out; `clock` for tests):
 * it gives the file's table, the map `mapOf` makes for its headers (it may throw: a bad map is
 * refused whether or not the file was kept), and every row read under that map.
 */
export function importFileReader(
  limits: KeptReadLimits,
  clock?: { now: () => number },
  tableOf: TableOf = readUploadedTableOffThread,
): { read: ImportFileReader; forget: () => void } {
  const kept = new LRUCache<string, Kept>({
    max: limits.files,
    maxSize: limits.bytes,
    sizeCalculation: (entry) => Math.max(1, entry.size),
    ttl: limits.ttlMs,
    updateAgeOnGet: true,
    // The clock is read at each check (not cached for a millisecond), so a test's clock is exact.
    ttlResolution: 0,
    ...(clock ? { perf: clock } : {}),
  });
  const read: ImportFileReader = async (orgId, name, bytes, mapOf) => {
    const key = orgKey(orgId, `${name}\u0000${createHash('sha256').update(bytes).digest('base64')}`);
    const found = kept.get(key);
    const table = found?.table ?? (await tableOf(name, bytes));
    const map = mapOf(table.headers);
    const mapKey = mapKeyOf(map);
    const rows = found?.mapKey === mapKey ? found.rows : table.rows.map((row) => readRow(row, map));
    // A file over the size limit is not kept (the cache refuses it).
    kept.set(key, { size: bytes.byteLength, table, mapKey, rows });
    return { table, map, rows };
  };
  return { read, forget: () => kept.clear() };
}

const reader = importFileReader(keptReadLimits);

/** The server's reader (import.ts). */
export const readImportFile: ImportFileReader = reader.read;

/** Forgets every kept read (the import benchmark's Uploads without a Test). */
export const forgetImportFiles = reader.forget;
