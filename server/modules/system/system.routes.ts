import type { Context } from 'hono';
import { type Deps, defineRoute } from '../../http/route.ts';

/** How long readiness waits for the database before it calls the process unready. */
export const readinessDbTimeoutMs = 2000;

/** The database answers `select 1` within the time. */
async function databaseAnswers(deps: Deps): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), readinessDbTimeoutMs);
  });
  try {
    return await Promise.race([deps.db.execute('select 1').then(() => true), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

function noStore(c: Context, body: object, status: 200 | 503): Response {
  c.header('Cache-Control', 'no-store');
  return c.json(body, status);
}

/** Routes about the API itself. The OpenAPI document's handler is bound in app.ts (it needs the table). */
export const systemRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/health',
    access: 'anonymous',
    summary: 'Liveness and database check',
    tags: ['system'],
    responses: { 200: { description: 'The server and its database answer' } },
    handler: async ({ deps }) => {
      await deps.db.execute('select 1');
      return { status: 'ok' };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/health/live',
    access: 'anonymous',
    summary: 'Liveness: the process is up and answering (a load balancer restarts it when not)',
    tags: ['system'],
    responses: { 200: { description: 'The process answers' } },
    handler: async ({ c }) => noStore(c, { status: 'live' }, 200),
  }),
  defineRoute({
    method: 'get',
    path: '/api/health/ready',
    access: 'anonymous',
    summary: 'Readiness: the database answers and the process is not shutting down',
    tags: ['system'],
    responses: {
      200: { description: 'Send requests here' },
      503: { description: 'Shutting down or the database does not answer: send requests elsewhere' },
    },
    handler: async ({ deps, c }) => {
      if (deps.lifecycle.draining) return noStore(c, { status: 'shutting down' }, 503);
      if (!(await databaseAnswers(deps))) return noStore(c, { status: 'database unavailable' }, 503);
      return noStore(c, { status: 'ready' }, 200);
    },
  }),
];
