import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import type * as core from 'zod/v4/core';
import { matchPagePath } from '../../src/contract/setup.ts';
import { routes } from '../app.ts';
import {
  companies,
  documents,
  donationNotifications,
  donations,
  donors,
  notifees,
  users,
} from '../db/schema.ts';
import { demoOrganizationNames } from '../db/seed.ts';
import { signDonorToken } from '../modules/auth/tokens.ts';
import { call, demoOrganizationIds, signIn } from '../test-helpers.ts';
import { createTestContext, type TestContext, testDb } from '../testing.ts';
import type { AnyRoute } from './route.ts';

/**
 * Every route of the app's own table, fed hostile input: whatever a caller sends, the answer is
 * never a 5xx, and every error is JSON with a message. New routes join automatically.
 *
 * The requests are built from each route's own schemas, so they get past the parts of validation
 * they do not attack and reach the handler and the database: every path parameter, query value,
 * JSON key and value in turn carries a NUL, a lone surrogate, an integer beyond the columns'
 * range, a decimal where an id belongs, an impossible date, a huge string or nested junk, the
 * rest of the request being valid. A random phase then mixes several hostile fields with junk
 * bodies, headers and tokens.
 */

let t: TestContext;
const tokens: Record<'super' | 'admin' | 'donor' | 'csrf' | 'apiKey', string> = {
  super: '',
  admin: '',
  donor: '',
  csrf: '',
  /** A live API key of Hope Harbor, for the public API's routes (/api/v1). */
  apiKey: '',
};
const ids = {
  org: 0,
  donation: 0,
  notification: 0,
  notifee: 0,
  document: 0,
  readUser: 0,
  company: 0,
  // Records the delete routes may remove, so the other routes keep theirs.
  doomedDonation: 0,
  doomedDocument: 0,
  doomedNotifee: 0,
  doomedNotifee2: 0,
  doomedUser: 0,
  /** A registered partner app (OAuth client) and its live connection to Hope Harbor. */
  partnerApp: 0,
};
/** The partner app's client credentials, so the /oauth endpoints get past client authentication. */
const partnerClient = { id: '', secret: '' };
const partnerRedirect = 'https://partner.example/callback';
/** A valid PKCE S256 challenge (of any verifier). */
const pkceChallenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
let slug = '';
let csvToken = '';
const tally = { requests: 0, serverErrors: 0 };
const pdf = '%PDF-1.7\n';

beforeAll(async () => {
  t = await createTestContext({ config: { logRequests: false } });
  tokens.super = await signIn(t.app, 'super@twofold.test');
  tokens.admin = await signIn(t.app, 'admin@twofold.test');
  ids.org = (await demoOrganizationIds(t.db)).hopeHarbor;
  tokens.apiKey = (
    await call(t.app, 'POST', `/api/organization/${ids.org}/api-key`, { token: tokens.admin })
  ).json.api_key.secret;
  const [company] = await t.db.select({ id: companies.id }).from(companies).limit(1);
  ids.company = company?.id ?? 1;
  const [donor] = await t.db
    .insert(donors)
    .values({ organization_id: ids.org, name: 'Fuzz Donor', email: 'donor@example.org' })
    .returning({ id: donors.id });
  const [donation] = await t.db
    .insert(donations)
    .values({
      organization_id: ids.org,
      amount_cents: 5000,
      donated_at: new Date('2025-03-01T12:00:00Z'),
      status_id: 23,
      donor_id: donor?.id ?? null,
    })
    .returning({ id: donations.id });
  ids.donation = donation?.id ?? 0;
  const [doomed] = await t.db
    .insert(donations)
    .values({ organization_id: ids.org, amount_cents: 5000, donated_at: new Date(), status_id: 23 })
    .returning({ id: donations.id });
  ids.doomedDonation = doomed?.id ?? 0;
  const [notification] = await t.db
    .insert(donationNotifications)
    .values({
      donation_id: ids.donation,
      organization_id: ids.org,
      status_id: 23,
      to_email: 'donor@example.org',
      subject: 'Where do you work?',
      html: '<p>Hello</p>',
      text: 'Hello',
      open_token_hash: 'fuzz-open-token',
    })
    .returning({ id: donationNotifications.id });
  ids.notification = notification?.id ?? 0;
  const notifeeRows = await t.db
    .insert(notifees)
    .values(
      ['', '-doomed', '-doomed2'].map((tail) => ({
        org_id: ids.org,
        email: `fuzz-notifee${tail}@example.org`,
      })),
    )
    .returning({ id: notifees.id });
  [ids.notifee, ids.doomedNotifee, ids.doomedNotifee2] = notifeeRows.map((r) => r.id) as [
    number,
    number,
    number,
  ];
  const docRows = await t.db
    .insert(documents)
    .values(
      ['W-9', 'Doomed'].map((name) => ({
        org_id: ids.org,
        name,
        file: 'missing.pdf',
        content_type: 'application/pdf',
      })),
    )
    .returning({ id: documents.id });
  [ids.document, ids.doomedDocument] = docRows.map((r) => r.id) as [number, number];
  const [reader] = await t.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, 'reader@twofold.test'));
  ids.readUser = reader?.id ?? 0;
  const [writer] = await t.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, 'writer@twofold.test'));
  ids.doomedUser = writer?.id ?? 0;
  slug = encodeURIComponent(matchPagePath(demoOrganizationNames.hopeHarbor).slice('/match/'.length));
  tokens.donor = await signDonorToken(t.config.jwtSecret, 'donor@example.org');
  tokens.csrf = (
    (await (await t.app.request('/api/csrf-token')).json()) as { csrf_token: string }
  ).csrf_token;
  const link = (await (
    await t.app.request(`/api/donation/${ids.org}/csv-token`, {
      headers: { authorization: `Bearer ${tokens.super}` },
    })
  ).json()) as { url: string };
  csvToken = new URL(link.url, 'http://x').searchParams.get('token') ?? '';
  const registered = (await (
    await t.app.request('/api/partner-apps', {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.super}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Fuzz Partner',
        website: 'https://partner.example',
        redirect_uris: [partnerRedirect],
        scopes: ['matches:read', 'matches:write'],
      }),
    })
  ).json()) as { app: { id: number; client_id: string }; client_secret: string };
  ids.partnerApp = registered.app.id;
  partnerClient.id = registered.app.client_id;
  partnerClient.secret = registered.client_secret;
  for (const [name, id] of Object.entries(ids)) expect(id, name).toBeGreaterThan(0);
  expect(csvToken).not.toBe('');
});

/** A valid value for a path parameter: an existing record of the kind the route names. */
function validParam(route: AnyRoute, name: string): string {
  const doomed = route.method === 'delete';
  if (name === 'id') {
    if (doomed && route.path === '/api/donation/:id') return String(ids.doomedDonation);
    if (/^\/api\/donation\/:id\/csv/.test(route.path)) return String(ids.org);
    if (/^\/api\/(donor\/)?donation\/:id|^\/donation\/:id/.test(route.path)) return String(ids.donation);
    if (route.path.startsWith('/api/notification/:id')) return String(ids.notification);
    if (route.path.startsWith('/api/user/:id')) return String(ids.readUser);
    if (route.path.startsWith('/api/partner-apps/:id')) return String(ids.partnerApp);
    if (route.path.startsWith('/api/v1/matches/:id')) return String(ids.donation);
    return String(ids.org);
  }
  if (name === 'notifeeId')
    return String(
      doomed ? (route.path.startsWith('/api') ? ids.doomedNotifee : ids.doomedNotifee2) : ids.notifee,
    );
  if (name === 'docId') return String(doomed ? ids.doomedDocument : ids.document);
  if (name === 'slug') return slug;
  if (name === 'plan') return 'flat_20';
  if (name === 'text') return 'Acme';
  return '1';
}

/** Values for fields the schemas cannot tell a valid value for (which id exists), by name. */
const fieldValues = (): Record<string, unknown> => ({
  org_id: ids.org,
  user_id: ids.readUser,
  company_id: ids.company,
  donation_ids: [ids.donation],
  redirect: '/portal',
});

const csv = () =>
  new File(
    [
      `Donor Name,Amount,Date,Transaction ID,Organization\nFuzz Donor,50,2025-03-01,fuzz-${Math.random()},"${demoOrganizationNames.hopeHarbor}"\n`,
    ],
    'donations.csv',
    { type: 'text/csv' },
  );

/** An authorization request the partner app may make (the consent page's calls and /oauth/authorize). */
const authorizationParams = () => ({
  response_type: 'code',
  client_id: partnerClient.id,
  redirect_uri: partnerRedirect,
  scope: 'matches:read',
  state: 'fuzz-state',
  code_challenge: pkceChallenge,
  code_challenge_method: 'S256',
});
/** A form the client authenticates with, so the fuzzed fields reach the grant's own checks. */
const oauthForm = (base: Request, fields: Record<string, string>): Request => ({
  ...base,
  auth: 'none',
  body: { client_id: partnerClient.id, client_secret: partnerClient.secret, ...fields },
});

/** Where the schemas alone do not make a request that reaches the handler. */
const fixtures: Record<string, (base: Request) => Request> = {
  'get /oauth/authorize': (base) => ({
    ...base,
    query: Object.entries(authorizationParams()).map(([k, v]) => [k, encodeURIComponent(v)]),
  }),
  'get /api/oauth/authorization': (base) => ({
    ...base,
    auth: 'admin',
    query: Object.entries(authorizationParams()).map(([k, v]) => [k, encodeURIComponent(v)]),
  }),
  'post /api/oauth/authorization': (base) => ({
    ...base,
    auth: 'admin',
    body: { ...authorizationParams(), decision: 'allow', organization_id: ids.org },
  }),
  'post /oauth/token': (base) =>
    oauthForm(base, {
      grant_type: 'refresh_token',
      refresh_token: 'tfrt_fuzz',
      redirect_uri: partnerRedirect,
    }),
  'post /oauth/revoke': (base) => oauthForm(base, { token: 'tfrt_fuzz', token_type_hint: 'refresh_token' }),
  'post /oauth/introspect': (base) => oauthForm(base, { token: 'tfat_fuzz' }),
  'post /api/user/permission': (base) => ({
    ...base,
    body: { org_id: ids.org, email: 'fuzz-added@example.org', level: 'read', name: 'Fuzz Added' },
  }),
  'delete /api/user/permission': (base) => ({ ...base, body: { org_id: ids.org, user_id: ids.doomedUser } }),
  'put /api/organization/:id/partial': (base) => ({
    ...base,
    query: [['mission', 'Fuzzed%20mission']],
    body: {},
  }),
  'post /api/organization/:id/upload': (base) => ({
    ...base,
    body: { file: new File([pdf], 'w9.pdf', { type: 'application/pdf' }), name: 'Fuzz doc' },
  }),
  'post /api/organization/:id/donation': (base) => ({ ...base, body: { ...(base.body as object), id: 0 } }),
  'post /organization/register': (base) => ({
    ...base,
    auth: `Bearer ${tokens.csrf}`,
    headers: { 'x-csrf-token': tokens.csrf },
  }),
  'get /api/donation/:id/csv': (base) => ({ ...base, query: [['token', csvToken]], auth: 'none' }),
  'get /api/donor/donation/:id': (base) => ({ ...base, auth: `Bearer ${tokens.donor}` }),
  'put /api/donor/donation/:id': (base) => ({ ...base, auth: `Bearer ${tokens.donor}` }),
  'post /api/organization/:id/donation/import-file/Test': (base) => ({
    ...base,
    body: { donations: csv(), no_company: 'true' },
  }),
  'post /api/organization/:id/donation/import-file/Upload': (base) => ({
    ...base,
    body: {
      donations: csv(),
      type: 'Upload',
      no_company: 'true',
      map: JSON.stringify({
        donor_name: 'donor.name',
        amount: 'amount',
        date: 'donated_at',
        transaction_id: 'transaction_id',
        organization: 'organization_name',
      }),
    },
  }),
};

afterAll(async () => {
  // The figures the issue asks for, per database.
  console.log(
    `route fuzz (${testDb}): ${tally.requests} requests over ${routes.length} routes, ${tally.serverErrors} answered 5xx`,
  );
  await t.close();
});

// ---------------------------------------------------------------------------------------------
// Hostile values

const huge = 'x'.repeat(100_000);
/** Strings no field may hold or that no column fits, as JSON values (decoded). */
const hostileStrings = [
  'a\u0000b',
  '\u0000',
  '\ud800',
  'x\udc00y',
  '2026-13-45',
  '0000-00-00',
  '2026-02-30',
  '2026-13-45 12:00:00',
  '1.5',
  '2147483648',
  '1099511627776',
  '-1',
  '1e308',
  'NaN',
  '999999999.99',
  huge,
];
const hostileNumbers = [2 ** 31, 2 ** 40, -1, 0, 1.5, 1e308, -1e308, 999_999_999.99, 2 ** 53 + 2];
const nestedJunk: unknown[] = [
  { a: { b: { c: [1, [2, [3, { d: '\u0000' }]]] } } },
  [[[[]]]],
  { '\u0000': 1 },
  { '\ud800': 'x' },
  [2 ** 31],
  [1.5, '\u0000'],
  null,
  true,
];
const hostileJson: unknown[] = [...hostileStrings, ...hostileNumbers, ...nestedJunk];
/** Raw, already percent-encoded forms for URLs (a lone surrogate can only travel encoded). */
const hostileUrl = [
  '%00',
  'a%00b',
  '%ED%A0%80',
  'a%ED%B0%80b',
  '%F0%9F',
  '%zz',
  '2026-13-45',
  '0000-00-00',
  '2026-02-30',
  '1.5',
  '2147483648',
  '1099511627776',
  '-1',
  '0',
  '1e308',
  'NaN',
  '999999999.99',
  'x'.repeat(5000),
];

// ---------------------------------------------------------------------------------------------
// Valid values, read from the routes' own schemas

type Def = {
  type: string;
  shape?: Record<string, core.$ZodType>;
  element?: core.$ZodType;
  innerType?: core.$ZodType;
  in?: core.$ZodType;
  options?: core.$ZodType[];
  valueType?: core.$ZodType;
  entries?: Record<string, string | number>;
  values?: unknown[];
};
const defOf = (schema: core.$ZodType) => schema._zod.def as unknown as Def;

const stringCandidates = [
  'Test Name',
  'donor@example.org',
  '2025-03-01',
  '2025-03-01 12:00:00',
  'https://example.org',
  '1',
  '50',
  'true',
  'read',
  'a-sixteen-char-token-0123456789',
];
const numberCandidates = [1, 50, 2];

const passing = (schema: core.$ZodType, candidates: unknown[]) => {
  const ok = candidates.filter((c) => {
    try {
      return z.safeParse(schema, c).success;
    } catch {
      return false;
    }
  });
  return ok.length > 0 ? ok : candidates;
};

/** One valid-looking value for a schema (the first that its own checks accept), deterministic. */
function example(schema: core.$ZodType, outer: core.$ZodType = schema, depth = 0): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case 'string':
      return passing(outer, stringCandidates)[0];
    case 'number':
      return passing(outer, numberCandidates)[0];
    case 'boolean':
      return true;
    case 'enum':
      return Object.values(def.entries ?? {})[0];
    case 'literal':
      return def.values?.[0];
    case 'object': {
      const out: Record<string, unknown> = {};
      const known = fieldValues();
      for (const [key, field] of Object.entries(def.shape ?? {})) {
        const value = known[key];
        out[key] =
          value !== undefined && z.safeParse(field, value).success ? value : example(field, field, depth + 1);
      }
      return out;
    }
    case 'array':
      return def.element && depth < 4 ? [example(def.element, def.element, depth + 1)] : [];
    case 'record':
      return def.valueType ? { field: example(def.valueType, def.valueType, depth + 1) } : {};
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return def.innerType ? example(def.innerType, outer, depth) : undefined;
    case 'pipe':
      return def.in ? example(def.in, outer, depth) : undefined;
    case 'union':
      return def.options?.[0] ? example(def.options[0], def.options[0], depth) : undefined;
    case 'file':
      return new File(['%PDF-1.7\n'], 'doc.pdf', { type: 'application/pdf' });
    default:
      return 'x';
  }
}

/** The field names of an object schema (through optional, pipe…), or none. */
function shapeOf(schema: core.$ZodType | undefined): Record<string, core.$ZodType> {
  if (!schema) return {};
  const def = defOf(schema);
  if (def.type === 'object') return def.shape ?? {};
  if (def.in) return shapeOf(def.in);
  if (def.innerType) return shapeOf(def.innerType);
  return {};
}

type Path = (string | number)[];

/** Every place in a JSON value a hostile value can go: each value, down through objects and arrays. */
function pathsOf(value: unknown, prefix: Path = []): Path[] {
  const out: Path[] = [];
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      out.push([...prefix, i], ...pathsOf(v, [...prefix, i]));
    });
  } else if (value && typeof value === 'object' && !(value instanceof File)) {
    for (const [k, v] of Object.entries(value)) out.push([...prefix, k], ...pathsOf(v, [...prefix, k]));
  }
  return out;
}

function withValue(value: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path as [string | number, ...Path];
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<
    string | number,
    unknown
  >;
  copy[head] = withValue(copy[head], rest, replacement);
  return copy;
}

/** The same value with one more key, at the top level or inside the first nested object. */
function withKey(value: unknown, key: string): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const nested = Object.entries(value).find(([, v]) => v && typeof v === 'object' && !Array.isArray(v));
  if (nested) return { ...value, [nested[0]]: { ...(nested[1] as object), [key]: 'x' } };
  return { ...value, [key]: 'x' };
}

// ---------------------------------------------------------------------------------------------
// Requests

type Request = {
  /** Raw path segments, already encoded, by parameter name. */
  params: Record<string, string>;
  /** Raw query pairs, already encoded. */
  query: [string, string][];
  body: unknown;
  /** The body as sent, when it is not the JSON of `body`. */
  rawBody?: string;
  contentType?: string | undefined;
  headers?: Record<string, string>;
  auth: 'super' | 'admin' | 'none' | string;
};

const paramNames = (route: AnyRoute) =>
  [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1] as string);

/** A request the route's schemas accept (as far as schemas can tell). */
function validRequest(route: AnyRoute): Request {
  const params = Object.fromEntries(paramNames(route).map((n) => [n, validParam(route, n)]));
  const query = Object.entries(shapeOf(route.query))
    .map(([k, s]) => {
      const known = fieldValues()[k];
      return [k, typeof known === 'string' && z.safeParse(s, known).success ? known : example(s)] as const;
    })
    .filter((e): e is readonly [string, string] => typeof e[1] === 'string')
    .map(([k, v]) => [encodeURIComponent(k), encodeURIComponent(v)] as [string, string]);
  const body = route.body ? example(route.body) : undefined;
  const base: Request = {
    params,
    query,
    body,
    auth: route.access === 'api-key' ? `Bearer ${tokens.apiKey}` : 'super',
  };
  return fixtures[`${route.method} ${route.path}`]?.(base) ?? base;
}

function headerValueOk(value: string): boolean {
  // The fetch API refuses header values with control or non-Latin-1 characters before sending.
  return /^[\t\x20-\x7e\x80-\xff]*$/.test(value);
}

async function send(route: AnyRoute, request: Request) {
  const path = route.path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => request.params[name] ?? '1');
  const search = request.query.map(([k, v]) => `${k}=${v}`).join('&');
  const headers = new Headers(request.headers);
  const auth =
    request.auth === 'super' || request.auth === 'admin'
      ? `Bearer ${tokens[request.auth]}`
      : request.auth === 'api-key'
        ? `Bearer ${tokens.apiKey}`
        : request.auth;
  if (auth !== 'none' && headerValueOk(auth)) headers.set('authorization', auth);
  const method = route.method.toUpperCase();
  let body: BodyInit | undefined;
  if (method !== 'GET' && route.bodyKind === 'multipart' && request.rawBody === undefined) {
    const form = new FormData();
    const fields = request.body && typeof request.body === 'object' ? Object.entries(request.body) : [];
    for (const [k, v] of fields)
      form.set(k, v instanceof File ? v : typeof v === 'string' ? v : JSON.stringify(v));
    body = form;
  } else if (method !== 'GET' && route.bodyKind === 'form' && request.rawBody === undefined) {
    // OAuth's endpoints: an application/x-www-form-urlencoded form of the (hostile) fields.
    const fields = request.body && typeof request.body === 'object' ? Object.entries(request.body) : [];
    body = new URLSearchParams(
      fields.map(([k, v]) => [k, typeof v === 'string' ? v : (JSON.stringify(v) ?? '')]),
    ).toString();
    const type =
      request.contentType === undefined ? 'application/x-www-form-urlencoded' : request.contentType;
    if (type) headers.set('content-type', type);
  } else if (method !== 'GET') {
    body = request.rawBody ?? (request.body === undefined ? undefined : JSON.stringify(request.body));
    const type = request.contentType === undefined ? 'application/json' : request.contentType;
    if (type) headers.set('content-type', type);
  }
  tally.requests++;
  return t.app.request(`${path}${search ? `?${search}` : ''}`, {
    method,
    headers,
    ...(body ? { body } : {}),
  });
}

/** The answer must be below 500, and an error must be JSON with a message. */
async function check(route: AnyRoute, request: Request, what: string) {
  const response = await send(route, request);
  if (response.status >= 500) tally.serverErrors++;
  const label = `${route.method.toUpperCase()} ${route.path} with ${what}`;
  expect(response.status, label).toBeLessThan(500);
  if (response.status >= 400) {
    expect(response.headers.get('content-type'), label).toMatch(/^application\/json/);
    const json = (await response.json()) as { message?: unknown };
    expect(typeof json.message, label).toBe('string');
    expect((json.message as string).length, label).toBeGreaterThan(0);
  } else {
    await response.arrayBuffer();
  }
  return response.status;
}

const show = (v: unknown) => {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
};

// ---------------------------------------------------------------------------------------------

describe('every parameter of every route, each hostile value in turn', () => {
  it('covers a non-empty table', () => {
    expect(routes.length).toBeGreaterThan(5);
  });

  for (const route of routes) {
    it(`${route.method.toUpperCase()} ${route.path} never answers 5xx`, async () => {
      const base = validRequest(route);
      for (const name of Object.keys(base.params)) {
        for (const value of hostileUrl) {
          await check(route, { ...base, params: { ...base.params, [name]: value } }, `:${name}=${value}`);
        }
      }
      const queryKeys = [...new Set([...base.query.map(([k]) => k), 'term', 'token'])];
      for (const key of queryKeys) {
        for (const value of hostileUrl) {
          const query = [...base.query.filter(([k]) => k !== key), [key, value] as [string, string]];
          await check(route, { ...base, query }, `?${key}=${show(value)}`);
        }
      }
      for (const key of ['%00', 'a%00b', '%ED%A0%80']) {
        await check(route, { ...base, query: [...base.query, [key, 'x']] }, `query key ${key}`);
      }
      if (route.body && route.method !== 'get') {
        for (const path of pathsOf(base.body)) {
          const values = route.bodyKind === 'multipart' ? hostileStrings : hostileJson;
          for (const value of values) {
            await check(
              route,
              { ...base, body: withValue(base.body, path, value) },
              `body ${path.join('.')}=${show(value)}`,
            );
          }
        }
        if (route.bodyKind !== 'multipart') {
          for (const key of ['\u0000', 'a\u0000b', '\ud800']) {
            await check(route, { ...base, body: withKey(base.body, key) }, `body key ${JSON.stringify(key)}`);
          }
        }
      }
    });
  }
});

// ---------------------------------------------------------------------------------------------

const urlValue = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...hostileUrl) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }).map(encodeURIComponent) },
  {
    weight: 1,
    arbitrary: fc
      .string({ unit: 'binary', maxLength: 30 })
      .map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, ''))),
  },
);
const jsonHostile = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...hostileJson) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 50 }) },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.integer({ min: -(2 ** 53), max: 2 ** 53 }) },
);
const junkBody = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 200 }),
  fc.constantFrom(
    '',
    '{',
    '{"email":',
    'null',
    '[]',
    '"x"',
    '\u0000',
    '{"a":"\\ud800"}',
    'x'.repeat(1_100_000),
  ),
);
const contentType = fc.constantFrom(
  'application/json',
  'application/x-www-form-urlencoded',
  'application/json; charset=utf-8',
  '',
  'text/plain',
  'multipart/form-data; boundary=x',
  '\u00ff garbage',
);
const auth = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('super', 'admin') },
  { weight: 1, arbitrary: fc.constantFrom('none', 'Bearer', 'Bearer a.b.c', 'Basic dXNlcjpwYXNz') },
  { weight: 1, arbitrary: fc.constant('api-key') },
  { weight: 1, arbitrary: fc.string({ maxLength: 100 }).map((s) => `Bearer ${s}`) },
);

describe('every route of the table, fed random mixes of hostile input', () => {
  for (const route of routes) {
    it(`${route.method.toUpperCase()} ${route.path} answers 2xx or 4xx with a JSON message, never 5xx`, async () => {
      const base = validRequest(route);
      const bodyPaths = pathsOf(base.body);
      const names = Object.keys(base.params);
      const queryKeys = [...base.query.map(([k]) => k), 'term', 'id', 'token', '__proto__'];
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            params: fc.dictionary(fc.constantFrom(...(names.length ? names : ['none'])), urlValue, {
              maxKeys: 2,
            }),
            query: fc.array(fc.tuple(fc.constantFrom(...queryKeys), urlValue), { maxLength: 3 }),
            body: fc.array(
              fc.tuple(fc.constantFrom(...(bodyPaths.length ? bodyPaths : [[] as Path])), jsonHostile),
              { maxLength: 3 },
            ),
            junk: fc.option(junkBody, { freq: 4 }),
            contentType: fc.option(contentType, { freq: 4 }),
            auth,
          }),
          async (input) => {
            let body = base.body;
            for (const [path, value] of input.body) body = withValue(body, path, value);
            const request: Request = {
              params: { ...base.params, ...input.params },
              query: [...base.query.filter(([k]) => !input.query.some(([q]) => q === k)), ...input.query],
              body,
              auth: input.auth,
              ...(input.junk === null ? {} : { rawBody: input.junk }),
              ...(input.contentType === null ? {} : { contentType: input.contentType }),
            };
            await check(route, request, JSON.stringify(input).slice(0, 300));
          },
        ),
        { numRuns: 25 },
      );
    });
  }
});
