import { solveChallenge } from 'altcha-lib/v1';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginFailures } from '../../db/schema.ts';
import { call } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';

let t: TestContext;
beforeAll(async () => {
  // Production's thresholds, small: 3 failures for an email, 5 from an address.
  t = await createTestContext({
    config: {
      trustProxy: ['loopback'],
      loginCaptchaAfter: 3,
      rateLimit: { windowMs: 15 * 60_000, perIp: 5, perEmail: 5 },
    },
  });
});
afterAll(() => t.close());

const invalid = { message: 'Invalid email or password' };
const required = { message: 'Please complete the verification to sign in.', captcha: true };

/** What the login element does when asked: fetch a challenge, solve it, send it base64-encoded. */
async function solved(): Promise<string> {
  const c = (await call(t.app, 'GET', '/api/captcha/challenge')).json;
  const solution = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise;
  if (!solution) throw new Error('unsolvable challenge');
  const payload = { ...c, number: solution.number };
  delete payload.maxnumber;
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

const login = (email: string, password: string, ip: string, captcha?: string) =>
  call(t.app, 'POST', '/api/auth/login', {
    body: { email, password, ...(captcha ? { captcha } : {}) },
    headers: { 'x-forwarded-for': ip },
  });

describe('failed sign-ins cost the guesser, never lock the owner out', () => {
  it('after 3 failures for an email, asks for a challenge; the right password with one signs in', async () => {
    // A stranger guesses from three different addresses: the count is per email across them.
    for (const ip of ['203.0.113.1', '203.0.113.2']) {
      const res = await login('reader@twofold.test', 'guess', ip);
      expect(res.status).toBe(401);
      expect(res.json).toEqual(invalid);
    }
    const third = await login('reader@twofold.test', 'guess', '203.0.113.3');
    expect(third.json).toEqual({ ...invalid, captcha: true });

    // Now even the owner is asked for the challenge, from anywhere, and is not refused for good.
    const asked = await login('reader@twofold.test', 'twofold-demo', '198.51.100.9');
    expect(asked.status).toBe(428);
    expect(asked.json).toEqual(required);
    const owner = await login('reader@twofold.test', 'twofold-demo', '198.51.100.9', await solved());
    expect(owner.status).toBe(200);
    expect(owner.json.me.email).toBe('reader@twofold.test');
  });

  it('keeps asking the guesser for a fresh challenge for every further guess', async () => {
    const captcha = await solved();
    const guess = await login('reader@twofold.test', 'guess-2', '203.0.113.1', captcha);
    expect(guess.status).toBe(401);
    expect(guess.json).toEqual({ ...invalid, captcha: true });
    // A solution works once.
    const replay = await login('reader@twofold.test', 'twofold-demo', '203.0.113.1', captcha);
    expect(replay.json).toEqual({
      message: 'The verification failed or has expired. Please try again.',
      captcha: true,
    });
    const forged = await login('reader@twofold.test', 'twofold-demo', '203.0.113.1', 'bm90LWEtc29sdXRpb24=');
    expect(forged.json.captcha).toBe(true);
    expect(forged.status).toBe(428);
  });

  it('asks everyone behind an address with many failures for a challenge, and still lets them in', async () => {
    // Five failures from one address, each for a different (even unknown) email.
    for (let i = 0; i < 5; i++) await login(`nobody${i}@example.org`, 'guess', '192.0.2.50');
    const colleague = await login('writer@twofold.test', 'twofold-demo', '192.0.2.50');
    expect(colleague.status).toBe(428);
    expect(colleague.json).toEqual(required);
    const solvedIn = await login('writer@twofold.test', 'twofold-demo', '192.0.2.50', await solved());
    expect(solvedIn.status).toBe(200);
    // Another address is not affected.
    expect((await login('writer@twofold.test', 'twofold-demo', '192.0.2.51')).status).toBe(200);
  });

  it('keeps the counts in the database, per email and address together', async () => {
    const rows = await t.db.select().from(loginFailures);
    const row = (email: string, ip: string) => rows.find((r) => r.email === email && r.ip === ip)?.failures;
    expect(row('reader@twofold.test', '203.0.113.1')).toBe(2);
    expect(row('reader@twofold.test', '203.0.113.2')).toBe(1);
    expect(row('nobody0@example.org', '192.0.2.50')).toBe(1);
    // The owner's success from an address forgets that pair only.
    expect(row('reader@twofold.test', '198.51.100.9')).toBeUndefined();
  });

  it('counts guesses made at once: a burst cannot slip under the threshold', async () => {
    const burst = await Promise.all(
      Array.from({ length: 6 }, () => login('admin@twofold.test', 'guess', '198.51.100.77')),
    );
    const asked = burst.filter((r) => r.json.message === required.message);
    expect(asked.length).toBe(3);
    expect(asked.every((r) => r.status === 428)).toBe(true);
  });
});
