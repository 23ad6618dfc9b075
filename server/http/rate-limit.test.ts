import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../test-helpers.ts';
import { createTestContext, type TestContext } from '../testing.ts';

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
      config: { trustProxy: true, rateLimit: { windowMs: 60_000, perIp: 3, perEmail: 100 } },
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
