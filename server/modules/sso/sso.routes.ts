import * as z from 'zod/mini';
import { MessageResponse } from '../../../src/contract/auth.ts';
import {
  SsoApproveRequest,
  SsoCallbackQuery,
  SsoCompleteRequest,
  SsoCompleteResponse,
  SsoConnectionRequest,
  SsoLookup,
  SsoLookupQuery,
  SsoSettings,
  SsoStartQuery,
} from '../../../src/contract/sso.ts';
import { IdParams, idSegment, orgFromIdParam } from '../../http/params.ts';
import { defineRoute } from '../../http/route.ts';
import * as sso from './sso.service.ts';

const error = (description: string) => ({ description, schema: MessageResponse });
const tags = ['sso'];
const admin = { level: 'admin', capability: 'users.manage', org: orgFromIdParam } as const;
const RequestParams = z.object({ id: idSegment, requestId: idSegment });
const redirect = { 303: { description: 'To the provider, or back to the login page' } };

export const ssoRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/organization/:id/sso',
    access: admin,
    summary: 'The organization’s single sign-on connection (never its secret) and waiting join requests',
    tags,
    params: IdParams,
    responses: { 200: { description: 'The connection', schema: SsoSettings } },
    handler: ({ deps, params }) => sso.ssoSettings(deps, params.id),
  }),
  defineRoute({
    method: 'put',
    path: '/api/organization/:id/sso',
    access: admin,
    summary: 'Connect the organization to an OpenID Connect provider, or change the connection',
    tags,
    params: IdParams,
    body: SsoConnectionRequest,
    responses: {
      200: { description: 'The connection', schema: SsoSettings },
      400: error('Invalid field, public email domain, or the provider could not be discovered'),
      403: error('A domain that is not the admin’s own'),
      409: error('A domain already signs in through another organization'),
    },
    handler: ({ deps, params, body, user, ip, c }) =>
      sso.saveConnection(deps, params.id, user, body, { ip, userAgent: c.req.header('user-agent') }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/organization/:id/sso',
    access: admin,
    summary: 'Remove the organization’s single sign-on connection',
    tags,
    params: IdParams,
    responses: {
      200: { description: 'No connection', schema: SsoSettings },
      404: error('Single sign-on is not set up for this organization'),
    },
    handler: ({ deps, params, user, ip, c }) =>
      sso.removeConnection(deps, params.id, user, { ip, userAgent: c.req.header('user-agent') }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/organization/:id/sso/requests/:requestId/approve',
    access: admin,
    summary: 'Approve a first single sign-on: the person joins at the level given',
    tags,
    params: RequestParams,
    body: SsoApproveRequest,
    responses: {
      200: { description: 'The connection', schema: SsoSettings },
      404: error('Request not found'),
    },
    handler: ({ deps, params, body, user, ip, c }) =>
      sso.approveRequest(deps, params.id, params.requestId, body.level, user, {
        ip,
        userAgent: c.req.header('user-agent'),
      }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/organization/:id/sso/requests/:requestId',
    access: admin,
    summary: 'Decline a first single sign-on',
    tags,
    params: RequestParams,
    responses: {
      200: { description: 'The connection', schema: SsoSettings },
      404: error('Request not found'),
    },
    handler: ({ deps, params, user, ip, c }) =>
      sso.declineRequest(deps, params.id, params.requestId, user, {
        ip,
        userAgent: c.req.header('user-agent'),
      }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/auth/sso/lookup',
    access: 'anonymous',
    summary: 'Whether an email’s domain signs in through a provider, and the provider’s name (nothing else)',
    tags,
    query: SsoLookupQuery,
    rateLimit: { bucket: 'sso-lookup', ipFactor: 5 },
    responses: {
      200: { description: 'The provider, or null', schema: SsoLookup },
      429: error('Too many attempts'),
    },
    handler: ({ deps, query }) => sso.lookupSso(deps.db, query.email),
  }),
  defineRoute({
    method: 'get',
    path: '/api/auth/sso/start',
    access: 'anonymous',
    summary: 'Start single sign-on at the provider of the email’s domain (a browser navigation)',
    tags,
    query: SsoStartQuery,
    rateLimit: { bucket: 'sso-start', ipFactor: 5 },
    responses: { ...redirect, 429: error('Too many attempts') },
    handler: ({ deps, query, c }) => sso.startSso(deps, c, query),
  }),
  defineRoute({
    method: 'get',
    path: sso.callbackPath,
    access: 'anonymous',
    summary: 'The provider’s redirect back (authorization code, state): signs in or explains why not',
    tags,
    query: SsoCallbackQuery,
    responses: redirect,
    handler: ({ deps, query, c }) => sso.ssoCallback(deps, c, query),
  }),
  defineRoute({
    method: 'post',
    path: '/api/auth/sso/complete',
    access: 'anonymous',
    summary: 'Exchange the one-time token of a finished single sign-on for a session',
    tags,
    body: SsoCompleteRequest,
    rateLimit: { failuresOnly: true },
    responses: {
      200: { description: 'Signed in', schema: SsoCompleteResponse },
      400: error('The token is invalid, used or expired'),
    },
    handler: ({ deps, body, ip, c }) =>
      sso.completeSso(deps, body.token, { ip, userAgent: c.req.header('user-agent') }),
  }),
];
