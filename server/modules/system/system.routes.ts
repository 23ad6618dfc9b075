import { defineRoute } from '../../http/route.ts';

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
];
