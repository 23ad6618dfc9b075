import type { IncomingMessage } from 'node:http';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import proxyAddr from 'proxy-addr';
import type { TrustProxy } from '../config.ts';

type Trust = (address: string, hop: number) => boolean;
const compiled = new WeakMap<string[], Trust>();

function trustOf(trustProxy: Exclude<TrustProxy, false>): Trust {
  if (typeof trustProxy === 'number') return (_address, hop) => hop < trustProxy;
  let trust = compiled.get(trustProxy);
  if (!trust) {
    trust = proxyAddr.compile(trustProxy);
    compiled.set(trustProxy, trust);
  }
  return trust;
}

/**
 * The caller's address. Proxies append to the right of `X-Forwarded-For` and clients can write
 * anything to its left, so the address is the socket's peer, walked back through the entries only
 * while each hop is a proxy we trust (proxy-addr): a forged entry is never reached. In-process
 * requests (tests) have no socket: they stand for a peer on this machine, 127.0.0.1.
 */
export function clientIp(c: Context, trustProxy: TrustProxy): string {
  const env = c.env as { incoming?: unknown } | undefined;
  const peer = env?.incoming ? (getConnInfo(c).remote.address ?? 'unknown') : '127.0.0.1';
  if (trustProxy === false) return peer;
  const forwarded = c.req.header('x-forwarded-for');
  const request = {
    headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded },
    socket: { remoteAddress: peer },
    connection: { remoteAddress: peer },
  } as unknown as IncomingMessage;
  return proxyAddr(request, trustOf(trustProxy));
}

/**
 * Whether the socket's peer is a proxy TRUST_PROXY names (a hop count trusts the nearest peer):
 * only then are the headers it adds (X-Request-Id) believed. In-process requests stand for 127.0.0.1.
 */
export function peerIsTrustedProxy(c: Context, trustProxy: TrustProxy): boolean {
  if (trustProxy === false) return false;
  const env = c.env as { incoming?: unknown } | undefined;
  const peer = env?.incoming ? (getConnInfo(c).remote.address ?? '') : '127.0.0.1';
  if (peer === '') return false;
  return trustOf(trustProxy)(peer, 0);
}
