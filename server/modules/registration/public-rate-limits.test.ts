import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';

const tooMany = { message: 'Too many attempts. Please wait a few minutes and try again.' };

describe('rate limits on the public endpoints (per address)', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({
      config: { rateLimit: { windowMs: 15 * 60_000, perIp: 2, perEmail: 100 } },
    });
  });
  afterAll(() => t.close());

  const cases: Array<[string, string, number, () => unknown]> = [
    ['POST', '/organization/register', 2, () => ({})],
    ['POST', '/api/contact-form', 2, () => ({})],
    ['GET', '/api/captcha/challenge', 6, () => undefined],
    ['GET', '/api/csrf-token', 6, () => undefined],
    ['GET', '/api/public/organization-search?term=hope', 20, () => undefined],
  ];
  for (const [method, path, allowed, body] of cases) {
    it(`${method} ${path}: ${allowed} per window, then 429 (still readable cross-origin)`, async () => {
      const send = () =>
        call(t.app, method, path, {
          headers: { origin: 'https://partner.example', 'x-forwarded-for': '203.0.113.9' },
          ...(body() === undefined ? {} : { body: body() }),
        });
      for (let i = 0; i < allowed; i++) expect((await send()).status).not.toBe(429);
      const blocked = await send();
      expect(blocked.status).toBe(429);
      expect(blocked.json).toEqual(tooMany);
      expect(blocked.headers.get('access-control-allow-origin')).toBe('*');
    });
  }
});
