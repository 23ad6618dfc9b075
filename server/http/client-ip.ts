import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/**
 * The caller's address. `X-Forwarded-For` is only believed behind a proxy we trust (any client
 * can send the header); otherwise the socket's address. In-process requests (tests) have no
 * socket and share one address.
 */
export function clientIp(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  const env = c.env as { incoming?: unknown } | undefined;
  if (env?.incoming) return getConnInfo(c).remote.address ?? 'unknown';
  return 'local';
}
