import * as z from 'zod/mini';
import { MessageResponse } from '../../../src/contract/auth.ts';
import { OrgUser } from '../../../src/contract/organization.ts';
import {
  AcceptInvitationResponse,
  AddPermissionRequest,
  InvitationPreview,
  InvitationRequest,
  InvitationTokenRequest,
  type PermissionRequest,
  RemovePermissionRequest,
  UpdatePermissionRequest,
  UpdateUserRequest,
} from '../../../src/contract/users.ts';
import { IdParams } from '../../http/params.ts';
import { defineRoute } from '../../http/route.ts';
import { auditBy } from '../audit/audit.ts';
import * as invitations from './invitations.service.ts';
import * as users from './users.service.ts';

const error = (description: string) => ({ description, schema: MessageResponse });
const tags = ['users'];
const UsersResponse = z.object({
  users: z.array(OrgUser),
  /** A fresh token for the caller, when they demoted or removed themselves (their other sessions ended). */
  access_token: z.optional(z.string()),
});
const orgFromBody = (input: { body: { org_id: number } }) => input.body.org_id;
type PermissionBody = z.infer<typeof PermissionRequest>;
const isAdd = (body: PermissionBody): body is z.infer<typeof AddPermissionRequest> => 'email' in body;

/**
 * The add or the update form, chosen by whether an email is sent, so a mistake is reported on its
 * field ("email: Please enter a valid email address") rather than as a failed union.
 */
const PermissionBody = z.pipe(
  z.unknown(),
  z.transform((value: unknown, ctx): PermissionBody => {
    const add = typeof value === 'object' && value !== null && 'email' in value;
    const result = z.safeParse(add ? AddPermissionRequest : UpdatePermissionRequest, value);
    if (result.success) return result.data;
    ctx.issues.push(...(result.error.issues as typeof ctx.issues));
    return z.NEVER;
  }),
);

export const usersRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/user/permission',
    access: { level: 'admin', capability: 'users.manage', org: orgFromBody },
    summary: 'Add a user by email (org_id, email, level, name), or change a level (org_id, user_id, level)',
    tags,
    body: PermissionBody,
    responses: {
      200: { description: "The organization's users", schema: UsersResponse },
      400: error('Invalid input'),
      404: error('User not found (update)'),
      409: error(
        'That user already has access to this organization. / An organization needs at least one admin.',
      ),
    },
    handler: (ctx) =>
      isAdd(ctx.body)
        ? users.addPermission(ctx.deps, ctx.user, auditBy(ctx), ctx.body)
        : users.updatePermission(ctx.deps, ctx.user, auditBy(ctx), ctx.body),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/user/permission',
    access: { level: 'admin', capability: 'users.manage', org: orgFromBody },
    summary: "Remove a user's access to the organization",
    tags,
    body: RemovePermissionRequest,
    responses: {
      200: { description: "The organization's users", schema: UsersResponse },
      404: error('User not found'),
      409: error('An organization needs at least one admin.'),
    },
    handler: (ctx) => users.removePermission(ctx.deps, ctx.user, auditBy(ctx), ctx.body),
  }),
  defineRoute({
    method: 'put',
    path: '/api/user/:id',
    access: { level: 'admin', capability: 'users.manage', org: orgFromBody },
    summary: 'Change the name and email of a user of the organization',
    tags,
    params: IdParams,
    body: UpdateUserRequest,
    responses: {
      200: { description: "The organization's users", schema: UsersResponse },
      403: error('The user belongs to another organization, or is a super user (admins cannot change them)'),
      404: error('User not found'),
      409: error('Another user already uses that email address.'),
    },
    handler: ({ deps, user, params, body }) => users.updateUser(deps, user, params.id, body),
  }),
  defineRoute({
    method: 'post',
    path: '/api/user/invitation',
    access: { level: 'admin', capability: 'users.manage', org: orgFromBody },
    summary: 'Send a pending invitation to an existing account again, with a new link',
    tags,
    body: InvitationRequest,
    responses: {
      200: { description: "The organization's users", schema: UsersResponse },
      404: error('Invitation not found'),
    },
    handler: (ctx) => invitations.resendInvitation(ctx.deps, ctx.user, auditBy(ctx), ctx.body),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/user/invitation',
    access: { level: 'admin', capability: 'users.manage', org: orgFromBody },
    summary: 'Cancel a pending invitation (its link stops working)',
    tags,
    body: InvitationRequest,
    responses: {
      200: { description: "The organization's users", schema: UsersResponse },
      404: error('Invitation not found'),
    },
    handler: (ctx) => invitations.cancelInvitation(ctx.deps, auditBy(ctx), ctx.body),
  }),
  defineRoute({
    method: 'post',
    path: '/api/invitation',
    access: 'anonymous',
    summary: 'What an invitation link offers (organization, level, who invited), before its owner accepts',
    tags,
    body: InvitationTokenRequest,
    rateLimit: { failuresOnly: true },
    responses: {
      200: { description: 'The invitation', schema: InvitationPreview },
      400: error('The link is invalid, expired or cancelled'),
    },
    handler: ({ deps, body }) => invitations.previewInvitation(deps, body.token),
  }),
  defineRoute({
    method: 'post',
    path: '/api/invitation/accept',
    access: 'anonymous',
    summary: 'Accept an invitation: join the organization, and sign in',
    tags,
    body: InvitationTokenRequest,
    rateLimit: { failuresOnly: true },
    responses: {
      200: { description: 'Joined and signed in', schema: AcceptInvitationResponse },
      400: error('The link is invalid, used, expired or cancelled'),
    },
    handler: ({ deps, body, ip, c }) =>
      invitations.acceptInvitation(deps, body.token, { ip, userAgent: c.req.header('user-agent') ?? null }),
  }),
];
