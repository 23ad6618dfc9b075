/**
 * A deadlock between two transactions is retried, not answered as a 500 (PostgreSQL only: PGlite
 * is one connection and cannot deadlock).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase, testDb } from '../testing.ts';
import { type Database, sqlState } from './client.ts';
import { queryRows } from './rows.ts';

describe.skipIf(testDb !== 'postgres')('transactions on PostgreSQL', () => {
  let testDatabase: TestDatabase;
  let database: Database;

  beforeAll(async () => {
    testDatabase = await createTestDatabase();
    database = await testDatabase.open();
    await database.db.execute(sql`create table pair (id int primary key, n int not null)`);
    await database.db.execute(sql`insert into pair values (1, 0), (2, 0)`);
  });
  afterAll(async () => {
    await database?.close();
    await testDatabase?.drop();
  });

  it('runs a transaction that lost a deadlock again, so both callers succeed', async () => {
    let runs = 0;
    let release: () => void = () => {};
    const bothHoldOne = new Promise<void>((resolve) => {
      let holding = 0;
      release = () => {
        holding++;
        if (holding === 2) resolve();
      };
    });
    // Each takes one row, waits until the other holds its row, then wants the other's: a cycle.
    const crossing = (first: number, second: number) =>
      database.db.transaction(async (tx) => {
        runs++;
        await tx.execute(sql`update pair set n = n + 1 where id = ${first}`);
        if (runs <= 2) {
          release();
          await bothHoldOne;
        }
        await tx.execute(sql`update pair set n = n + 1 where id = ${second}`);
      });
    await Promise.all([crossing(1, 2), crossing(2, 1)]);
    // PostgreSQL aborted one of the two first runs; it ran again and committed.
    expect(runs).toBe(3);
    const rows = await queryRows<{ id: number; n: number }>(
      database.db,
      sql`select id, n from pair order by id`,
    );
    expect(rows).toEqual([
      { id: 1, n: 2 },
      { id: 2, n: 2 },
    ]);
  });

  it('does not run a transaction again for any other error', async () => {
    let runs = 0;
    const failing = database.db.transaction(async (tx) => {
      runs++;
      await tx.execute(sql`insert into pair values (1, 0)`);
    });
    await expect(failing).rejects.toSatisfy((error: unknown) => sqlState(error) === '23505');
    expect(runs).toBe(1);
  });
});
