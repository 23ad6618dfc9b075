import { and, eq, inArray } from 'drizzle-orm';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { rateLimiter } from 'hono-rate-limiter';
import { atLeast, type PermissionLevel } from '../../src/contract/access.ts';
import { twoFactorMessages } from '../../src/contract/account.ts';
import { organizationNotFound } from '../../src/contract/organization.ts';
import { organizations, users } from '../db/schema.ts';
import { hasSecondFactor, secondFactorMissing, touchSession } from '../modules/auth/sessions.ts';
import { type VerifiedToken, verifyToken } from '../modules/auth/tokens.ts';
import { authenticateApiKey } from '../modules/integrations/api-keys.service.ts';
import { authenticateAccessToken, requireScope } from '../modules/oauth/oauth.service.ts';
import { effectiveLevel, organizationChain } from '../modules/permissions/permissions.service.ts';
import { clientIp } from './client-ip.ts';
import { HttpError, httpMessages } from './errors.ts';
import { DatabaseStore } from './rate-limit-store.ts';
import type { AnyRoute, AppEnv, AuthUser, Deps, OrgRef, RouteInput } from './route.ts';
import { assertStorableText, assertUrlEncoding, parseInput } from './validate.ts';

/** Registers every route of the table on the app, each behind its rate limits, guard and validation. */
export function mountRoutes(app: Hono<AppEnv>, routes: readonly AnyRoute[], deps: Deps): void {
  const stores = new Map<string, DatabaseStore>();
  for (const route of routes) {
    // Registered for every method of the path, so the browser's preflight (OPTIONS) is answered.
    if (route.cors) app.use(route.path, publicCors);
    const chain: MiddlewareHandler<AppEnv>[] = [];
    const limit = route.bodyLimit ?? { bytes: maxBodyBytes, message: httpMessages.bodyTooLarge };
    chain.push(bodyLimit({ maxSize: limit.bytes, onError: (c) => c.json({ message: limit.message }, 413) }));
    const limits = route.rateLimit ? rateLimits(route, deps, stores) : undefined;
    if (limits) chain.push(limits.perIp);
    if (route.precheck) {
      const precheck = route.precheck;
      chain.push(async (c, next) => {
        await precheck(c, deps);
        await next();
      });
    }
    chain.push(async (c, next) => {
      if (route.tokenInQuery) {
        const user = await authenticateQueryToken(c, deps, route.tokenInQuery);
        if (user instanceof Response) return user;
        c.set('user', user);
      } else if (route.access === 'api-key') {
        const authorization = c.req.header('authorization');
        const bearer = /^Bearer\s+(tfat_\S+)\s*$/i.exec(authorization ?? '')?.[1];
        const caller = bearer
          ? await authenticateAccessToken(deps.db, bearer)
          : await authenticateApiKey(deps.db, authorization, clientIp(c, deps.config.trustProxy));
        requireScope(caller, route.scope ?? 'any');
        c.set('apiKey', caller);
      } else if (route.access !== 'anonymous') {
        c.set(
          'user',
          await authenticate(c, deps, route.access === 'donor', route.duringTwoFactorSetup === true),
        );
      }
      c.set('input', await readInput(c, route));
      await next();
    });
    if (route.access === 'api-key') chain.push(perApiKey(deps, stores));
    if (limits?.perEmail) chain.push(limits.perEmail);
    chain.push(async (c, next) => {
      await guard(c, route, deps);
      await next();
    });
    chain.push(async (c) => {
      const input = c.get('input');
      const result = await route.handler({
        ...input,
        user: c.get('user'),
        donor: c.get('donor'),
        apiKey: c.get('apiKey'),
        level: c.get('level'),
        token: c.get('token'),
        deps,
        ip: clientIp(c, deps.config.trustProxy),
        c,
      });
      if (result instanceof Response) return result;
      return c.json(result as object, route.successStatus ?? 200);
    });
    app.on(route.method.toUpperCase(), [route.path], ...chain);
  }
}

/** The JSON bodies of the API: 1 MB is far more than any form sends. */
export const maxBodyBytes = 1024 * 1024;

/** spec: the public elements run on partners' pages; their endpoints answer any origin. */
const publicCors = cors({
  origin: '*',
  allowMethods: ['GET', 'POST', 'PUT', 'OPTIONS'],
  allowHeaders: ['Content-Type', 'Authorization', 'X-CSRF-Token'],
  maxAge: 600,
});

async function readInput(
  c: Context<AppEnv>,
  route: AnyRoute,
): Promise<RouteInput<unknown, unknown, unknown>> {
  // Every route, whatever its schemas say: the URL decodes, and no part carries text no column can hold.
  assertUrlEncoding(c.req.url, route.path);
  assertStorableText('params', c.req.param());
  // Each name's values as one text (joined by a newline, which pairs no surrogate), so a message names the name.
  assertStorableText(
    'query',
    Object.fromEntries(Object.entries(c.req.queries()).map(([name, values]) => [name, values.join('\n')])),
  );
  const params = route.params ? parseInput('params', route.params, c.req.param()) : {};
  const query = route.query ? parseInput('query', route.query, c.req.query()) : {};
  let body: unknown;
  if (route.body && route.bodyKind === 'multipart') {
    body = parseInput('body', route.body, await readMultipart(c));
  } else if (route.body && route.bodyKind === 'form') {
    body = parseInput('body', route.body, await readForm(c));
  } else if (route.body) {
    const type = c.req.header('content-type') ?? '';
    const text = await c.req.text();
    if (route.bodyKind === 'optional-json' && text.trim() === '') {
      return { params, query, body: parseInput('body', route.body, {}) };
    }
    if (!/^application\/json\s*(;|$)/i.test(type)) throw new HttpError(415, httpMessages.jsonRequired);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new HttpError(400, httpMessages.invalidJson);
    }
    body = parseInput('body', route.body, json);
  }
  return { params, query, body };
}

/**
 * An `application/x-www-form-urlencoded` body (OAuth's endpoints): each name once (RFC 6749 §3.2,
 * "parameters MUST NOT be included more than once"), refusals in OAuth's error format too.
 */
async function readForm(c: Context<AppEnv>): Promise<Record<string, string>> {
  const invalid = (description: string, status: 400 | 415 = 400) =>
    new HttpError(
      status,
      description,
      { 'cache-control': 'no-store' },
      {
        error: 'invalid_request',
        error_description: description,
      },
    );
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type))
    throw invalid('Send the request body as application/x-www-form-urlencoded.', 415);
  const form = new URLSearchParams(await c.req.text());
  const fields: Record<string, string> = {};
  for (const [name, value] of form) {
    // RFC 6749 §3.1: "Parameters sent without a value MUST be treated as if they were omitted".
    if (value === '') continue;
    if (Object.hasOwn(fields, name)) throw invalid(`${name} was sent more than once.`);
    fields[name] = value;
  }
  assertStorableText('body', fields);
  return fields;
}

/** The parts of a multipart form by name (the last of repeated names), files as `File`. */
async function readMultipart(c: Context<AppEnv>): Promise<Record<string, unknown>> {
  const type = c.req.header('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(type)) throw new HttpError(415, httpMessages.multipartRequired);
  try {
    return { ...(await c.req.parseBody()) };
  } catch {
    throw new HttpError(400, httpMessages.invalidMultipart);
  }
}

/**
 * Who is calling. A missing token and a bad one get different messages (the spec's), both 401.
 * Donor sessions are a separate purpose of token and never open staff routes (or the reverse).
 */
async function authenticate(
  c: Context<AppEnv>,
  deps: Deps,
  donor: boolean,
  duringTwoFactorSetup: boolean,
): Promise<AuthUser | undefined> {
  const header = c.req.header('authorization') ?? '';
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) throw new HttpError(401, httpMessages.tokenNotFound);
  if (donor) {
    const token = await verifyToken(deps.config.jwtSecret, 'donor-session', match[1]);
    if (!token) throw new HttpError(401, httpMessages.authExpired);
    c.set('donor', { email: token.subject });
    return undefined;
  }
  // A token whose session ended (signed out, ended from the account page, a reset, a removal, a
  // demotion) or whose user is gone is as good as expired: verifyToken reads the session's row.
  const session = (await verifyToken(deps.config.jwtSecret, 'access', match[1], deps.db))?.session;
  if (!session) throw new HttpError(401, httpMessages.authExpired);
  // Issue #24: a session an organization's policy (or the super-user rule) finds without a second
  // factor reaches only the account page until the user has set one up.
  if (!duringTwoFactorSetup && secondFactorMissing(session, deps.config.exposed))
    throw new HttpError(403, twoFactorMessages.required, twoFactorRequiredHeader);
  await touchSession(deps.db, session, clientIp(c, deps.config.trustProxy));
  return {
    id: session.userId,
    email: session.email,
    name: session.name,
    globalPermission: session.globalPermission,
    session,
  };
}

/**
 * The `?token=` of a tokenInQuery route: a signed token of the route's purpose whose user still
 * exists. Anything else is the route's refusal. The guard then checks access as for any route.
 */
async function authenticateQueryToken(
  c: Context<AppEnv>,
  deps: Deps,
  rule: NonNullable<AnyRoute['tokenInQuery']>,
): Promise<AuthUser | Response> {
  const raw = c.req.query('token');
  const token = raw ? await verifyToken(deps.config.jwtSecret, rule.purpose, raw) : null;
  const user = token ? await staffUser(deps, token) : undefined;
  if (token && user) {
    c.set('token', token);
    return user;
  }
  if (typeof rule.refused === 'function') return rule.refused(deps);
  throw new HttpError(401, rule.refused ?? (raw ? httpMessages.authExpired : httpMessages.tokenNotFound));
}

/** The user of a five-minute link ('csv-link', 'billing-link'), while they exist. */
async function staffUser(deps: Deps, token: VerifiedToken): Promise<AuthUser | undefined> {
  const id = Number(token.subject);
  if (!Number.isSafeInteger(id) || id <= 0 || id > 2_147_483_647) return undefined;
  const [user] = await deps.db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      globalPermission: users.global_permission,
    })
    .from(users)
    .where(eq(users.id, id));
  return user;
}

/** Access beyond being signed in: super users only, or a level on the route's organization. */
async function guard(c: Context<AppEnv>, route: AnyRoute, deps: Deps): Promise<void> {
  const access = route.access;
  if (typeof access === 'string') {
    if (access === 'super' && !c.get('user')?.globalPermission)
      throw new HttpError(403, httpMessages.forbidden);
    return;
  }
  const user = c.get('user');
  if (!user) throw new HttpError(401, httpMessages.tokenNotFound);
  const found: OrgRef = await access.org(c.get('input'), deps.db);
  const orgIds = [...new Set(typeof found === 'number' ? [found] : found)];
  // The level that counts is the lowest the caller holds among the organizations involved.
  let lowest: PermissionLevel | undefined;
  for (const orgId of orgIds) {
    const level = await effectiveLevel(deps.db, user, orgId);
    // 404 rather than 403, so the ids of other people's organizations are not confirmed.
    if (level === 'none') throw new HttpError(404, access.unreachable ?? organizationNotFound(orgId));
    if (!lowest || !atLeast(level, lowest)) lowest = level;
  }
  if (!lowest) throw new HttpError(404, httpMessages.notFound);
  // Issue #24: a super user holds no permission, so the session's policy check (authenticate)
  // does not see the organizations they open; the policy of the one in hand applies to them too.
  const session = user.session;
  if (session && user.globalPermission && !hasSecondFactor(session.factors)) {
    for (const orgId of orgIds) {
      if (await requiresTwoFactor(deps, orgId, session.method === 'sso' ? session.ssoOrganizationId : null))
        throw new HttpError(403, twoFactorMessages.required, twoFactorRequiredHeader);
    }
  }
  // A link made for one organization opens no other, whatever its user may reach.
  const linkOrg = c.get('token')?.org;
  if (linkOrg !== undefined && !orgIds.includes(linkOrg))
    throw new HttpError(403, httpMessages.otherOrganization);
  if (!atLeast(lowest, access.level)) throw new HttpError(403, httpMessages.forbidden);
  c.set('level', lowest);
}

/** Tells the portal to take the user to their account page, where they set up a second factor. */
const twoFactorRequiredHeader = { 'X-Two-Factor-Required': 'true' };

/** Whether the organization or one above it requires two-factor sign-in (an SSO session of it does not count). */
async function requiresTwoFactor(deps: Deps, orgId: number, ssoOrg: number | null): Promise<boolean> {
  const chain = await organizationChain(deps.db, orgId);
  if (chain.length === 0) return false;
  const rows = await deps.db
    .select({ id: organizations.id })
    .from(organizations)
    .where(and(inArray(organizations.id, chain), eq(organizations.require_two_factor, true)));
  return rows.some((r) => r.id !== ssoOrg);
}

/**
 * The public API's limit: requests per API key and minute, shared by every `/api/v1` route (a key
 * is one integration, whatever it calls) and, counted in the database, by every server process.
 */
function perApiKey(deps: Deps, stores: Map<string, DatabaseStore>): MiddlewareHandler<AppEnv> {
  let store = stores.get('api-key');
  if (!store) {
    store = new DatabaseStore(deps.db);
    stores.set('api-key', store);
  }
  const windowMs = 60_000;
  return rateLimiter<AppEnv>({
    windowMs,
    limit: deps.config.apiRateLimitPerMinute,
    standardHeaders: 'draft-6',
    store,
    keyGenerator: (c) => {
      const caller = c.get('apiKey');
      return caller?.grantId ? `oauth-grant ${caller.grantId}` : `api-key ${caller?.id ?? 0}`;
    },
    handler: (c: Context<AppEnv>) => {
      const info = c.get('rateLimit' as never) as { resetTime?: Date } | undefined;
      const seconds = info?.resetTime
        ? Math.max(1, Math.ceil((info.resetTime.getTime() - Date.now()) / 1000))
        : Math.ceil(windowMs / 1000);
      c.header('Retry-After', String(seconds));
      return c.json({ message: 'Too many requests for this API key. Please slow down and try again.' }, 429);
    },
  });
}

/**
 * Per-address and per-email limits for one route, counted in the database (DatabaseStore), so
 * every server process on it counts together; the routes of one bucket (the GET and POST forms of
 * a call) share their keys.
 */
function rateLimits(route: AnyRoute, deps: Deps, stores: Map<string, DatabaseStore>) {
  const { windowMs, perIp, perEmail } = deps.config.rateLimit;
  const rule = route.rateLimit ?? {};
  const name = rule.bucket ?? `${route.method} ${route.path}`;
  const store = (kind: string) => {
    const key = `${name} ${kind}`;
    let found = stores.get(key);
    if (!found) {
      found = new DatabaseStore(deps.db);
      stores.set(key, found);
    }
    return found;
  };
  const common = {
    windowMs,
    standardHeaders: 'draft-6' as const,
    skipSuccessfulRequests: rule.failuresOnly === true,
    handler: (c: Context<AppEnv>) => {
      const info = c.get('rateLimit' as never) as { resetTime?: Date } | undefined;
      const seconds = info?.resetTime
        ? Math.max(1, Math.ceil((info.resetTime.getTime() - Date.now()) / 1000))
        : Math.ceil(windowMs / 1000);
      c.header('Retry-After', String(seconds));
      return c.json({ message: httpMessages.tooManyAttempts }, 429);
    },
  };
  const perIpLimiter = rateLimiter<AppEnv>({
    ...common,
    limit: perIp * (rule.ipFactor ?? 1),
    store: store('ip'),
    keyGenerator: (c) => `${name} ip ${clientIp(c, deps.config.trustProxy)}`,
  });
  const emailOf = rule.email;
  const perEmailLimiter = emailOf
    ? rateLimiter<AppEnv>({
        ...common,
        limit: perEmail,
        store: store('email'),
        keyGenerator: (c) => `${name} email ${emailOf(c.get('input'))?.trim().toLowerCase() ?? ''}`,
      })
    : undefined;
  return { perIp: perIpLimiter, perEmail: perEmailLimiter };
}
