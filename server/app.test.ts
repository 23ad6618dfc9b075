import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { desc } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app.ts';
import { outbox } from './db/schema.ts';
import { mailboxCookie } from './mail/dev-mailbox.ts';
import { call, signIn } from './test-helpers.ts';
import { createTestContext, type TestContext, testConfig } from './testing.ts';

function fakeDist(): string {
  const dist = mkdtempSync(path.join(tmpdir(), 'twofold-dist-'));
  mkdirSync(path.join(dist, 'portal', 'assets'), { recursive: true });
  mkdirSync(path.join(dist, 'elements'), { recursive: true });
  writeFileSync(path.join(dist, 'portal', 'index.html'), '<!doctype html><title>Twofold portal</title>');
  writeFileSync(path.join(dist, 'portal', 'assets', 'portal-abc123.js'), 'console.log("portal")');
  writeFileSync(path.join(dist, 'elements', 'twofold-faq.js'), 'export {}');
  return dist;
}

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ distDir: fakeDist() });
});
afterAll(() => t.close());

describe('the built portal and element bundles', () => {
  it('serves the portal with history fallback for its routes', async () => {
    for (const url of ['/portal', '/portal/', '/portal/login', '/portal/organization-details?tab=users']) {
      const res = await t.app.request(url);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('<title>Twofold portal</title>');
      expect(res.headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('serves hashed assets for a year and element bundles to any site', async () => {
    const asset = await t.app.request('/assets/portal-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const element = await t.app.request('/elements/twofold-faq.js');
    expect(element.status).toBe(200);
    expect(element.headers.get('access-control-allow-origin')).toBe('*');
    expect(element.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
  });

  it('answers missing files with 404, never the app shell or a file outside dist', async () => {
    for (const url of [
      '/portal/missing.js',
      '/assets/nope.js',
      '/elements/nope.js',
      '/assets/../../package.json',
    ]) {
      expect((await t.app.request(url)).status).toBe(404);
    }
  });

  it('serves the favicon as SVG, and sends /favicon.ico to it', async () => {
    const icon = await t.app.request('/favicon.svg');
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(await icon.text()).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    const ico = await t.app.request('/favicon.ico');
    expect(ico.status).toBe(301);
    expect(ico.headers.get('location')).toBe('/favicon.svg');
  });

  it('redirects / to the portal and /login to its sign-in page', async () => {
    const root = await t.app.request('/');
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/portal');
    const login = await t.app.request('/login');
    expect(login.headers.get('location')).toBe('/portal/login');
  });

  it("redirects the spec's /donor-match-update/{di} to the portal's donor page, query kept", async () => {
    const page = await t.app.request('/donor-match-update/42?token=abc');
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe('/portal/donor-match-update/42?token=abc');
    expect((await t.app.request('/donor-match-update/..%2Fadmin')).status).toBe(404);
  });

  it('sends security headers: no framing, no sniffing, no referrer', async () => {
    const res = await t.app.request('/portal');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });
});

describe('without a build', () => {
  it('says how to build the portal instead of crashing', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'twofold-nodist-'));
    const { app } = createApp({ config: testConfig({ logRequests: false }), db: t.db, distDir: empty });
    for (const url of ['/portal', '/portal/login']) {
      const res = await app.request(url);
      expect(res.status).toBe(503);
      expect(await res.text()).toBe('The portal is not built yet: run npm run build');
    }
    expect((await app.request('/elements/twofold-faq.js')).status).toBe(404);
  });
});

describe('the dev mailbox', () => {
  it('lists sent mail newest first and shows each message', async () => {
    await call(t.app, 'POST', '/api/auth/otp', { body: { email: 'admin@twofold.test' } });
    await call(t.app, 'POST', '/api/auth/forgot', { body: { email: 'reader@twofold.test' } });
    const list = await t.app.request('/dev/mailbox');
    expect(list.status).toBe(200);
    const html = await list.text();
    expect(html.indexOf('reader@twofold.test')).toBeLessThan(html.indexOf('admin@twofold.test'));
    const id = /href="\/dev\/mailbox\/(\d+)">Your Twofold sign-in link/.exec(html)?.[1];
    expect(id).toBeTruthy();
    const message = await t.app.request(`/dev/mailbox/${id}`);
    expect(await message.text()).toContain('http://portal.test/portal/login?magic=');
    expect((await t.app.request('/dev/mailbox/abc')).status).toBe(404);
  });

  it('answers only a signed-in super user when the server listens beyond loopback', async () => {
    const { app } = createApp({
      config: testConfig({ host: '0.0.0.0', exposed: true, logRequests: false }),
      db: t.db,
    });
    await call(app, 'POST', '/api/auth/otp', { body: { email: 'super@twofold.test' } });
    // Anonymous: no list, no message, only the page that asks for the portal's session.
    const anonymous = await app.request('/dev/mailbox');
    expect(anonymous.status).toBe(401);
    const page = await anonymous.text();
    expect(page).not.toContain('super@twofold.test');
    expect(page).toContain('<script src="/dev/mailbox/sign-in.js"></script>');
    const [newest] = await t.db.select({ id: outbox.id }).from(outbox).orderBy(desc(outbox.id)).limit(1);
    expect(newest).toBeDefined();
    const message = await app.request(`/dev/mailbox/${newest?.id}`);
    expect(message.status).toBe(401);
    expect(await message.text()).not.toContain('magic=');
    expect((await app.request('/dev/mailbox/sign-in.js')).status).toBe(200);

    // A staff member who is not a super user, a forged token, a cookie that is not a session: refused.
    const admin = await signIn(app, 'admin@twofold.test');
    expect(
      (await app.request('/dev/mailbox', { headers: { authorization: `Bearer ${admin}` } })).status,
    ).toBe(401);
    const refused = await app.request('/dev/mailbox/session', {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('set-cookie')).toBeNull();
    expect(
      (
        await app.request('/dev/mailbox/session', {
          method: 'POST',
          headers: { authorization: 'Bearer x.y.z' },
        })
      ).status,
    ).toBe(401);
    expect(
      (await app.request('/dev/mailbox', { headers: { cookie: `${mailboxCookie}=${admin}` } })).status,
    ).toBe(401);

    // The super user: by the portal token, or by the cookie the sign-in page obtains with it, once
    // the session has passed a second factor (issue #24: beyond loopback super users need one).
    const superToken = await signIn(app, 'super@twofold.test');
    const withoutFactor = await app.request('/dev/mailbox', {
      headers: { authorization: `Bearer ${superToken}` },
    });
    expect(withoutFactor.status).toBe(401);
    const started = await call(app, 'POST', '/api/account/totp', { token: superToken });
    const totp = new TOTP({
      algorithm: 'SHA1',
      digits: 6,
      period: 30,
      secret: Secret.fromBase32(started.json.secret),
    });
    const confirmed = await call(app, 'POST', '/api/account/totp/confirm', {
      token: superToken,
      body: { code: totp.generate() },
    });
    expect(confirmed.status).toBe(200);
    const byHeader = await app.request('/dev/mailbox', {
      headers: { authorization: `Bearer ${superToken}` },
    });
    expect(byHeader.status).toBe(200);
    expect(await byHeader.text()).toContain('super@twofold.test');
    const session = await app.request('/dev/mailbox/session', {
      method: 'POST',
      headers: { authorization: `Bearer ${superToken}` },
    });
    expect(session.status).toBe(204);
    const cookie = session.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).toMatch(/Path=\/dev\/mailbox/);
    const pair = cookie.split(';')[0] ?? '';
    const list = await app.request('/dev/mailbox', { headers: { cookie: pair } });
    expect(list.status).toBe(200);
    expect(await list.text()).toContain('super@twofold.test');
    const opened = await app.request(`/dev/mailbox/${newest?.id}`, { headers: { cookie: pair } });
    expect(opened.status).toBe(200);
  });

  it('does not exist when mail goes out over SMTP', async () => {
    const { app } = createApp({
      config: testConfig({ smtpUrl: 'smtp://mail.example.org:25', logRequests: false }),
      db: t.db,
    });
    expect((await app.request('/dev/mailbox')).status).toBe(404);
  });
});

describe('one origin for a local install (PUBLIC_URL on localhost)', () => {
  const navigate = { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', accept: 'text/html' };
  let local: ReturnType<typeof createApp>['app'];
  beforeAll(() => {
    local = createApp({
      config: testConfig({ publicUrl: 'http://localhost:8080', logRequests: false }),
      db: t.db,
      distDir: fakeDist(),
    }).app;
  });

  it('sends a page opened at 127.0.0.1 or [::1] to the same path on localhost, where the links point', async () => {
    for (const host of ['127.0.0.1:8080', '[::1]:8080', '127.0.0.1']) {
      const res = await local.request('/portal/billing?checkout=flat_5', { headers: { ...navigate, host } });
      expect(res.status).toBe(307);
      expect(res.headers.get('location')).toBe('http://localhost:8080/portal/billing?checkout=flat_5');
    }
  });

  it('serves the page itself at localhost, and API calls and images at either name', async () => {
    expect(
      (await local.request('/portal/login', { headers: { ...navigate, host: 'localhost:8080' } })).status,
    ).toBe(200);
    const api = await local.request('/api/health', {
      headers: { host: '127.0.0.1:8080', 'sec-fetch-mode': 'cors', accept: 'application/json' },
    });
    expect(api.status).not.toBe(307);
    const script = await local.request('/elements/twofold-faq.js', {
      headers: { host: '127.0.0.1:8080', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'script' },
    });
    expect(script.status).toBe(200);
  });

  it('leaves other host names alone, and every host when PUBLIC_URL is a real address', async () => {
    // Another name the server answers to (the Host check allows IP addresses) is not redirected.
    expect(
      (await local.request('/portal/login', { headers: { ...navigate, host: '192.0.2.10:8080' } })).status,
    ).toBe(200);
    // testConfig's PUBLIC_URL is http://portal.test: a deployment, where 127.0.0.1 is left as asked.
    expect(
      (await t.app.request('/portal/login', { headers: { ...navigate, host: '127.0.0.1:8080' } })).status,
    ).toBe(200);
  });
});
