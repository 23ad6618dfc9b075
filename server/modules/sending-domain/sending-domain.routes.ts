import { MessageResponse } from '../../../src/contract/auth.ts';
import { SendingDomainInput, SendingDomainResponse } from '../../../src/contract/sending-domain.ts';
import { IdParams, orgFromIdParam } from '../../http/params.ts';
import { type AuthUser, defineRoute, type RouteContext } from '../../http/route.ts';
import * as domains from './sending-domain.service.ts';

const error = (description: string) => ({ description, schema: MessageResponse });
const tags = ['sending-domain'];
/** Only an organization's admins change its sender (issue #28). */
const adminAccess = { level: 'admin', capability: 'settings.manage', org: orgFromIdParam } as const;
const answer = {
  description: 'The sender, its DNS records and their last check',
  schema: SendingDomainResponse,
};

const caller = (
  ctx: Pick<RouteContext<unknown, unknown, unknown, unknown>, 'ip' | 'c'> & { user: AuthUser },
) => ({
  actor: { kind: 'user' as const, userId: ctx.user.id, email: ctx.user.email },
  ip: ctx.ip,
  userAgent: ctx.c.req.header('user-agent') ?? null,
});

export const sendingDomainRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/organization/:id/sending-domain',
    access: { level: 'read', capability: 'organization.view', org: orgFromIdParam },
    summary: "The organization's donor email sender, the DNS records to publish and their last check",
    tags,
    params: IdParams,
    responses: { 200: answer },
    handler: ({ deps, params }) => domains.getSendingDomain(deps.db, deps.config, params.id),
  }),
  defineRoute({
    method: 'put',
    path: '/api/organization/:id/sending-domain',
    access: adminAccess,
    summary:
      'Set the sender (display name and an address at the organization’s domain); a new domain gets a new DKIM key and must be verified',
    tags,
    params: IdParams,
    body: SendingDomainInput,
    responses: { 200: answer, 400: error('Not an address at an own domain') },
    handler: (ctx) =>
      domains.setSendingDomain(
        ctx.deps.db,
        ctx.deps.config,
        ctx.params.id,
        ctx.body,
        caller(ctx),
        ctx.deps.clock.now(),
      ),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/organization/:id/sending-domain',
    access: adminAccess,
    summary: 'Remove the sender: donor emails go from the platform address again',
    tags,
    params: IdParams,
    responses: { 200: answer, 404: error('No sender address is set.') },
    handler: (ctx) => domains.removeSendingDomain(ctx.deps.db, ctx.deps.config, ctx.params.id, caller(ctx)),
  }),
  defineRoute({
    method: 'post',
    path: '/api/organization/:id/sending-domain/verify',
    access: adminAccess,
    summary:
      'Verify: look the DNS records up now; per record found and right, found but different, or missing',
    tags,
    params: IdParams,
    responses: { 200: answer, 404: error('No sender address is set.') },
    handler: (ctx) =>
      domains.verifySendingDomain(
        ctx.deps.db,
        ctx.deps.config,
        ctx.params.id,
        caller(ctx),
        ctx.deps.clock.now(),
      ),
  }),
  defineRoute({
    method: 'post',
    path: '/api/organization/:id/sending-domain/rotate',
    access: adminAccess,
    summary:
      'Rotate the DKIM key: a new selector to publish; the current key signs until Verify finds the new one',
    tags,
    params: IdParams,
    responses: {
      200: answer,
      400: error('Not verified, or a new key is already waiting'),
      404: error('No sender'),
    },
    handler: (ctx) =>
      domains.rotateSendingKey(
        ctx.deps.db,
        ctx.deps.config,
        ctx.params.id,
        caller(ctx),
        ctx.deps.clock.now(),
      ),
  }),
];
