import { createServer as createHttpServer } from 'node:http';
import { type AddressInfo, createServer, type LookupFunction, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedLookup, postJson } from './outbound.ts';

/** A TCP listener on every local address (IPv4 and IPv6) that counts who reached it. */
let listener: Server;
let port = 0;
let connections = 0;
beforeAll(async () => {
  listener = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '::', resolve));
  port = (listener.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

/** A resolver that answers every name with one address, in both shapes net asks for. */
const answering =
  (address: string): LookupFunction =>
  (_host, options, callback) => {
    const family = address.includes(':') ? 6 : 4;
    if ((options as { all?: boolean }).all)
      (callback as (e: null, a: unknown[]) => void)(null, [{ address, family }]);
    else (callback as (e: null, a: string, f: number) => void)(null, address, family);
  };

const guarded = { allowPrivate: false, timeoutMs: 1000 };

// Each form names loopback, where the listener above waits.
const loopbackForms = {
  'IPv4-compatible': '::127.0.0.1',
  'IPv4-compatible, as resolvers write it': '::7f00:1',
  'IPv4-mapped': '::ffff:127.0.0.1',
  'IPv4-translated': '::ffff:0:127.0.0.1',
  NAT64: '64:ff9b::127.0.0.1',
  '6to4': '2002:7f00:1::1',
  Teredo: '2001:0:7f00:1::1',
};

describe('outbound requests to a customer URL (WEBHOOK_ALLOW_PRIVATE off)', () => {
  it('refuse an IPv6 literal that embeds a loopback IPv4 address, before connecting', async () => {
    for (const [form, address] of Object.entries(loopbackForms)) {
      const url = `https://[${address}]:${port}/hook`;
      await expect(postJson(url, '{}', {}, guarded), form).rejects.toThrow(/not allowed/);
    }
    expect(connections).toBe(0);
  });

  it('refuse a name whose DNS answer is such an address, checked at connect time', async () => {
    for (const [form, address] of Object.entries({ ...loopbackForms, plain: '127.0.0.1', v6: '::1' })) {
      await expect(
        postJson(
          `https://hooks.partner.example:${port}/hook`,
          '{}',
          {},
          { ...guarded, lookup: answering(address) },
        ),
        form,
      ).rejects.toThrow(/not allowed/);
    }
    expect(connections).toBe(0);
  });

  it('pass a public DNS answer on to the connection, also one an IPv6 form carries', async () => {
    for (const address of [
      '93.184.216.34',
      '64:ff9b::5db8:d822',
      '::ffff:93.184.216.34',
      '2606:4700:4700::1111',
    ])
      for (const all of [true, false]) {
        const passed = await new Promise((resolve, reject) =>
          guardedLookup(answering(address))('hooks.partner.example', { all }, (error, answer) =>
            error ? reject(error) : resolve(answer),
          ),
        );
        const family = address.includes(':') ? 6 : 4;
        expect(passed, address).toEqual(all ? [{ address, family }] : address);
      }
  });

  it('with WEBHOOK_ALLOW_PRIVATE on (local development), reach a local server by any of its forms', async () => {
    const local = createHttpServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => local.listen(0, '::', resolve));
    const localPort = (local.address() as AddressInfo).port;
    try {
      for (const host of ['127.0.0.1', '[::1]', '[::ffff:127.0.0.1]', 'localhost']) {
        const answer = await postJson(`http://${host}:${localPort}/hook`, '{}', {}, { allowPrivate: true });
        expect(answer, host).toMatchObject({ status: 200, body: 'ok' });
      }
    } finally {
      await new Promise<void>((resolve) => local.close(() => resolve()));
    }
  });
});
