import type { SQL } from 'drizzle-orm';
import type { Queryable } from './client.ts';

/**
 * Runs raw SQL (recursive queries drizzle's builder cannot express) and returns its rows. Both
 * drivers answer with `{ rows }`.
 */
export async function queryRows<T>(db: Queryable, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
