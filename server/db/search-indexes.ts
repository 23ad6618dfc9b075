import { sql } from 'drizzle-orm';
import type { Queryable } from './client.ts';
import { arrayParam, queryRows } from './rows.ts';

/**
 * The contains filters' trigram indexes (GIN, migration 0022) take new rows into a pending list
 * (GIN's fast update): an insert appends to it cheaply, but every search reads the whole list,
 * row by row, until it is merged into the index proper. PostgreSQL merges it when it outgrows
 * gin_pending_list_limit (4 MB: inside some unlucky insert) or when vacuum runs (after about a
 * fifth of the table is new). One 4000-row import leaves some 2,000 pending entries per index;
 * after 13 such imports 'donor contains' took 60 ms at 1,000,000 matches instead of 35 ms, and
 * the next import's donor insert took longer too. So an import merges the lists of the tables it
 * grew right after it commits (server/jobs/after-commit.ts), off its own response time.
 */

/**
 * Merges the pending lists of every GIN index on `tables` into the index proper; returns the
 * pending pages merged (0 when there was nothing to merge). Only the owner of an index may merge
 * it: where the server connects as a role that does not own the tables (its migrations run by
 * another), the indexes are left to vacuum and nothing fails.
 */
export async function flushSearchIndexes(db: Queryable, tables: readonly string[]): Promise<number> {
  const [row] = await queryRows<{ pages: string | number | null }>(
    db,
    sql`select sum(gin_clean_pending_list(i.indexrelid)) as pages
        from pg_index i
        join pg_class c on c.oid = i.indexrelid
        join pg_am am on am.oid = c.relam
        where am.amname = 'gin'
          and pg_has_role(c.relowner, 'USAGE')
          and i.indrelid = any(array(select to_regclass(t) from unnest(${arrayParam(tables, 'text')}) t))`,
  );
  return Number(row?.pages ?? 0);
}
