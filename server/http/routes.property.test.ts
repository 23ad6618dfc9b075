import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../app.ts';
import { call, demoOrganizationIds, signIn } from '../test-helpers.ts';
import { createTestContext, type TestContext } from '../testing.ts';
import type { AnyRoute } from './route.ts';

/**
 * Every route of the app's own table, fed malformed input: whatever a caller sends, the answer is
 * never a 5xx, and every error is JSON with a message. New routes join automatically.
 */

let t: TestContext;
let token = '';
/** A live API key of the admin's organization, for the public API's routes (/api/v1). */
let apiKey = '';
beforeAll(async () => {
  t = await createTestContext({ config: { logRequests: false } });
  token = await signIn(t.app, 'admin@twofold.test');
  const { hopeHarbor } = await demoOrganizationIds(t.db);
  apiKey = (await call(t.app, 'GET', `/api/organization/${hopeHarbor}/api-key`, { token })).json.api_key
    .secret;
});
afterAll(() => t.close());

const keys = fc.constantFrom(
  'email',
  'password',
  'token',
  'redirect',
  'term',
  'id',
  'name',
  'level',
  '__proto__',
  '',
);

const segment = fc.oneof(
  fc.constantFrom(
    '1',
    '0',
    '-1',
    '1.5',
    '1e3',
    '2147483648',
    '99999999999999999999',
    'NaN',
    'null',
    ' ',
    '%',
    '%zz',
    '..',
  ),
  fc.integer().map(String),
  fc.string({ unit: 'grapheme', maxLength: 30 }).map(encodeURIComponent),
  fc.string({ maxLength: 30 }).map(encodeURIComponent),
);

const jsonValue = fc.jsonValue({ maxDepth: 3 });

const body = fc.oneof(
  jsonValue.map((v) => JSON.stringify(v)),
  fc.dictionary(keys, fc.oneof(jsonValue, fc.string({ unit: 'grapheme' }))).map((v) => JSON.stringify(v)),
  fc
    .record({ email: fc.oneof(fc.emailAddress(), jsonValue), password: jsonValue })
    .map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 200 }),
  fc.constantFrom(
    '',
    '{',
    '{"email":',
    'null',
    '[]',
    '"x"',
    '\u0000',
    `{"email":"${'a'.repeat(300_000)}@b.co"}`,
    'x'.repeat(1_100_000),
  ),
);

const contentType = fc.constantFrom(
  undefined,
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'multipart/form-data; boundary=x',
  'application/x-www-form-urlencoded',
  '\u00ff garbage',
);

const authorization = fc.oneof(
  fc.constantFrom(undefined, 'Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', 'Bearer a.b.c', 'bearer null'),
  fc.constant('signed-in'),
  fc.constant('api-key'),
  fc.string({ maxLength: 100 }).map((s) => `Bearer ${s}`),
);

const query = fc.dictionary(
  keys,
  fc.oneof(fc.string({ unit: 'grapheme', maxLength: 300 }), fc.constant('a'.repeat(5000))),
  {
    maxKeys: 3,
  },
);

function headerValueOk(value: string): boolean {
  // The fetch API refuses header values with control or non-Latin-1 characters before sending.
  return /^[\t\x20-\x7e\x80-\xff]*$/.test(value);
}

async function send(
  route: AnyRoute,
  input: {
    params: string[];
    query: Record<string, string>;
    body: string;
    contentType: string | undefined;
    authorization: string | undefined;
  },
) {
  let i = 0;
  const path = route.path.replace(/:[A-Za-z0-9_]+/g, () => input.params[i++] ?? '1');
  const search = new URLSearchParams(input.query).toString();
  const headers = new Headers();
  if (input.contentType) headers.set('content-type', input.contentType);
  const auth =
    input.authorization === 'signed-in'
      ? `Bearer ${token}`
      : input.authorization === 'api-key'
        ? `Bearer ${apiKey}`
        : input.authorization;
  if (auth !== undefined && headerValueOk(auth)) headers.set('authorization', auth);
  const method = route.method.toUpperCase();
  return t.app.request(`${path}${search ? `?${search}` : ''}`, {
    method,
    headers,
    ...(method === 'GET' ? {} : { body: input.body }),
  });
}

describe('every route of the table, fed malformed input', () => {
  it('covers a non-empty table', () => {
    expect(routes.length).toBeGreaterThan(5);
  });

  for (const route of routes) {
    it(`${route.method.toUpperCase()} ${route.path} answers 2xx or 4xx with a JSON message, never 5xx`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            params: fc.array(segment, { minLength: 3, maxLength: 3 }),
            query,
            body,
            contentType,
            authorization,
          }),
          async (input) => {
            const response = await send(route, input);
            expect(response.status).toBeLessThan(500);
            if (response.status >= 400) {
              expect(response.headers.get('content-type')).toMatch(/^application\/json/);
              const json = (await response.json()) as { message?: unknown };
              expect(typeof json.message).toBe('string');
              expect((json.message as string).length).toBeGreaterThan(0);
            } else {
              await response.arrayBuffer();
            }
          },
        ),
        { numRuns: 40 },
      );
    });
  }
});
