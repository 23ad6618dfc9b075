import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Queryable } from './client.ts';

/**
 * Runs raw SQL (recursive queries drizzle's builder cannot express) and returns its rows. Both
 * drivers answer with `{ rows }`.
 */
export async function queryRows<T>(db: Queryable, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** PostgreSQL types an array parameter is cast to (the element type of `type[]`). */
export type ArrayType = 'int' | 'text' | 'jsonb' | 'timestamptz' | 'boolean';

/**
 * One parameter holding a whole list, cast to `type[]`: `= any(…)` and `unnest(…)` read it.
 * Both drivers send a JS array as a PostgreSQL array (quoting and NULLs included), so a list of
 * any length is one parameter, not one per value.
 */
export function arrayParam(values: readonly unknown[], type: ArrayType): SQL {
  return sql`${sql.param(values)}::${sql.raw(type)}[]`;
}

/** `column = any(list)`: the set-based `in (…)` for long lists (one parameter). */
export function anyOf(column: PgColumn | SQL, values: readonly unknown[], type: ArrayType): SQL {
  return sql`${column} = any(${arrayParam(values, type)})`;
}

/** A column of an unnest insert: its values, one per row (Dates as they are, JSON as values). */
export type UnnestColumn = { column: PgColumn; type: ArrayType; values: readonly unknown[] };

/**
 * `insert into table (columns) select * from unnest(list, …)`: a batch of rows given as one list
 * per column, so any number of rows is one statement of one parameter per column (no 65,535
 * parameter limit, and none of the per-value work of a multi-row VALUES list). Rows are inserted
 * in list order; columns left out take their defaults. Append `returning …` where needed.
 */
export function insertUnnest(table: PgTable, columns: readonly UnnestColumn[]): SQL {
  const rows = columns[0]?.values.length ?? 0;
  if (columns.some((c) => c.values.length !== rows))
    throw new Error('unnest insert: columns of unequal length');
  const lists = columns.map(({ type, values }) =>
    arrayParam(
      type === 'jsonb'
        ? values.map((v) => (v === null || v === undefined ? null : JSON.stringify(v)))
        : type === 'timestamptz'
          ? values.map((v) => (v instanceof Date ? v.toISOString() : v))
          : values,
      type,
    ),
  );
  return sql`insert into ${table} (${sql.join(
    columns.map((c) => sql.identifier(c.column.name)),
    sql`, `,
  )}) select * from unnest(${sql.join(lists, sql`, `)})`;
}

/**
 * The next `count` ids of a serial column's sequence, taken before the rows are written (so each
 * row's id is known without relying on the order RETURNING gives them back).
 */
export async function nextIds(db: Queryable, table: string, count: number): Promise<number[]> {
  if (count === 0) return [];
  const rows = await queryRows<{ id: number }>(
    db,
    sql`select nextval(pg_get_serial_sequence(${table}, 'id'))::int as id from generate_series(1, ${count}::int)`,
  );
  return rows.map((r) => Number(r.id));
}
