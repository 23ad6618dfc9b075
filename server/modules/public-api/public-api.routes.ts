import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as z from 'zod';
import { MessageResponse } from '../../../src/contract/auth.ts';
import { StatisticsQuery, StatisticsResponse } from '../../../src/contract/dashboard.ts';
import { confirmStatuses } from '../../../src/contract/donations.ts';
import { integrationMessages } from '../../../src/contract/integrations.ts';
import { oauthScopes } from '../../../src/contract/oauth.ts';
import {
  ApiCompanyList,
  ApiCompanyQuery,
  ApiMatchCreate,
  ApiMatchList,
  ApiMatchListQuery,
  ApiMatchResponse,
} from '../../../src/contract/public-api.ts';
import type { Config } from '../../config.ts';
import { openApiDocument } from '../../http/openapi.ts';
import { IdParams } from '../../http/params.ts';
import { type AnyRoute, defineRoute } from '../../http/route.ts';
import { statistics } from '../dashboard/dashboard.service.ts';
import { oauthGuide } from './oauth-guide.ts';
import * as api from './public-api.service.ts';

const error = (description: string) => ({ description, schema: MessageResponse });
/** The statuses a partner may set: the staff's confirmations. */
const ApiMatchStatus = z.object({ status: z.enum(confirmStatuses) });
const tags = ['matches'];
const refusals = {
  401: error(
    `${integrationMessages.apiKeyMissing} / ${integrationMessages.apiKeyInvalid} / ${integrationMessages.apiKeyRevoked}`,
  ),
  429: error('Too many requests for this API key'),
};

/** The public API: the routes partner platforms call with an API key. */
export const publicApiRoutes: AnyRoute[] = [
  defineRoute({
    method: 'post',
    path: '/api/v1/matches',
    access: 'api-key',
    scope: 'matches:write',
    summary:
      "Create a match (a gift to be matched by the donor's employer). Its status is resolved as when staff create a match. Send an Idempotency-Key header to make retries safe: a repeated request gets the first answer.",
    tags,
    body: ApiMatchCreate,
    successStatus: 201,
    responses: {
      201: {
        description: 'The new match (or, for a repeated Idempotency-Key, the first answer)',
        schema: ApiMatchResponse,
      },
      400: error('Bad input'),
      404: error("Organization with id {id} not found (not the key's organization or one of its chapters)"),
      409: error('A donation with this transaction id already exists for this organization.'),
      422: error(integrationMessages.idempotencyMismatch),
      ...refusals,
    },
    handler: async ({ deps, body, apiKey, c }) => {
      const answer = await api.createMatch(
        deps.db,
        apiKey,
        body,
        c.req.header('idempotency-key'),
        deps.config,
      );
      if (answer.replayed) c.header('Idempotent-Replayed', 'true');
      return c.json(answer.body as object, answer.status);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/matches',
    access: 'api-key',
    scope: 'matches:read',
    summary:
      "The key's matches (its organization's and its chapters'), oldest first, a page at a time: pass next_cursor as cursor for the next page",
    tags,
    query: ApiMatchListQuery,
    responses: {
      200: { description: 'One page', schema: ApiMatchList },
      400: error('Bad query'),
      ...refusals,
    },
    handler: ({ deps, query, apiKey }) => api.listMatches(deps.db, apiKey, query),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/matches/:id',
    access: 'api-key',
    scope: 'matches:read',
    summary: 'One match',
    tags,
    params: IdParams,
    responses: {
      200: { description: 'The match', schema: ApiMatchResponse },
      404: error('Donation not found'),
      ...refusals,
    },
    handler: ({ deps, params, apiKey }) => api.getMatch(deps.db, apiKey, params.id),
  }),
  defineRoute({
    method: 'post',
    path: '/api/v1/matches/:id/status',
    access: 'api-key',
    scope: 'matches:status',
    summary:
      'Mark a match Submitted (the employer has the request), No Charge or Refunded, as staff confirm them: its history names the API, the status webhook goes out and the bill follows',
    tags,
    params: IdParams,
    body: ApiMatchStatus,
    responses: {
      200: { description: 'The match', schema: ApiMatchResponse },
      400: error(
        'Bad status, or not allowed for this match (No Charge is for unbilled matches, Refunded for billed ones)',
      ),
      404: error('Donation not found'),
      ...refusals,
    },
    handler: ({ deps, params, body, apiKey }) =>
      api.updateMatchStatus(deps.db, apiKey, params.id, body.status),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/statistics',
    access: 'api-key',
    scope: 'statistics:read',
    summary:
      "The Matching Overview of the key's organization with its chapters: each status group's gift sum (dollars), count and estimated match between from and to (yyyy-MM-dd; default Jan 1 to today), and per organization",
    tags: ['statistics'],
    query: StatisticsQuery,
    responses: {
      200: { description: 'The four groups', schema: StatisticsResponse },
      400: error('Bad dates'),
      ...refusals,
    },
    handler: ({ deps, query, apiKey }) => statistics(deps.db, apiKey.organizationId, query),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/companies',
    access: 'api-key',
    // The public employer catalogue (anonymous at /api/public/companies too): any granted scope.
    scope: 'any',
    summary:
      "Employers whose name contains q (at least 3 characters), with each matching program's method, ratio, minimum, maximum and deadline; at most 20",
    tags: ['companies'],
    query: ApiCompanyQuery,
    responses: {
      200: { description: 'Matching employers', schema: ApiCompanyList },
      400: error('Bad query'),
      ...refusals,
    },
    handler: ({ deps, query }) => api.searchCompanies(deps.db, query.q),
  }),
];

/** The public API's OpenAPI 3.1 document, generated from the routes above. */
export function publicApiDocument(config?: Pick<Config, 'publicUrl'>) {
  const document = openApiDocument(
    publicApiRoutes,
    {
      title: 'Twofold public API',
      version: '1.0.0',
      description: `Create and read match requests with an API key (Integrations → Manage API Keys in the portal), or as a partner app with an OAuth access token. Send either as \`Authorization: Bearer <token>\`.\n${oauthGuide}`,
    },
    {
      bearerFormat: 'API key or OAuth access token',
      description: 'An API key created in the portal (tf_...), or a partner app’s access token (tfat_...)',
    },
  );
  // Partner apps: the OAuth 2.0 authorization code flow, and each operation's scope.
  const base = config?.publicUrl ?? '';
  const components = document.components as { securitySchemes: Record<string, unknown> };
  components.securitySchemes.oauth2 = {
    type: 'oauth2',
    description: 'A partner app acting for an organization that allowed it (PKCE S256 required).',
    flows: {
      authorizationCode: {
        authorizationUrl: `${base}/oauth/authorize`,
        tokenUrl: `${base}/oauth/token`,
        refreshUrl: `${base}/oauth/token`,
        scopes: oauthScopes,
      },
    },
  };
  for (const route of publicApiRoutes) {
    const path = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const operation = document.paths[path]?.[route.method] as { security?: unknown[] } | undefined;
    if (!operation) continue;
    const scopes = route.scope && route.scope !== 'any' ? [route.scope] : [];
    operation.security = [{ bearer: [] }, { oauth2: scopes }];
  }
  // The one header the routes read besides Authorization (checked in the service).
  const create = document.paths['/api/v1/matches']?.post as { parameters: unknown[] } | undefined;
  create?.parameters.push({
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Any unique string (1 to 255 visible characters); a retry with the same key and body gets the first answer',
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  });
  return document;
}

const swaggerDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const assets: Record<string, { file: string; type: string }> = {
  'swagger-ui.css': { file: path.join(swaggerDir, 'swagger-ui.css'), type: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': {
    file: path.join(swaggerDir, 'swagger-ui-bundle.js'),
    type: 'text/javascript; charset=utf-8',
  },
};

const docsPage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Twofold API reference</title>
<link rel="stylesheet" href="/api/v1/docs/swagger-ui.css">
</head>
<body>
<main id="reference" aria-label="Twofold API reference"></main>
<script src="/api/v1/docs/swagger-ui-bundle.js"></script>
<script src="/api/v1/docs/init.js"></script>
</body>
</html>
`;
// A file of its own: the server's Content-Security-Policy allows no inline script.
const initScript = `window.ui = SwaggerUIBundle({ url: '/api/v1/openapi.json', dom_id: '#reference', deepLinking: true, tryItOutEnabled: true });\n`;

/** The document and its interactive reference (Swagger UI, served from this server: no CDN). */
export const publicApiDocsRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/api/v1/openapi.json',
    access: 'anonymous',
    summary: 'The OpenAPI 3.1 description of the public API, generated from its routes',
    tags: ['public-api'],
    responses: { 200: { description: 'OpenAPI 3.1 document' } },
    handler: async ({ deps }) => publicApiDocument(deps.config),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/docs',
    access: 'anonymous',
    summary: 'The interactive reference of the public API (try calls with your API key)',
    tags: ['public-api'],
    handler: async ({ c }) => c.html(docsPage),
  }),
  defineRoute({
    method: 'get',
    path: '/api/v1/docs/:asset',
    access: 'anonymous',
    summary: "The reference page's script and styles",
    tags: ['public-api'],
    params: z.object({ asset: z.string().max(100) }),
    handler: async ({ c, params }) => {
      if (params.asset === 'init.js')
        return c.body(initScript, 200, { 'content-type': 'text/javascript; charset=utf-8' });
      // Own keys only: 'valueOf' or '__proto__' must not find Object.prototype's members.
      const asset = Object.hasOwn(assets, params.asset) ? assets[params.asset] : undefined;
      if (!asset) return c.json({ message: 'Not found' }, 404);
      return c.body(await readFile(asset.file), 200, {
        'content-type': asset.type,
        'cache-control': 'public, max-age=86400',
      });
    },
  }),
];
