import { randomUUID } from 'node:crypto';
import { trace } from '@opentelemetry/api';
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { Config } from '../config.ts';
import { peerIsTrustedProxy } from '../http/client-ip.ts';
import type { Logger } from '../http/logger.ts';
import type { AppEnv } from '../http/route.ts';
import { withWorkContext } from './context.ts';
import { httpDuration, httpRequests } from './metrics.ts';

/** The response header (and the trusted proxy's request header) carrying the request's id. */
export const requestIdHeader = 'X-Request-Id';

/**
 * An incoming id we repeat: what proxies generate (nginx's $request_id, UUIDs, trace ids), never
 * anything that could break a log line or a header.
 */
export const wellFormedRequestId = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

const methods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * The route a request was answered by, as registered (the route table's `/api/donation/:id`,
 * a static prefix `/assets/*`): never the raw path, so no ids or tokens reach a label, and the
 * labels stay few. Requests no route answered (a 404, the host check's 421) are 'unmatched'.
 */
export function routeTemplate(c: Parameters<MiddlewareHandler<AppEnv>>[0]): string {
  const path = routePath(c);
  return path === '' || path === '*' || path === '/*' ? 'unmatched' : path;
}

/**
 * First middleware of the app: gives the request its id (a well-formed `X-Request-Id` from a
 * proxy TRUST_PROXY trusts, else a new UUID), returns it on every response, runs the request in a
 * work context so every log line written while it is handled (and every job row it queues) carries
 * it, then counts the request by route template and status, names the trace's server span after
 * the template, and writes the request's log line (path only, token segments redacted).
 */
export function observeRequests(options: {
  config: Pick<Config, 'trustProxy' | 'logRequests'>;
  logger: Logger;
  loggedPath: (path: string) => string;
}): MiddlewareHandler<AppEnv> {
  const { config, logger, loggedPath } = options;
  return async (c, next) => {
    const started = performance.now();
    const incoming = c.req.header(requestIdHeader);
    const requestId =
      incoming !== undefined && wellFormedRequestId.test(incoming) && peerIsTrustedProxy(c, config.trustProxy)
        ? incoming
        : randomUUID();
    const span = trace.getActiveSpan();
    span?.setAttribute('twofold.request_id', requestId);
    await withWorkContext({ requestId }, async () => {
      await next();
      try {
        c.res.headers.set(requestIdHeader, requestId);
      } catch {
        // An immutable response (a fetched one) cannot take the header; none of ours is.
      }
      const route = routeTemplate(c);
      const method = methods.has(c.req.method) ? c.req.method : 'OTHER';
      const status = String(c.res.status);
      const seconds = (performance.now() - started) / 1000;
      httpRequests.inc({ method, route, status });
      httpDuration.observe({ method, route, status }, seconds);
      if (span) {
        span.setAttribute('http.route', route);
        span.updateName(`${method} ${route}`);
      }
      if (config.logRequests) {
        const path = loggedPath(c.req.path);
        logger.info(`${c.req.method} ${path} ${c.res.status} ${Math.round(seconds * 1000)}ms`, {
          method: c.req.method,
          route,
          path,
          status: c.res.status,
          duration_ms: Math.round(seconds * 1000),
        });
      }
    });
  };
}
