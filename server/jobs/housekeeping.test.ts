import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  idempotencyKeys,
  oauthCodes,
  oauthGrants,
  oauthTokens,
  oneTimeTokens,
  partnerApps,
} from '../db/schema.ts';
import { memoryLogger } from '../http/logger.ts';
import { demoOrganizationIds } from '../test-helpers.ts';
import { createTestContext, type TestContext } from '../testing.ts';
import { createHousekeeping, houseKeep } from './housekeeping.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ config: { logRequests: false } });
});
afterAll(() => t.close());

const hour = 60 * 60 * 1000;
const day = 24 * hour;

describe('housekeeping', () => {
  it('removes idempotency answers past 24 hours and tokens spent over 30 days ago, and keeps the rest', async () => {
    const { hopeHarbor } = await demoOrganizationIds(t.db);
    const now = new Date('2030-06-01T12:00:00Z');
    const ago = (ms: number) => new Date(now.getTime() - ms);
    const keys = await t.db
      .insert(idempotencyKeys)
      .values(
        [ago(25 * hour), ago(23 * hour)].map((created_at, i) => ({
          organization_id: hopeHarbor,
          key: `housekeeping-${i}`,
          request_hash: 'x',
          status: 201,
          response: {},
          created_at,
        })),
      )
      .returning({ id: idempotencyKeys.id });
    const tokens = await t.db
      .insert(oneTimeTokens)
      .values([
        // expired 31 days ago: gone
        { purpose: 'donor_link', token_hash: 'hk-a', expires_at: ago(31 * day) },
        // used 31 days ago, would expire later: gone
        { purpose: 'donor_link', token_hash: 'hk-b', expires_at: ago(-day), used_at: ago(31 * day) },
        // expired 29 days ago: kept, so its link still says it expired
        { purpose: 'donor_link', token_hash: 'hk-c', expires_at: ago(29 * day) },
        // live: kept
        { purpose: 'donor_link', token_hash: 'hk-d', expires_at: ago(-day) },
      ])
      .returning({ id: oneTimeTokens.id, token_hash: oneTimeTokens.token_hash });

    const removed = await houseKeep(t.db, now);
    expect(removed.idempotencyKeys).toBeGreaterThanOrEqual(1);
    expect(removed.oneTimeTokens).toBeGreaterThanOrEqual(2);

    const keptKeys = await t.db
      .select({ key: idempotencyKeys.key })
      .from(idempotencyKeys)
      .where(
        inArray(
          idempotencyKeys.id,
          keys.map((k) => k.id),
        ),
      );
    expect(keptKeys.map((k) => k.key)).toEqual(['housekeeping-1']);
    const keptTokens = await t.db
      .select({ token_hash: oneTimeTokens.token_hash })
      .from(oneTimeTokens)
      .where(
        inArray(
          oneTimeTokens.id,
          tokens.map((k) => k.id),
        ),
      );
    expect(keptTokens.map((k) => k.token_hash).sort()).toEqual(['hk-c', 'hk-d']);
  });

  it("removes partner apps' OAuth codes and tokens 30 days past their expiry, and keeps the rest", async () => {
    const { hopeHarbor } = await demoOrganizationIds(t.db);
    const now = new Date('2030-06-01T12:00:00Z');
    const ago = (ms: number) => new Date(now.getTime() - ms);
    const [app] = await t.db
      .insert(partnerApps)
      .values({
        client_id: 'tfc_housekeeping',
        name: 'Housekeeping Partner',
        website: 'https://partner.example',
        redirect_uris: ['https://partner.example/cb'],
        scopes: ['matches:read'],
      })
      .returning();
    const [grant] = await t.db
      .insert(oauthGrants)
      .values({ app_id: app?.id ?? 0, organization_id: hopeHarbor, scopes: ['matches:read'] })
      .returning();
    const code = (hash: string, expires_at: Date) => ({
      code_hash: hash,
      app_id: app?.id ?? 0,
      organization_id: hopeHarbor,
      redirect_uri: 'https://partner.example/cb',
      code_challenge: 'x',
      scopes: ['matches:read'],
      expires_at,
    });
    await t.db
      .insert(oauthCodes)
      .values([code('hk-code-old', ago(31 * day)), code('hk-code-new', ago(29 * day))]);
    const token = (hash: string, expires_at: Date) => ({
      grant_id: grant?.id ?? 0,
      kind: 'refresh' as const,
      token_hash: hash,
      expires_at,
    });
    await t.db
      .insert(oauthTokens)
      .values([token('hk-token-old', ago(31 * day)), token('hk-token-live', ago(-day))]);

    expect((await houseKeep(t.db, now)).oauth).toBeGreaterThanOrEqual(2);
    const codes = await t.db.select({ hash: oauthCodes.code_hash }).from(oauthCodes);
    expect(codes.map((c) => c.hash)).toEqual(['hk-code-new']);
    const tokens = await t.db.select({ hash: oauthTokens.token_hash }).from(oauthTokens);
    expect(tokens.map((c) => c.hash)).toEqual(['hk-token-live']);
  });

  it('runs as a loop that logs what it removed and stops cleanly', async () => {
    const { hopeHarbor } = await demoOrganizationIds(t.db);
    await t.db.insert(idempotencyKeys).values({
      organization_id: hopeHarbor,
      key: 'housekeeping-loop',
      request_hash: 'x',
      status: 201,
      response: {},
      created_at: new Date(Date.now() - 2 * day),
    });
    const logger = memoryLogger();
    const loop = createHousekeeping({ db: t.db, logger, pollMs: 60_000 });
    expect(await loop.runOnce()).toBeGreaterThanOrEqual(1);
    await loop.stop();
    expect(logger.lines.join('\n')).toMatch(/housekeeping removed \d+ spent rows/);
  });
});
