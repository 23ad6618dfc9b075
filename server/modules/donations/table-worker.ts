import { HttpError } from '../../http/errors.ts';
import { type ImportTable, type RowLimit, readUploadedTable } from './import-parse.ts';

/**
 * The worker thread's task (table-reader.ts runs it by name): one uploaded file read to its table. A
 * refusal comes back as a value, since an error crossing threads loses its status.
 */
export type TableTask = { name: string; bytes: Uint8Array; limit?: RowLimit };
export type TableAnswer = { table: ImportTable } | { refused: { status: number; message: string } };

export async function readTableTask({ name, bytes, limit }: TableTask): Promise<TableAnswer> {
  try {
    return { table: await readUploadedTable(name, bytes, limit) };
  } catch (error) {
    if (error instanceof HttpError) return { refused: { status: error.status, message: error.message } };
    throw error;
  }
}
