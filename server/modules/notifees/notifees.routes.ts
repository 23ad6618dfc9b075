import * as z from 'zod/mini';
import { MessageResponse } from '../../../src/contract/auth.ts';
import { NotifeeRequest, NotifeesResponse } from '../../../src/contract/users.ts';
import { IdParams, idSegment, orgFromIdParam } from '../../http/params.ts';
import { defineRoute } from '../../http/route.ts';
import * as notifees from './notifees.service.ts';

const error = (description: string) => ({ description, schema: MessageResponse });
const tags = ['notifees'];

/** spec lists these calls at /organization/...; the portal's client uses /api/organization/... Both work. */
function notifeeRoutes(prefix: '/organization' | '/api/organization') {
  return [
    defineRoute({
      method: 'get',
      path: `${prefix}/:id/notifee`,
      access: { level: 'read', capability: 'organization.view', org: orgFromIdParam },
      summary: 'The notification emails of an organization',
      tags,
      params: IdParams,
      responses: { 200: { description: 'The notification emails', schema: NotifeesResponse } },
      handler: ({ deps, params }) => notifees.listNotifees(deps.db, params.id),
    }),
    defineRoute({
      method: 'post',
      path: `${prefix}/:id/notifee`,
      access: { level: 'admin', capability: 'settings.manage', org: orgFromIdParam },
      summary: 'Add a notification email',
      tags,
      params: IdParams,
      body: NotifeeRequest,
      responses: {
        200: { description: 'The notification emails', schema: NotifeesResponse },
        409: error('That email already receives notifications.'),
      },
      handler: ({ deps, params, body }) => notifees.addNotifee(deps.db, params.id, body.email),
    }),
    defineRoute({
      method: 'delete',
      path: `${prefix}/:id/notifee/:notifeeId`,
      access: { level: 'admin', capability: 'settings.manage', org: orgFromIdParam },
      summary: 'Remove a notification email',
      tags,
      params: z.object({ id: idSegment, notifeeId: idSegment }),
      responses: {
        200: { description: 'The notification emails', schema: NotifeesResponse },
        404: error('Notification email not found'),
      },
      handler: ({ deps, params }) => notifees.removeNotifee(deps.db, params.id, params.notifeeId),
    }),
  ];
}

export const notifeesRoutes = [...notifeeRoutes('/api/organization'), ...notifeeRoutes('/organization')];
