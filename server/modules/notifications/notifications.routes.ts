import * as z from 'zod/mini';
import { MessageResponse } from '../../../src/contract/auth.ts';
import { NotificationPreview, notificationTexts } from '../../../src/contract/notifications.ts';
import { IdParams } from '../../http/params.ts';
import { defineRoute } from '../../http/route.ts';
import * as notifications from './notifications.service.ts';

const tags = ['notifications'];

/** A transparent 1×1 GIF: the open-tracking image. */
const pixel = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

export const notificationsRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/notification/:id/preview',
    access: {
      level: 'read',
      capability: 'donations.view',
      org: (input, db) => notifications.notificationOrganization(db, input.params.id),
      unreachable: notificationTexts.notFound,
    },
    summary: 'A donor notification email as it was sent (subject and HTML, without its open-tracking image)',
    tags,
    params: IdParams,
    responses: {
      200: { description: 'The email', schema: NotificationPreview },
      404: { description: notificationTexts.notFound, schema: MessageResponse },
    },
    handler: ({ deps, params }) => notifications.notificationPreview(deps.db, params.id),
  }),
  defineRoute({
    method: 'get',
    // The token travels in the query string, not the path: request logs carry paths only.
    path: '/api/notification/open.gif',
    access: 'anonymous',
    summary:
      "A donor email's open-tracking image (?t={token}): the first load records when the email was first opened",
    tags,
    query: z.object({ t: z.optional(z.string()) }),
    responses: { 200: { description: 'A 1×1 transparent GIF, whatever the token' } },
    handler: async ({ deps, query }) => {
      // Always the same image, whether the token is known, used before or garbage: the answer
      // never tells anyone which tokens exist.
      if (query.t) await notifications.recordOpen(deps.db, query.t);
      return new Response(new Uint8Array(pixel), {
        headers: {
          'Content-Type': 'image/gif',
          'Content-Length': String(pixel.length),
          'Cache-Control': 'no-store, private',
        },
      });
    },
  }),
];
