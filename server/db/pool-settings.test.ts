import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, testDb } from '../testing.ts';
import { poolSettings } from './client.ts';
import { queryRows } from './rows.ts';

describe("the server's PostgreSQL sessions", () => {
  it('leave parallel workers out unless DATABASE_URL sets its own options', () => {
    expect(poolSettings('postgres://db/twofold')).toEqual({
      options: '-c max_parallel_workers_per_gather=0',
    });
    expect(poolSettings('postgres://db/twofold?sslmode=require&options=-c%20work_mem%3D64MB')).toEqual({});
  });

  it.runIf(testDb === 'postgres')(
    'run without parallel workers on every connection of the pool',
    async () => {
      const test = await createTestDatabase();
      const database = await test.open();
      try {
        const answers = await Promise.all(
          Array.from({ length: 4 }, () =>
            queryRows<{ v: string }>(
              database.db,
              sql`select current_setting('max_parallel_workers_per_gather') as v`,
            ),
          ),
        );
        expect(answers.map((a) => a[0]?.v)).toEqual(['0', '0', '0', '0']);
      } finally {
        await database.close();
        await test.drop();
      }
    },
  );
});
