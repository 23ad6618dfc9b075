import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import { rateLimitHits } from '../db/schema.ts';
import { call } from '../test-helpers.ts';
import { createTestContext, type TestContext } from '../testing.ts';
import { memoryLogger } from './logger.ts';
import { DatabaseStore } from './rate-limit-store.ts';

const tooMany = { message: 'Too many attempts. Please wait a few minutes and try again.' };

describe('rate limits on sign-in endpoints', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ config: { rateLimit: { windowMs: 15 * 60_000, perIp: 6, perEmail: 2 } } });
  });
  afterAll(() => t.close());

  it('never refuses sign-in with 429: failures ask for a challenge instead (login-throttle.test.ts)', async () => {
    for (let i = 0; i < 4; i++) {
      const res = await call(t.app, 'POST', '/api/auth/login', {
        body: { email: 'reader@twofold.test', password: 'wrong-guess' },
      });
      expect(res.status).toBe(401);
    }
    for (let i = 0; i < 4; i++) {
      const ok = await call(t.app, 'POST', '/api/auth/login', {
        body: { email: 'writer@twofold.test', password: 'twofold-demo' },
      });
      expect(ok.status).toBe(200);
    }
  });

  it('limits magic links per email across the POST and GET forms', async () => {
    expect(
      (await call(t.app, 'POST', '/api/auth/otp', { body: { email: 'admin@twofold.test' } })).status,
    ).toBe(200);
    expect((await call(t.app, 'GET', '/api/auth/otp?email=admin%40twofold.test')).status).toBe(200);
    const blocked = await call(t.app, 'GET', '/api/auth/otp?email=ADMIN%40twofold.test');
    expect(blocked.status).toBe(429);
    expect(blocked.json).toEqual(tooMany);
    expect(blocked.headers.get('retry-after')).toBeTruthy();
  });

  it('limits password reset requests per email, whether or not the account exists', async () => {
    for (const email of ['ghost@twofold.test', 'super@twofold.test']) {
      for (let i = 0; i < 2; i++) {
        expect((await call(t.app, 'POST', '/api/auth/forgot', { body: { email } })).status).toBe(200);
      }
      const blocked = await call(t.app, 'POST', '/api/auth/forgot', { body: { email } });
      expect(blocked.status).toBe(429);
      expect(blocked.json).toEqual(tooMany);
    }
  });
});

describe('rate limits per client address', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({
      config: {
        trustProxy: ['loopback', '10.0.0.1'],
        rateLimit: { windowMs: 60_000, perIp: 3, perEmail: 100 },
      },
    });
  });
  afterAll(() => t.close());

  const forgot = (i: number, ip: string) =>
    call(t.app, 'POST', '/api/auth/forgot', {
      body: { email: `person${i}@example.org` },
      headers: { 'x-forwarded-for': `${ip}, 10.0.0.1` },
    });

  it('stops one address trying many emails, leaving other addresses alone', async () => {
    for (let i = 0; i < 3; i++) expect((await forgot(i, '203.0.113.7')).status).toBe(200);
    const blocked = await forgot(3, '203.0.113.7');
    expect(blocked.status).toBe(429);
    expect(blocked.json).toEqual(tooMany);
    expect((await forgot(4, '198.51.100.2')).status).toBe(200);
  });

  it('counts malformed requests too, so garbage cannot flood the endpoint', async () => {
    const garbage = () =>
      call(t.app, 'POST', '/api/auth/forgot', {
        body: { email: 'x' },
        headers: { 'x-forwarded-for': '192.0.2.99' },
      });
    for (let i = 0; i < 3; i++) expect((await garbage()).status).toBe(400);
    expect((await garbage()).status).toBe(429);
  });
});

describe('client address without a trusted proxy', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({
      config: { trustProxy: false, rateLimit: { windowMs: 60_000, perIp: 2, perEmail: 100 } },
    });
  });
  afterAll(() => t.close());

  it('ignores X-Forwarded-For, which any client can forge', async () => {
    const send = (i: number) =>
      call(t.app, 'POST', '/api/auth/forgot', {
        body: { email: `someone${i}@example.org` },
        headers: { 'x-forwarded-for': `198.51.100.${i}` },
      });
    expect((await send(1)).status).toBe(200);
    expect((await send(2)).status).toBe(200);
    expect((await send(3)).status).toBe(429);
  });
});

describe('limits shared by every server process on the database', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({
      config: { trustProxy: ['loopback'], rateLimit: { windowMs: 60_000, perIp: 4, perEmail: 100 } },
    });
  });
  afterAll(() => t.close());

  it('counts an address’s attempts across two app instances (two processes) on one database', async () => {
    // A second app on the same database, as a second server process behind the load balancer.
    const { app: other } = createApp({ config: t.config, db: t.db, logger: memoryLogger() });
    const forgot = (app: typeof other, i: number) =>
      call(app, 'POST', '/api/auth/forgot', {
        body: { email: `spread${i}@example.org` },
        headers: { 'x-forwarded-for': '203.0.113.50' },
      });
    expect((await forgot(t.app, 0)).status).toBe(200);
    expect((await forgot(other, 1)).status).toBe(200);
    expect((await forgot(t.app, 2)).status).toBe(200);
    expect((await forgot(other, 3)).status).toBe(200);
    // Four in the window, two through each: the fifth is refused by either.
    const blocked = await forgot(other, 4);
    expect(blocked.status).toBe(429);
    expect((await forgot(t.app, 5)).status).toBe(429);
  });

  it('opens a new window once the old one is over, and counts concurrent hits exactly', async () => {
    const store = new DatabaseStore(t.db);
    store.init({ windowMs: 60_000 });
    const hits = await Promise.all(Array.from({ length: 20 }, () => store.increment('concurrent')));
    expect(hits.map((h) => h.totalHits).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    await store.decrement('concurrent');
    expect((await store.get('concurrent'))?.totalHits).toBe(19);
    // The window ran out (moved into the past): the next hit starts again at one.
    await t.db.update(rateLimitHits).set({ reset_at: new Date(Date.now() - 1000) });
    expect(await store.get('concurrent')).toBeUndefined();
    const fresh = await store.increment('concurrent');
    expect(fresh.totalHits).toBe(1);
    expect(fresh.resetTime?.getTime()).toBeGreaterThan(Date.now() + 50_000);
    await store.resetKey('concurrent');
    expect(await store.get('concurrent')).toBeUndefined();
    // Keys of any length (a 100 kB email) are counted; the table holds neither them nor their text.
    const huge = `${'a'.repeat(100_000)}@example.org`;
    expect((await store.increment(huge)).totalHits).toBe(1);
    expect((await store.increment(huge)).totalHits).toBe(2);
    const keys = await t.db.select({ key: rateLimitHits.key }).from(rateLimitHits);
    expect(keys.every((k) => k.key.length < 64 && !k.key.includes('example.org'))).toBe(true);
  });
});
