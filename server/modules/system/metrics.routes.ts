import type { Context } from 'hono';
import { httpMessages } from '../../http/errors.ts';
import { type Deps, defineRoute } from '../../http/route.ts';
import { bearerMatches, metricsText } from '../../observability/metrics.ts';

export const metricsMessages = {
  tokenRequired: 'The metrics need the bearer token set in METRICS_TOKEN (Authorization: Bearer <token>).',
} as const;

/**
 * `GET /metrics` in Prometheus's text format. Where it answers (docs/observability.md): off by
 * default (404, as for any unknown path); with METRICS_PORT only on that port (bound to
 * METRICS_HOST, loopback unless set), never the public one; otherwise with METRICS_TOKEN on the
 * public port, to callers presenting it. With both set, the metrics port asks for the token too.
 */
export async function metricsResponse(
  c: Context,
  deps: Pick<Deps, 'db' | 'config'>,
  where: 'public port' | 'metrics port',
): Promise<Response> {
  const { token, port } = deps.config.metrics;
  if (where === 'public port' && (port !== undefined || token === undefined))
    return c.json({ message: httpMessages.notFound }, 404);
  if (token !== undefined && !bearerMatches(c.req.header('authorization'), token)) {
    c.header('WWW-Authenticate', 'Bearer realm="metrics"');
    return c.json({ message: metricsMessages.tokenRequired }, 401);
  }
  const { body, contentType } = await metricsText(deps.db);
  return c.body(body, 200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
}

export const metricsRoutes = [
  defineRoute({
    method: 'get',
    path: '/metrics',
    // Not an organization's route: the operator's, guarded by METRICS_TOKEN (or not served here).
    access: 'anonymous',
    summary:
      'Prometheus metrics: requests, queues, deliveries, the database pool, the event loop (off unless METRICS_TOKEN or METRICS_PORT is set)',
    tags: ['system'],
    responses: {
      200: { description: 'Prometheus text exposition format' },
      401: { description: 'METRICS_TOKEN is set and the bearer token is missing or wrong' },
      404: { description: 'Metrics are not served on this port (off, or on METRICS_PORT)' },
    },
    handler: async ({ deps, c }) => metricsResponse(c, deps, 'public port'),
  }),
];
