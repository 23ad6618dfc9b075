import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Turns, takingTurns } from './turns.ts';

/** Keeps the thread busy without yielding, as a PGlite statement does. */
const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // spin
  }
};

describe('Turns', () => {
  it('runs one turn at a time, in the order they were asked for', async () => {
    const turns = new Turns();
    const log: string[] = [];
    const work = (name: string) => async () => {
      log.push(`${name} start`);
      // A real wait inside a turn: the next turn must still not start before this one ends.
      await new Promise((resolve) => setTimeout(resolve, 2));
      log.push(`${name} end`);
      return name;
    };
    const results = await Promise.all([turns.take(work('a')), turns.take(work('b')), turns.take(work('c'))]);
    expect(results).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['a start', 'a end', 'b start', 'b end', 'c start', 'c end']);
  });

  it('lets the event loop run between turns whose work never yields', async () => {
    const turns = new Turns();
    const log: string[] = [];
    // Synchronous work behind promises (what PGlite's statements are): without a task of its own
    // per turn, all three would run in one microtask drain before the loop polls again.
    const pending = [1, 2, 3].map((n) =>
      turns.take(async () => {
        busy(1);
        log.push(`turn ${n}`);
      }),
    );
    setImmediate(() => log.push('event loop'));
    await Promise.all(pending);
    expect(log.indexOf('event loop')).toBeGreaterThan(-1);
    expect(log.indexOf('event loop')).toBeLessThan(log.indexOf('turn 3'));
  });

  it('serves a caller who asks again behind the callers already waiting', async () => {
    const turns = new Turns();
    const log: string[] = [];
    // Two "requests" of three statements each, started together: their statements alternate
    // rather than one request's statements running back to back while the other waits.
    const request = async (name: string) => {
      for (let i = 1; i <= 3; i++) await turns.take(async () => log.push(`${name}${i}`));
    };
    await Promise.all([request('a'), request('b')]);
    expect(log).toEqual(['a1', 'b1', 'a2', 'b2', 'a3', 'b3']);
  });

  it('rejects only the turn whose work failed, and goes on with the next', async () => {
    const turns = new Turns();
    const failed = turns.take(async () => {
      throw new Error('broken statement');
    });
    const next = turns.take(async () => 'next ran');
    await expect(failed).rejects.toThrow('broken statement');
    await expect(next).resolves.toBe('next ran');
  });
});

describe('takingTurns (a PGlite client)', () => {
  let pglite: PGlite;
  beforeAll(async () => {
    pglite = new PGlite();
    await pglite.waitReady;
    await pglite.exec('create table t (n int)');
  });
  afterAll(() => pglite.close());

  it('answers queries, exec and transactions as PGlite does', async () => {
    const client = takingTurns(pglite);
    await client.exec('insert into t values (1), (2)');
    const total = await client.transaction(async (tx) => {
      await tx.query('insert into t values ($1)', [3]);
      return (await tx.query<{ sum: number }>('select sum(n)::int as sum from t')).rows[0]?.sum;
    });
    expect(total).toBe(6);
    expect((await client.query<{ n: number }>('select count(*)::int as n from t')).rows[0]?.n).toBe(3);
    await client.exec('delete from t');
  });

  it('keeps a transaction one turn: a statement asked meanwhile waits for the commit', async () => {
    const client = takingTurns(pglite);
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const transaction = client.transaction(async (tx) => {
      await tx.query('insert into t values (10)');
      entered();
      await held;
      await tx.query('insert into t values (20)');
    });
    await inside;
    const seen = client.query<{ n: number }>('select count(*)::int as n from t');
    release();
    await transaction;
    // Both rows or none: the query did not run between the transaction's two statements.
    expect((await seen).rows[0]?.n).toBe(2);
    await client.exec('delete from t');
  });

  it('rolls back a failed transaction and serves the next caller', async () => {
    const client = takingTurns(pglite);
    const failed = client.transaction(async (tx) => {
      await tx.query('insert into t values (1)');
      await tx.query('select no_such_column from t');
    });
    const next = client.query<{ n: number }>('select count(*)::int as n from t');
    await expect(failed).rejects.toThrow(/no_such_column/);
    expect((await next).rows[0]?.n).toBe(0);
  });
});
