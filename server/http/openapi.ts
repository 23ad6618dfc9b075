import * as z from 'zod';
import type * as core from 'zod/v4/core';
import type { AnyRoute } from './route.ts';

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: core.$ZodType): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
  }) as JsonSchema;
  return rest;
}

/** Hono's `/api/organization/:id` is OpenAPI's `/api/organization/{id}`. */
function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function parameters(schema: core.$ZodType | undefined, location: 'path' | 'query') {
  if (!schema) return [];
  const json = jsonSchema(schema);
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || required.has(name),
    schema: property,
  }));
}

function describeAccess(route: AnyRoute): string {
  const access = route.access;
  if (typeof access === 'string') return access;
  return `${access.level} on the organization`;
}

/**
 * The OpenAPI 3.1 document of the API, generated from the route table (the same schemas that
 * validate requests), so it cannot drift from what the server does.
 */
export function openApiDocument(
  routes: readonly AnyRoute[],
  info: { title: string; version: string; description?: string },
  /** How callers authenticate: a staff JWT (the default) or another bearer credential (an API key). */
  bearer: { bearerFormat: string; description?: string } = { bearerFormat: 'JWT' },
) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const responses: Record<string, unknown> = {};
    for (const [status, response] of Object.entries(route.responses ?? {})) {
      if (!response) continue;
      responses[status] = {
        description: response.description,
        ...(response.schema
          ? { content: { 'application/json': { schema: jsonSchema(response.schema) } } }
          : {}),
      };
    }
    if (Object.keys(responses).length === 0)
      responses[String(route.successStatus ?? 200)] = { description: 'OK' };
    const operation = {
      summary: route.summary,
      tags: route.tags ?? [],
      'x-access': describeAccess(route),
      ...(route.tokenInQuery
        ? { security: [{ queryToken: [] }] }
        : route.access === 'anonymous'
          ? {}
          : { security: [{ bearer: [] }] }),
      parameters: [...parameters(route.params, 'path'), ...parameters(route.query, 'query')],
      ...(route.body
        ? {
            requestBody: {
              required: route.bodyKind !== 'optional-json',
              content: {
                [route.bodyKind === 'multipart' ? 'multipart/form-data' : 'application/json']: {
                  schema: jsonSchema(route.body),
                },
              },
            },
          }
        : {}),
      responses,
    };
    const path = openApiPath(route.path);
    paths[path] = { ...paths[path], [route.method]: operation };
  }
  return {
    openapi: '3.1.0',
    info,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', ...bearer },
        // The links a browser opens (billing, CSV download): the token is their `?token=`.
        queryToken: { type: 'apiKey', in: 'query', name: 'token' },
      },
    },
    paths,
  };
}
