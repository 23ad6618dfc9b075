/**
 * Issue #29, DNS rebinding: a page on attacker.example rebinds its name to 127.0.0.1, so the
 * browser sends `Host: attacker.example` to a local Twofold. Every part of the server (API, dev
 * mailbox, portal) refuses a Host it does not serve; its own names, IP literals and localhost pass.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox } from '../db/schema.ts';
import { createTestContext, type TestContext } from '../testing.ts';
import { hostName } from './host-check.ts';

function fakeDist(): string {
  const dist = mkdtempSync(path.join(tmpdir(), 'twofold-dist-'));
  mkdirSync(path.join(dist, 'portal'), { recursive: true });
  writeFileSync(path.join(dist, 'portal', 'index.html'), '<!doctype html><title>Twofold portal</title>');
  return dist;
}

let t: TestContext;
beforeAll(async () => {
  // PUBLIC_URL is http://portal.test (testConfig); a proxy also sends these names.
  t = await createTestContext({
    distDir: fakeDist(),
    config: { allowedHosts: ['proxy.example.org', '.example.net'] },
  });
});
afterAll(() => t.close());

const get = (url: string, host: string) => t.app.request(url, { headers: { host } });

const surfaces = [
  '/api/health',
  '/api/auth/me',
  '/dev/mailbox',
  '/dev/mailbox/api/messages',
  '/portal/login',
];

describe('the Host header', () => {
  it('refuses a foreign Host on the API, the dev mailbox and the portal with 421', async () => {
    for (const url of surfaces) {
      for (const host of ['attacker.example', 'attacker.example:8080', 'portal.test.attacker.example']) {
        const res = await get(url, host);
        expect(res.status, `${host} ${url}`).toBe(421);
        expect(await res.json()).toEqual({
          message: `This server does not answer for the host '${host}'. If it is one of this server's names, add it to ALLOWED_HOSTS.`,
        });
      }
    }
  });

  it('sends no magic link for a rebound page (the attack: request one, then read the mailbox)', async () => {
    const sent = async () =>
      (await t.db.select({ n: count() }).from(outbox).where(eq(outbox.to, 'super@twofold.test')))[0]?.n;
    const before = await sent();
    const res = await t.app.request('/api/auth/otp', {
      method: 'POST',
      headers: {
        host: 'attacker.example:8080',
        'content-type': 'application/json',
        origin: 'http://attacker.example:8080',
      },
      body: JSON.stringify({ email: 'super@twofold.test' }),
    });
    expect(res.status).toBe(421);
    expect(await sent()).toBe(before);
  });

  it('answers the server’s own names: PUBLIC_URL’s, localhost, IP literals, with any port', async () => {
    for (const host of [
      'portal.test',
      'PORTAL.test:443',
      'localhost:8080',
      'localhost',
      'app.localhost:8080',
      '127.0.0.1:8080',
      '[::1]:8080',
      '10.1.2.3',
    ]) {
      for (const url of surfaces) expect((await get(url, host)).status, `${host} ${url}`).not.toBe(421);
    }
  });

  it('answers the names ALLOWED_HOSTS lists, a leading dot taking their subdomains', async () => {
    for (const host of ['proxy.example.org', 'proxy.example.org:8443', 'example.net', 'a.b.example.net'])
      expect((await get('/api/health', host)).status, host).toBe(200);
    for (const host of ['other.example.org', 'example.net.attacker.example', 'notexample.net'])
      expect((await get('/api/health', host)).status, host).toBe(421);
  });

  it('reads host names with ports, brackets and trailing dots', () => {
    expect(hostName('Example.ORG:80')).toBe('example.org');
    expect(hostName('[::1]:8080')).toBe('::1');
    expect(hostName('::1')).toBe('::1');
    expect(hostName('example.org.')).toBe('example.org');
  });
});
