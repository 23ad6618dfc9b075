import { createChallenge, solveChallenge } from 'altcha-lib/v1';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CaptchaChallenge, captchaFailedMessage } from '../../../src/contract/public.ts';
import { contactMessages, outbox } from '../../db/schema.ts';
import { call, lastMailTo } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';
import { captchaKey, challengeMaxNumber } from '../captcha/captcha.service.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

/** What the browser does: fetch a challenge, solve it, send the solution base64-encoded. */
async function solved(challenge?: CaptchaChallenge): Promise<string> {
  const c = challenge ?? (await call(t.app, 'GET', '/api/captcha/challenge')).json;
  const solution = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise;
  if (!solution) throw new Error('unsolvable challenge');
  const payload = {
    algorithm: c.algorithm,
    challenge: c.challenge,
    number: solution.number,
    salt: c.salt,
    signature: c.signature,
  };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

const form = (recaptchaToken: string, overrides: Record<string, unknown> = {}) => ({
  name: '  Pat Lee ',
  email: ' pat@example.org ',
  organization: 'Tidewater Literacy',
  subject: 'Matching question',
  message: 'How do we add a second admin?',
  recaptchaToken,
  ...overrides,
});

const send = (body: unknown) => call(t.app, 'POST', '/api/contact-form', { body });

describe('GET /api/captcha/challenge', () => {
  it('issues a signed ALTCHA challenge that expires in 10 minutes and solves quickly', async () => {
    const res = await call(t.app, 'GET', '/api/captcha/challenge', {
      headers: { origin: 'https://partner.example' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.json).toMatchObject({ algorithm: 'SHA-256', maxnumber: challengeMaxNumber });
    const expires = Number(new URLSearchParams(res.json.salt.split('?')[1]).get('expires')) * 1000;
    expect(expires - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(10 * 60_000);
  });
});

describe('POST /api/contact-form', () => {
  it('stores the trimmed message and mails it to support with reply-to the sender', async () => {
    const res = await send(form(await solved()));
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ message: 'Message sent' });
    const [stored] = await t.db
      .select()
      .from(contactMessages)
      .where(eq(contactMessages.email, 'pat@example.org'));
    expect(stored).toMatchObject({ name: 'Pat Lee', subject: 'Matching question' });
    const mail = await lastMailTo(t.db, t.config.supportEmail);
    expect(mail).toMatchObject({ subject: 'Contact form: Matching question', reply_to: 'pat@example.org' });
    expect(mail?.text).toContain('How do we add a second admin?');
  });

  it('refuses a replayed solution, a wrong number, garbage and a foreign signature, storing nothing', async () => {
    const token = await solved();
    expect((await send(form(token))).status).toBe(200);
    const before = (await t.db.select().from(contactMessages)).length;
    const challenge = (await call(t.app, 'GET', '/api/captcha/challenge')).json;
    const wrong = JSON.parse(Buffer.from(await solved(challenge), 'base64').toString());
    wrong.number += 1;
    const foreign = await createChallenge({ hmacKey: 'not-our-key', maxnumber: 1000 });
    for (const bad of [
      token,
      Buffer.from(JSON.stringify(wrong)).toString('base64'),
      'not base64 json',
      Buffer.from('{"algorithm":"SHA-256"}').toString('base64'),
      await solved(foreign as CaptchaChallenge),
    ]) {
      const res = await send(form(bad));
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ message: captchaFailedMessage });
    }
    expect((await t.db.select().from(contactMessages)).length).toBe(before);
  });

  it('refuses an expired challenge', async () => {
    const expired = await createChallenge({
      hmacKey: captchaKey(t.config.jwtSecret),
      maxnumber: 1000,
      expires: new Date(Date.now() - 1000),
    });
    const res = await send(form(await solved(expired as CaptchaChallenge)));
    expect(res.json).toEqual({ message: captchaFailedMessage });
  });

  it('answers each invalid field with the spec message, without spending the captcha', async () => {
    const token = await solved();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: ' ' }, 'name: Name is required'],
      [{ name: 'n'.repeat(101) }, 'name: Name must be less than 100 characters'],
      [{ email: '' }, 'email: Email is required'],
      [{ email: 'pat' }, 'email: Invalid email address'],
      [{ organization: '' }, 'organization: Organization is required'],
      [{ subject: 's'.repeat(201) }, 'subject: Subject must be less than 200 characters'],
      [{ message: 'm'.repeat(2001) }, 'message: Message must be less than 2000 characters'],
      [{ recaptchaToken: '' }, 'recaptchaToken: Please complete the reCAPTCHA verification.'],
    ];
    for (const [override, message] of cases) {
      const res = await send(form(token, override));
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ message });
    }
    expect((await send(form(token))).status).toBe(200);
  });

  it('queues nothing when the captcha fails', async () => {
    const before = (await t.db.select().from(outbox)).length;
    await send(form('bad'));
    expect((await t.db.select().from(outbox)).length).toBe(before);
  });
});
