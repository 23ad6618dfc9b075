import { isIP } from 'node:net';
import type { MiddlewareHandler } from 'hono';
import type { Config } from '../config.ts';
import type { AppEnv } from './route.ts';

/** The host name of a Host header (or URL authority): lowercased, without port or brackets. */
export function hostName(host: string): string {
  const h = host.trim().toLowerCase();
  const bracketed = /^\[([^\]]*)\](?::\d*)?$/.exec(h);
  if (bracketed) return bracketed[1] ?? '';
  // A bare IPv6 address has several colons and no port.
  if (h.split(':').length > 2) return h;
  return h.replace(/:\d*$/, '').replace(/\.$/, '');
}

/**
 * Whether the server answers for this Host. DNS rebinding only works through a name the attacker
 * controls (the browser sends the page's own name), so IP literals and localhost are always safe
 * to answer (they also keep health probes and `curl 127.0.0.1` working); any other name must be
 * PUBLIC_URL's or one ALLOWED_HOSTS lists (a leading dot takes its subdomains).
 */
export function hostAllowed(host: string, config: Pick<Config, 'publicUrl' | 'allowedHosts'>): boolean {
  const name = hostName(host);
  if (name === '') return false;
  if (isIP(name) !== 0) return true;
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (name === hostName(new URL(config.publicUrl).host)) return true;
  return config.allowedHosts.some((allowed) =>
    allowed.startsWith('.') ? name === allowed.slice(1) || name.endsWith(allowed) : name === allowed,
  );
}

export const misdirectedMessage = (host: string) =>
  `This server does not answer for the host '${host}'. If it is one of this server's names, add it to ALLOWED_HOSTS.`;

/** Refuses, with 421 Misdirected Request, any request whose Host the server does not serve. */
export function hostCheck(config: Pick<Config, 'publicUrl' | 'allowedHosts'>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // HTTP/1.0 may omit Host; the URL then carries the address the server was reached at.
    const host = c.req.header('host') ?? new URL(c.req.url).host;
    if (!hostAllowed(host, config)) {
      // The name is echoed in JSON only (never HTML), shortened so a long header is not reflected whole.
      return c.json({ message: misdirectedMessage(host.slice(0, 100)) }, 421);
    }
    await next();
  };
}
