import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bills } from '../db/schema.ts';
import { memoryLogger } from '../http/logger.ts';
import { issueBills } from '../modules/billing/bills.ts';
import { demoOrganizationIds } from '../test-helpers.ts';
import { createTestContext, type TestContext } from '../testing.ts';
import { startBillIssuer } from './bill-issuer.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ config: { logRequests: false } });
});
afterAll(() => t.close());

describe('the bill issuer', () => {
  it('issues a finished month’s bill at start and says so; an open month’s stays open', async () => {
    const { hopeHarbor } = await demoOrganizationIds(t.db);
    const [past, open] = await t.db
      .insert(bills)
      .values([
        {
          organization_id: hopeHarbor,
          plan: 'elig_5',
          period_start: new Date('2020-01-01T00:00:00Z'),
          period_end: new Date('2020-02-01T00:00:00Z'),
        },
        {
          organization_id: hopeHarbor,
          plan: 'elig_5',
          period_start: new Date('2999-01-01T00:00:00Z'),
          period_end: new Date('2999-02-01T00:00:00Z'),
        },
      ])
      .returning({ id: bills.id });
    const logger = memoryLogger();
    const issuer = startBillIssuer({ db: t.db, logger, intervalMs: 60_000 });
    await vi.waitFor(() => expect(logger.lines.join('\n')).toContain('bills issued: 1'));
    await issuer.stop();
    const issuedAt = async (id: number | undefined) =>
      (
        await t.db
          .select({ at: bills.issued_at })
          .from(bills)
          .where(eq(bills.id, id ?? 0))
      )[0]?.at;
    expect(await issuedAt(past?.id)).toBeInstanceOf(Date);
    expect(await issuedAt(open?.id)).toBeNull();
  });

  it('logs a failure instead of crashing the server', async () => {
    const logger = memoryLogger();
    const broken = { transaction: () => Promise.reject(new Error('database unavailable')) };
    const issuer = startBillIssuer({ db: broken as never, logger, intervalMs: 60_000 });
    await vi.waitFor(() =>
      expect(logger.lines.join('\n')).toContain('issuing bills failed: database unavailable'),
    );
    await issuer.stop();
  });

  it('stopping waits for the round in progress (graceful shutdown), and no round starts after it', async () => {
    let release = () => {};
    let calls = 0;
    let finished = false;
    const slow = {
      transaction: () => {
        calls++;
        return new Promise<number[]>((resolve) => {
          release = () => {
            finished = true;
            resolve([]);
          };
        });
      },
    };
    const issuer = startBillIssuer({ db: slow as never, logger: memoryLogger(), intervalMs: 10 });
    let stopped = false;
    const stopping = issuer.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(finished).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toBe(1);
  });

  it('two processes issuing at once issue each finished bill exactly once', async () => {
    const { hopeHarbor } = await demoOrganizationIds(t.db);
    const inserted = await t.db
      .insert(bills)
      .values(
        [3, 4, 5].map((m) => ({
          organization_id: hopeHarbor,
          plan: 'elig_5',
          period_start: new Date(Date.UTC(2019, m, 1)),
          period_end: new Date(Date.UTC(2019, m + 1, 1)),
        })),
      )
      .returning({ id: bills.id });
    const now = new Date();
    const [a, b] = await Promise.all([issueBills(t.db, now), issueBills(t.db, now)]);
    const all = [...(a ?? []), ...(b ?? [])].sort((x, y) => x - y);
    expect(all).toEqual(inserted.map((r) => r.id).sort((x, y) => x - y));
  });
});
