import { eq } from 'drizzle-orm';
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { LoginResponse, Me, OtpVerifyResponse } from '../../../src/contract/auth.ts';
import { oneTimeTokens, outbox, users } from '../../db/schema.ts';
import { call, lastMailTo, linkIn, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';
import { accessTokenLifetimeSeconds } from './tokens.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const sign = (secret: string, claims: Record<string, unknown>, exp: number) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime(exp)
    .sign(new TextEncoder().encode(secret));

describe('POST /api/auth/login', () => {
  it('signs in every demo user with a 12-hour token carrying sub and exp', async () => {
    for (const email of [
      'super@twofold.test',
      'admin@twofold.test',
      'writer@twofold.test',
      'reader@twofold.test',
    ]) {
      const before = Math.floor(Date.now() / 1000);
      const res = await call(t.app, 'POST', '/api/auth/login', { body: { email, password: 'twofold-demo' } });
      expect(res.status).toBe(200);
      const body = z.parse(LoginResponse, res.json);
      expect(body.me.email).toBe(email);
      const claims = decodeJwt(body.access_token);
      expect(claims.sub).toBe(String(body.me.id));
      expect(claims.purpose).toBe('access');
      expect(claims.exp).toBeGreaterThanOrEqual(before + accessTokenLifetimeSeconds);
      expect(claims.exp).toBeLessThanOrEqual(before + accessTokenLifetimeSeconds + 5);
    }
  });

  it('lists the organizations a user holds a level on, by name', async () => {
    const admin = await call(t.app, 'POST', '/api/auth/login', {
      body: { email: 'admin@twofold.test', password: 'twofold-demo' },
    });
    expect(admin.json.me.orgs.map((o: { name: string }) => o.name)).toEqual([
      'Hope Harbor Foundation',
      'Maple Street PTA',
    ]);
    expect(admin.json.me.globalPermission).toBe(false);
    const superUser = await call(t.app, 'POST', '/api/auth/login', {
      body: { email: 'super@twofold.test', password: 'twofold-demo' },
    });
    expect(superUser.json.me.globalPermission).toBe(true);
    expect(superUser.json.me.orgs).toEqual([]);
  });

  it('accepts the email in any case', async () => {
    const res = await call(t.app, 'POST', '/api/auth/login', {
      body: { email: '  Writer@Twofold.TEST', password: 'twofold-demo' },
    });
    // The contract's email check rejects surrounding spaces; the case alone must not matter.
    expect(res.status).toBe(400);
    const ok = await call(t.app, 'POST', '/api/auth/login', {
      body: { email: 'Writer@Twofold.TEST', password: 'twofold-demo' },
    });
    expect(ok.status).toBe(200);
    expect(ok.json.me.email).toBe('writer@twofold.test');
  });

  it('answers a wrong password and an unknown email alike', async () => {
    const wrong = await call(t.app, 'POST', '/api/auth/login', {
      body: { email: 'admin@twofold.test', password: 'not-the-password' },
    });
    const unknown = await call(t.app, 'POST', '/api/auth/login', {
      body: { email: 'nobody@twofold.test', password: 'twofold-demo' },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.json).toEqual({ message: 'Invalid email or password' });
    expect(unknown.json).toEqual({ message: 'Invalid email or password' });
  });

  it('refuses a user who has no password yet with the same answer', async () => {
    await t.db.insert(users).values({ email: 'invited@twofold.test' });
    const res = await call(t.app, 'POST', '/api/auth/login', {
      body: { email: 'invited@twofold.test', password: 'anything' },
    });
    expect(res.status).toBe(401);
    expect(res.json.message).toBe('Invalid email or password');
  });

  it('names the bad field with the spec message', async () => {
    const res = await call(t.app, 'POST', '/api/auth/login', {
      body: { email: 'not-an-email', password: 'x' },
    });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ message: 'email: Please enter a valid email address' });
    const missing = await call(t.app, 'POST', '/api/auth/login', { body: { email: 'admin@twofold.test' } });
    expect(missing.status).toBe(400);
    expect(missing.json.message).toMatch(/^password: /);
  });

  it('rejects malformed JSON, other content types and oversized bodies with a message', async () => {
    const badJson = await call(t.app, 'POST', '/api/auth/login', {
      headers: { 'content-type': 'application/json' },
      body: undefined,
    });
    expect(badJson.status).toBe(400);
    expect(badJson.json.message).toBe('The request body is not valid JSON.');
    const form = await t.app.request('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=a@b.co&password=x',
    });
    expect(form.status).toBe(415);
    expect(await form.json()).toEqual({
      message: 'Send the request body as JSON (Content-Type: application/json).',
    });
    const huge = await t.app.request('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(2 * 1024 * 1024) },
      body: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(huge.status).toBe(413);
    expect((await huge.json()).message).toBe('The request body is too large (limit 1 MB).');
  });
});

describe('GET /api/common', () => {
  it('returns the signed-in user, with the name falling back to the email', async () => {
    const token = await signIn(t.app, 'reader@twofold.test');
    const res = await call(t.app, 'GET', '/api/common', { token });
    expect(res.status).toBe(200);
    const me = z.parse(Me, res.json);
    expect(me).toMatchObject({ email: 'reader@twofold.test', name: 'Riley Chen', globalPermission: false });
    expect(me.orgs.map((o) => o.name)).toEqual(['Hope Harbor Foundation']);

    await t.db.update(users).set({ name: null }).where(eq(users.email, 'reader@twofold.test'));
    const unnamed = await call(t.app, 'GET', '/api/common', { token });
    expect(unnamed.json.name).toBe('reader');
    await t.db.update(users).set({ name: 'Riley Chen' }).where(eq(users.email, 'reader@twofold.test'));
  });

  it('says the token is missing when there is none', async () => {
    const variants: Record<string, string>[] = [
      {},
      { authorization: 'Basic dXNlcjpwYXNz' },
      { authorization: 'Bearer' },
    ];
    for (const headers of variants) {
      const res = await call(t.app, 'GET', '/api/common', { headers });
      expect(res.status).toBe(401);
      expect(res.json).toEqual({ message: 'Authentication token not found' });
    }
  });

  it('refuses expired, forged, garbled and donor tokens as expired', async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = await sign(t.config.jwtSecret, { sub: '1', purpose: 'access' }, now - 10);
    const forged = await sign(
      'another-secret-another-secret-another-secret',
      { sub: '1', purpose: 'access' },
      now + 600,
    );
    const donor = await sign(t.config.jwtSecret, { sub: '1', purpose: 'donor-session' }, now + 600);
    const ghost = await sign(t.config.jwtSecret, { sub: '999999', purpose: 'access' }, now + 600);
    for (const token of [expired, forged, donor, ghost, 'garbage', 'a.b.c']) {
      const res = await call(t.app, 'GET', '/api/common', { token });
      expect(res.status).toBe(401);
      expect(res.json).toEqual({ message: 'Authentication expired. Please login again.' });
    }
  });
});

describe('magic link', () => {
  it('tells an unknown email the spec text', async () => {
    const res = await call(t.app, 'POST', '/api/auth/otp', { body: { email: 'stranger@example.org' } });
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ message: 'No user found with that email address' });
  });

  it('emails a link that signs in once and lands on the requested page', async () => {
    const res = await call(t.app, 'POST', '/api/auth/otp', {
      body: { email: 'writer@twofold.test', redirect: '/portal/donations' },
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ message: 'Magic link sent' });
    const mail = await lastMailTo(t.db, 'writer@twofold.test');
    expect(mail?.subject).toBe('Your Twofold sign-in link');
    const link = linkIn(mail?.text ?? '', 'http://portal.test/portal/login?magic=');
    expect(mail?.html).toContain(link.toString().replace(/&/g, '&amp;'));
    const token = link.searchParams.get('magic') ?? '';

    const first = await call(t.app, 'POST', '/api/auth/otp/verify', { body: { token } });
    expect(first.status).toBe(200);
    const session = z.parse(OtpVerifyResponse, first.json);
    expect(session.redirect).toBe('/portal/donations');
    expect(session.me.email).toBe('writer@twofold.test');
    const me = await call(t.app, 'GET', '/api/common', { token: session.access_token });
    expect(me.json.email).toBe('writer@twofold.test');

    const again = await call(t.app, 'POST', '/api/auth/otp/verify', { body: { token } });
    expect(again.status).toBe(400);
    expect(again.json).toEqual({
      message: 'This sign-in link is invalid or has expired. Please request a new one.',
    });
  });

  it('works with GET and defaults the landing page to /portal', async () => {
    const res = await call(t.app, 'GET', '/api/auth/otp?email=reader%40twofold.test');
    expect(res.status).toBe(200);
    const mail = await lastMailTo(t.db, 'reader@twofold.test');
    const token = linkIn(mail?.text ?? '', 'http://portal.test/portal/login?magic=').searchParams.get(
      'magic',
    );
    const verified = await call(t.app, 'POST', '/api/auth/otp/verify', { body: { token } });
    expect(verified.json.redirect).toBe('/portal');
  });

  it('refuses a link after 15 minutes', async () => {
    await call(t.app, 'POST', '/api/auth/otp', { body: { email: 'admin@twofold.test' } });
    const mail = await lastMailTo(t.db, 'admin@twofold.test');
    const token = linkIn(mail?.text ?? '', 'http://portal.test/portal/login?magic=').searchParams.get(
      'magic',
    );
    const [stored] = await t.db.select().from(oneTimeTokens).where(eq(oneTimeTokens.purpose, 'magic_link'));
    expect(stored?.token_hash).not.toContain(token);
    const expiresIn = (stored?.expires_at.getTime() ?? 0) - (stored?.created_at.getTime() ?? 0);
    expect(expiresIn).toBeGreaterThan(14 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(15 * 60_000 + 1000);
    await t.db.update(oneTimeTokens).set({ expires_at: new Date(Date.now() - 1000) });
    const res = await call(t.app, 'POST', '/api/auth/otp/verify', { body: { token } });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe('This sign-in link is invalid or has expired. Please request a new one.');
  });

  it('refuses redirects off the site and unknown tokens', async () => {
    const offsite = await call(t.app, 'POST', '/api/auth/otp', {
      body: { email: 'admin@twofold.test', redirect: '//evil.example/portal' },
    });
    expect(offsite.status).toBe(400);
    expect(offsite.json.message).toBe('redirect: Redirect must be a local path');
    const unknown = await call(t.app, 'POST', '/api/auth/otp/verify', { body: { token: 'x'.repeat(43) } });
    expect(unknown.status).toBe(400);
  });
});

describe('forgot and reset password', () => {
  const forgotText = 'If an account exists for that email, reset instructions are on their way.';
  const resetInvalid = 'This reset link is invalid or has expired. Please request a new password reset link.';

  async function resetToken(email: string): Promise<string> {
    const res = await call(t.app, 'POST', '/api/auth/forgot', { body: { email } });
    expect(res.json).toEqual({ message: forgotText });
    const mail = await lastMailTo(t.db, email);
    expect(mail?.subject).toBe('Reset your Twofold password');
    return (
      linkIn(mail?.text ?? '', 'http://portal.test/portal/reset-password?token=').searchParams.get('token') ??
      ''
    );
  }

  it('answers the same for unknown emails and sends them nothing', async () => {
    const before = await t.db.select().from(outbox);
    const res = await call(t.app, 'POST', '/api/auth/forgot', { body: { email: 'ghost@twofold.test' } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ message: forgotText });
    expect(await t.db.select().from(outbox)).toHaveLength(before.length);
  });

  it('resets the password once, and retires the other reset links', async () => {
    const older = await resetToken('writer@twofold.test');
    const token = await resetToken('writer@twofold.test');
    const res = await call(t.app, 'POST', '/api/auth/reset', { body: { token, password: 'new-secret-1' } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ message: 'Your password has been reset.' });

    const oldPassword = await call(t.app, 'POST', '/api/auth/login', {
      body: { email: 'writer@twofold.test', password: 'twofold-demo' },
    });
    expect(oldPassword.status).toBe(401);
    expect(await signIn(t.app, 'writer@twofold.test', 'new-secret-1')).toBeTruthy();

    for (const used of [token, older]) {
      const again = await call(t.app, 'POST', '/api/auth/reset', {
        body: { token: used, password: 'another-1' },
      });
      expect(again.status).toBe(400);
      expect(again.json).toEqual({ message: resetInvalid });
    }
    expect(await signIn(t.app, 'writer@twofold.test', 'new-secret-1')).toBeTruthy();
  });

  it('refuses an expired link, and a magic link used as a reset link', async () => {
    const token = await resetToken('reader@twofold.test');
    await t.db
      .update(oneTimeTokens)
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where(eq(oneTimeTokens.purpose, 'password_reset'));
    const expired = await call(t.app, 'POST', '/api/auth/reset', {
      body: { token, password: 'new-secret-2' },
    });
    expect(expired.status).toBe(400);
    expect(expired.json.message).toBe(resetInvalid);

    await call(t.app, 'POST', '/api/auth/otp', { body: { email: 'reader@twofold.test' } });
    const mail = await lastMailTo(t.db, 'reader@twofold.test');
    const magic = linkIn(mail?.text ?? '', 'http://portal.test/portal/login?magic=').searchParams.get(
      'magic',
    );
    const crossed = await call(t.app, 'POST', '/api/auth/reset', {
      body: { token: magic, password: 'new-secret-2' },
    });
    expect(crossed.status).toBe(400);
    expect(await signIn(t.app, 'reader@twofold.test')).toBeTruthy();
  });

  it('requires 6 characters with the spec message', async () => {
    const res = await call(t.app, 'POST', '/api/auth/reset', {
      body: { token: 'x'.repeat(43), password: '12345' },
    });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ message: 'password: Password must be at least 6 characters' });
  });

  it('gives a reset link one hour', async () => {
    await resetToken('admin@twofold.test');
    const rows = await t.db.select().from(oneTimeTokens).where(eq(oneTimeTokens.purpose, 'password_reset'));
    const newest = rows.sort((a, b) => a.id - b.id).at(-1);
    const lifetime = (newest?.expires_at.getTime() ?? 0) - (newest?.created_at.getTime() ?? 0);
    expect(lifetime).toBeGreaterThan(59 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(60 * 60_000 + 1000);
  });
});

describe('request log', () => {
  it('logs method, path, status and time, never the query string or a token', async () => {
    const token = await signIn(t.app, 'admin@twofold.test');
    await call(t.app, 'GET', '/api/auth/otp?email=admin%40twofold.test&redirect=%2Fportal', { token });
    const joined = t.logger.lines.join('\n');
    expect(joined).toMatch(/GET \/api\/auth\/otp 200 \d+ms/);
    expect(joined).not.toContain('admin%40twofold.test');
    expect(joined).not.toContain(token);
    expect(joined).not.toContain('twofold-demo');
  });
});
