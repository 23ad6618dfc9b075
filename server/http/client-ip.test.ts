/**
 * Issue #29: behind a proxy, the client writes the left of X-Forwarded-For itself and the proxy
 * appends the address it saw. A forged entry must neither buy a fresh rate-limit or sign-in
 * challenge count nor become the address the server records. A real listening server: the proxy
 * is this test on 127.0.0.1 (TRUST_PROXY=loopback), the real client the entry it appends.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrustProxy } from '../config.ts';
import { loginFailures } from '../db/schema.ts';
import { createTestContext, type TestContext } from '../testing.ts';
import { clientIp } from './client-ip.ts';

let t: TestContext;
let base = '';
let close: () => Promise<void>;
beforeAll(async () => {
  t = await createTestContext({
    config: {
      trustProxy: ['loopback'],
      loginCaptchaAfter: 100,
      rateLimit: { windowMs: 60_000, perIp: 3, perEmail: 100 },
    },
  });
  const server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((resolve) => server.close(() => resolve()));
});
afterAll(async () => {
  await close?.();
  await t.close();
});

let forgery = 0;
/** What the proxy forwards: the client's own header, then the address the proxy saw. */
const viaProxy = (client: string) => ({ 'x-forwarded-for': `198.51.100.${++forgery % 250}, ${client}` });

const post = (path: string, body: unknown, headers: Record<string, string>) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

describe('a forged X-Forwarded-For behind a trusted proxy', () => {
  it('does not reset the per-address rate limit', async () => {
    for (let i = 0; i < 3; i++)
      expect(
        (await post('/api/auth/forgot', { email: `f${i}@example.org` }, viaProxy('203.0.113.7'))).status,
      ).toBe(200);
    const blocked = await post('/api/auth/forgot', { email: 'f9@example.org' }, viaProxy('203.0.113.7'));
    expect(blocked.status).toBe(429);
    // The client behind it with a different real address is its own count.
    expect((await post('/api/auth/forgot', { email: 'g@example.org' }, viaProxy('203.0.113.8'))).status).toBe(
      200,
    );
  });

  it('neither resets the sign-in challenge count nor becomes the recorded address', async () => {
    // perIp (3) failures from one real address, each with a fresh forged entry and another email.
    for (let i = 0; i < 3; i++)
      expect(
        (
          await post(
            '/api/auth/login',
            { email: `n${i}@example.org`, password: 'guess' },
            viaProxy('192.0.2.50'),
          )
        ).status,
      ).toBe(401);
    const next = await post(
      '/api/auth/login',
      { email: 'writer@twofold.test', password: 'twofold-demo' },
      viaProxy('192.0.2.50'),
    );
    expect(next.status).toBe(428);
    const rows = await t.db.select({ ip: loginFailures.ip }).from(loginFailures);
    expect(rows.map((r) => r.ip)).toEqual(['192.0.2.50', '192.0.2.50', '192.0.2.50']);
  });
});

describe('clientIp', () => {
  /** The address a request with this header gets; in-process requests come from 127.0.0.1. */
  const addressOf = async (trustProxy: TrustProxy, forwarded: string) => {
    const app = new Hono();
    app.get('/', (c) => c.text(clientIp(c, trustProxy)));
    return (await app.request('/', { headers: { 'x-forwarded-for': forwarded } })).text();
  };

  it('takes the first untrusted address from the right', async () => {
    expect(await addressOf(['loopback'], 'forged, 203.0.113.7')).toBe('203.0.113.7');
    expect(await addressOf(['loopback', '10.0.0.0/8'], 'forged, 203.0.113.7, 10.0.0.1')).toBe('203.0.113.7');
    expect(await addressOf(2, 'forged, 203.0.113.7, 10.0.0.1')).toBe('203.0.113.7');
    expect(await addressOf(1, 'forged, 203.0.113.7, 10.0.0.1')).toBe('10.0.0.1');
  });

  it('ignores the header when the peer is not a trusted proxy, or no proxy is trusted', async () => {
    expect(await addressOf(['10.0.0.0/8'], '203.0.113.7')).toBe('127.0.0.1');
    expect(await addressOf(false, '203.0.113.7')).toBe('127.0.0.1');
  });
});
