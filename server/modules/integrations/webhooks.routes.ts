import * as z from 'zod';
import { MessageResponse } from '../../../src/contract/auth.ts';
import {
  integrationMessages,
  WebhookDeliveryList,
  WebhookList,
  WebhookUpdate,
} from '../../../src/contract/integrations.ts';
import { IdParams, idSegment, orgFromIdParam } from '../../http/params.ts';
import { defineRoute } from '../../http/route.ts';
import { auditBy } from '../audit/audit.ts';
import * as hooks from './webhooks.service.ts';

const error = (description: string) => ({ description, schema: MessageResponse });
const tags = ['integrations'];
/** Routes under /api/webhook/{id} act on the webhook's organization. */
const webhookAccess = {
  level: 'admin',
  capability: 'webhooks.manage',
  org: (input: { params: { id: number } }, db: Parameters<typeof hooks.webhookOrganization>[0]) =>
    hooks.webhookOrganization(db, input.params.id),
  unreachable: integrationMessages.webhookNotFound,
} as const;
const Queued = z.object({ message: z.string(), delivery_id: z.number() });

export const webhooksRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/organization/:id/partial/webhooks',
    access: { level: 'admin', capability: 'webhooks.manage', org: orgFromIdParam },
    summary: "The organization's webhooks",
    tags,
    params: IdParams,
    responses: { 200: { description: 'The webhooks', schema: WebhookList } },
    handler: ({ deps, params }) => hooks.listWebhooks(deps.db, params.id),
  }),
  defineRoute({
    method: 'post',
    path: '/api/organization/:id/webhook',
    access: { level: 'admin', capability: 'webhooks.manage', org: orgFromIdParam },
    summary: 'Add a webhook (empty body): no URL yet, status changes, a new token and signing secret',
    tags,
    params: IdParams,
    successStatus: 201,
    responses: { 201: { description: 'The webhooks', schema: WebhookList }, 400: error('Too many webhooks') },
    handler: (ctx) => hooks.createWebhook(ctx.deps.db, ctx.params.id, auditBy(ctx)),
  }),
  defineRoute({
    method: 'put',
    path: '/api/webhook/:id',
    access: webhookAccess,
    summary: 'Change a webhook: its URL (a leading http:// or https:// is stripped), token and event',
    tags,
    params: IdParams,
    body: WebhookUpdate,
    responses: { 200: { description: 'The webhooks', schema: WebhookList }, 404: error('Webhook not found') },
    handler: ({ deps, params, body }) => hooks.updateWebhook(deps.db, params.id, body),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/webhook/:id',
    access: webhookAccess,
    summary: 'Delete a webhook and its queued deliveries',
    tags,
    params: IdParams,
    responses: { 200: { description: 'The webhooks', schema: WebhookList }, 404: error('Webhook not found') },
    handler: (ctx) => hooks.removeWebhook(ctx.deps.db, ctx.params.id, auditBy(ctx)),
  }),
  defineRoute({
    method: 'get',
    path: '/api/webhook/:id/deliveries',
    access: webhookAccess,
    summary: "The webhook's recent deliveries and their attempts, newest first",
    tags,
    params: IdParams,
    responses: {
      200: { description: 'The log', schema: WebhookDeliveryList },
      404: error('Webhook not found'),
    },
    handler: ({ deps, params }) => hooks.listDeliveries(deps.db, params.id),
  }),
  defineRoute({
    method: 'post',
    path: '/api/webhook/:id/test',
    access: webhookAccess,
    summary: 'Send test event: queue an example payload for this webhook',
    tags,
    params: IdParams,
    successStatus: 202,
    responses: { 202: { description: 'Queued', schema: Queued }, 400: error('Add the webhook URL first.') },
    handler: ({ deps, params }) => hooks.sendTestEvent(deps.db, params.id),
  }),
  defineRoute({
    method: 'post',
    path: '/api/webhook/:id/delivery/:deliveryId/redeliver',
    access: webhookAccess,
    summary: 'Redeliver: send a delivery again now (same message id)',
    tags,
    params: z.object({ id: idSegment, deliveryId: idSegment }),
    successStatus: 202,
    responses: { 202: { description: 'Queued', schema: Queued }, 404: error('Delivery not found') },
    handler: ({ deps, params }) => hooks.redeliver(deps.db, params.id, params.deliveryId),
  }),
];
