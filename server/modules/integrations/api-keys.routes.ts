import * as z from 'zod';
import { MessageResponse } from '../../../src/contract/auth.ts';
import { ApiKeyCreated, ApiKeyIssued, ApiKeyList, ApiKeyRename } from '../../../src/contract/integrations.ts';
import { IdParams, idSegment, orgFromIdParam } from '../../http/params.ts';
import { defineRoute } from '../../http/route.ts';
import { auditBy } from '../audit/audit.ts';
import * as keys from './api-keys.service.ts';

const error = (description: string) => ({ description, schema: MessageResponse });
const tags = ['integrations'];
const access = { level: 'admin', capability: 'keys.manage', org: orgFromIdParam } as const;
const KeyParams = z.object({ id: idSegment, keyId: idSegment });

export const apiKeysRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/organization/:id/partial/api_keys',
    access,
    summary: "The organization's API keys (each shown by its first characters only)",
    tags,
    params: IdParams,
    responses: { 200: { description: 'The keys', schema: ApiKeyList } },
    handler: ({ deps, params }) => keys.listApiKeys(deps.db, params.id),
  }),
  defineRoute({
    method: 'get',
    path: '/api/organization/:id/api-key',
    access,
    summary:
      'The newest live API key (its record only: the whole key is never shown again), or a first key, created now and shown whole once',
    tags,
    params: IdParams,
    responses: { 200: { description: 'The key; secret only when it was created now', schema: ApiKeyIssued } },
    handler: async (ctx) => {
      ctx.c.header('Cache-Control', 'no-store');
      return keys.currentApiKey(ctx.deps.db, ctx.params.id, ctx.user.id, auditBy(ctx));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/organization/:id/api-key',
    access,
    summary: 'Create a new API key; the answer holds the whole key, which is never shown again',
    tags,
    params: IdParams,
    responses: {
      200: { description: 'The new key, whole', schema: ApiKeyCreated },
      400: error('Too many keys'),
    },
    handler: async (ctx) => {
      ctx.c.header('Cache-Control', 'no-store');
      return keys.createApiKey(ctx.deps.db, ctx.params.id, ctx.user.id, auditBy(ctx));
    },
  }),
  defineRoute({
    method: 'put',
    path: '/api/organization/:id/api-key/:keyId',
    access,
    summary: 'Rename an API key',
    tags,
    params: KeyParams,
    body: ApiKeyRename,
    responses: { 200: { description: 'The key' }, 404: error('API key not found') },
    handler: ({ deps, params, body }) => keys.renameApiKey(deps.db, params.id, params.keyId, body.name),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/organization/:id/api-key/:keyId',
    access,
    summary: 'Delete (revoke) an API key: requests made with it are refused from now on',
    tags,
    params: KeyParams,
    responses: { 200: { description: 'Deleted', schema: MessageResponse }, 404: error('API key not found') },
    handler: (ctx) => keys.revokeApiKey(ctx.deps.db, ctx.params.id, ctx.params.keyId, auditBy(ctx)),
  }),
];
