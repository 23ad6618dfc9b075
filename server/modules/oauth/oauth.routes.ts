import * as z from 'zod';
import { MessageResponse } from '../../../src/contract/auth.ts';
import {
  AuthorizationParams,
  ConnectedAppList,
  ConsentAnswer,
  ConsentDecision,
  ConsentInfo,
  PartnerAppInput,
  PartnerAppList,
  PartnerAppSecretIssued,
} from '../../../src/contract/oauth.ts';
import { PublicPartnerApp } from '../../../src/contract/oauth-public.ts';
import { IdParams, idSegment, orgFromIdParam } from '../../http/params.ts';
import { type AnyRoute, defineRoute } from '../../http/route.ts';
import * as oauth from './oauth.service.ts';
import * as apps from './partner-apps.service.ts';

/**
 * Partner apps connecting through OAuth 2.0 (issue #25): the protocol endpoints under `/oauth`
 * and the server's metadata, the consent page's two calls, an organization's Connected apps, and
 * the super users' registration of apps.
 */

const error = (description: string) => ({ description, schema: MessageResponse });
const field = (max: number) => z.string().max(max).optional();
const clientFields = { client_id: field(200), client_secret: field(200) };
const TokenForm = z.object({
  ...clientFields,
  grant_type: field(100),
  code: field(200),
  redirect_uri: field(2000),
  code_verifier: field(200),
  refresh_token: field(200),
  scope: field(1000),
});
const TokenTypeForm = z.object({ ...clientFields, token: field(200), token_type_hint: field(50) });
const noStore = { 'cache-control': 'no-store', pragma: 'no-cache' };
const oauthTags = ['oauth'];
const oauthErrors = {
  400: error(
    'invalid_request, invalid_grant, invalid_scope or unsupported_grant_type (with error and error_description)',
  ),
  401: error('invalid_client (with error and error_description)'),
  415: error('The body must be application/x-www-form-urlencoded'),
};

/**
 * The consent page: its own small document (not a route of the portal's router, whose first load
 * stays as it is), loading the consent element and the toaster. It shares the portal's session
 * (the same origin's local storage); sign-in is the portal's page, which comes back here.
 */
const consentPage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Connect an app · Twofold</title>
<style>body{margin:0;background:#f5f6f8;font-family:system-ui,sans-serif}main{padding:32px 16px}</style>
<script type="module" src="/elements/twofold-oauth-consent.js"></script>
<script type="module" src="/elements/twofold-toaster.js"></script>
</head>
<body>
<main><twofold-oauth-consent></twofold-oauth-consent><twofold-toaster></twofold-toaster></main>
</body>
</html>
`;

export const oauthRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/.well-known/oauth-authorization-server',
    access: 'anonymous',
    summary: "The authorization server's metadata (RFC 8414)",
    tags: oauthTags,
    cors: true,
    handler: async ({ deps }) => oauth.metadata(deps.config),
  }),
  defineRoute({
    method: 'get',
    path: '/oauth/authorize',
    access: 'anonymous',
    summary:
      'The authorization endpoint (RFC 6749 §4.1.1, PKCE S256 required): the consent page, or back to the redirect URI with an error',
    tags: oauthTags,
    query: AuthorizationParams,
    responses: {
      200: { description: 'The consent page (HTML)' },
      302: { description: 'The redirect URI with an error' },
      400: error('Unknown client or redirect URI'),
    },
    handler: async ({ deps, query, c }) => {
      const refused = await oauth.authorizeRedirect(deps.db, deps.config, query);
      return refused ? c.redirect(refused, 302) : c.html(consentPage);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/oauth/token',
    access: 'anonymous',
    summary: 'The token endpoint: exchange a code (with its PKCE verifier), or a refresh token, for tokens',
    tags: oauthTags,
    body: TokenForm,
    bodyKind: 'form',
    responses: { 200: { description: 'access_token, refresh_token, expires_in, scope' }, ...oauthErrors },
    handler: async ({ deps, body, c }) => {
      const app = await oauth.authenticateClient(deps.db, c.req.header('authorization'), body);
      return c.json(await oauth.token(deps.db, app, body), 200, noStore);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/oauth/revoke',
    access: 'anonymous',
    summary: 'Token revocation (RFC 7009): a refresh token ends the whole connection, an access token itself',
    tags: oauthTags,
    body: TokenTypeForm,
    bodyKind: 'form',
    responses: { 200: { description: 'Revoked (or not this client’s token)' }, ...oauthErrors },
    handler: async ({ deps, body, c }) => {
      const app = await oauth.authenticateClient(deps.db, c.req.header('authorization'), body);
      await oauth.revoke(deps.db, app, body);
      return c.json({}, 200, noStore);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/oauth/introspect',
    access: 'anonymous',
    summary: "Token introspection (RFC 7662), for the client's own tokens",
    tags: oauthTags,
    body: TokenTypeForm,
    bodyKind: 'form',
    responses: { 200: { description: 'active, scope, exp, organization_id …' }, ...oauthErrors },
    handler: async ({ deps, body, c }) => {
      const app = await oauth.authenticateClient(deps.db, c.req.header('authorization'), body);
      return c.json(await oauth.introspect(deps.db, app, body), 200, noStore);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/public/partner-apps/:clientId',
    access: 'anonymous',
    summary: "A partner app's name, logo and website, for the embedded registration's Connect button",
    tags: oauthTags,
    cors: true,
    params: z.object({ clientId: z.string().max(200) }),
    responses: {
      200: { description: 'The app', schema: PublicPartnerApp },
      404: error('Partner app not found'),
    },
    handler: async ({ deps, params }) => oauth.publicApp(deps.db, params.clientId),
  }),
  defineRoute({
    method: 'get',
    path: '/api/oauth/authorization',
    access: 'authenticated',
    summary: 'The consent page: the partner app, the scopes in words, the organizations the user may connect',
    tags: oauthTags,
    query: AuthorizationParams,
    responses: {
      200: { description: 'What to show', schema: ConsentInfo },
      400: error('Bad authorization request'),
    },
    handler: async ({ deps, user, query }) => oauth.consentInfo(deps.db, user, query),
  }),
  defineRoute({
    method: 'post',
    path: '/api/oauth/authorization',
    access: 'authenticated',
    summary:
      "The user's Allow (a code for the organization, which they must administer) or Deny (access_denied): where to send the answer",
    tags: oauthTags,
    body: ConsentDecision,
    responses: {
      200: { description: 'The redirect URI with the code or the error', schema: ConsentAnswer },
      400: error('Bad authorization request'),
      403: error('Not an administrator of the organization'),
    },
    handler: async ({ deps, user, body }) => oauth.decide(deps.db, deps.config, user, body),
  }),
  defineRoute({
    method: 'get',
    path: '/api/organization/:id/connected-apps',
    access: { level: 'admin', org: orgFromIdParam },
    summary: 'The partner apps connected to the organization: scopes, since, last used',
    tags: oauthTags,
    params: IdParams,
    responses: { 200: { description: 'Connected apps', schema: ConnectedAppList } },
    handler: async ({ deps, params }) => oauth.connectedApps(deps.db, params.id),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/organization/:id/connected-apps/:grantId',
    access: { level: 'admin', org: orgFromIdParam },
    summary: 'Disconnect a partner app: its tokens stop working at once',
    tags: oauthTags,
    params: z.object({ id: idSegment, grantId: idSegment }),
    responses: {
      200: { description: 'Disconnected', schema: MessageResponse },
      404: error('Connected app not found'),
    },
    handler: async ({ deps, params, user, ip }) =>
      oauth.disconnect(deps.db, params.id, params.grantId, user, ip),
  }),
  defineRoute({
    method: 'get',
    path: '/api/partner-apps',
    access: 'super',
    summary: 'The registered partner apps (super users)',
    tags: oauthTags,
    responses: { 200: { description: 'Partner apps', schema: PartnerAppList } },
    handler: async ({ deps }) => apps.listPartnerApps(deps.db),
  }),
  defineRoute({
    method: 'post',
    path: '/api/partner-apps',
    access: 'super',
    summary: 'Register a partner app: its client id, and its client secret shown once',
    tags: oauthTags,
    body: PartnerAppInput,
    successStatus: 201,
    responses: { 201: { description: 'The app and its secret', schema: PartnerAppSecretIssued } },
    handler: async ({ deps, user, body }) => apps.createPartnerApp(deps.db, deps.config, user, body),
  }),
  defineRoute({
    method: 'put',
    path: '/api/partner-apps/:id',
    access: 'super',
    summary: "Edit a partner app's name, logo, website, redirect URIs, scopes and webhook",
    tags: oauthTags,
    params: IdParams,
    body: PartnerAppInput,
    responses: { 200: { description: 'The app' }, 404: error('Partner app not found') },
    handler: async ({ deps, params, body }) => apps.updatePartnerApp(deps.db, deps.config, params.id, body),
  }),
  defineRoute({
    method: 'post',
    path: '/api/partner-apps/:id/secret',
    access: 'super',
    summary: 'Rotate the client secret: a new one, shown once; the old one keeps working for 7 days',
    tags: oauthTags,
    params: IdParams,
    responses: {
      200: { description: 'The new secret', schema: PartnerAppSecretIssued },
      404: error('Partner app not found'),
    },
    handler: async ({ deps, params }) => apps.rotateSecret(deps.db, params.id),
  }),
];
