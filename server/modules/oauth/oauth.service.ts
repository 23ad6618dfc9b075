import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import {
  type AuthorizationParams,
  type ConnectedAppList,
  type ConsentAnswer,
  type ConsentDecision,
  type ConsentInfo,
  isOAuthScope,
  type OAuthScope,
  oauthLifetimes,
  oauthMessages,
  oauthScopes,
} from '../../../src/contract/oauth.ts';
import type { Config } from '../../config.ts';
import type { Db, Queryable } from '../../db/client.ts';
import {
  oauthCodes,
  oauthGrants,
  oauthTokens,
  organizations,
  partnerAppSecrets,
  partnerApps,
  permissions,
  users,
} from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import type { ApiKeyCaller, AuthUser } from '../../http/route.ts';
import { recordAudit } from '../audit/audit.ts';
import { effectiveLevel } from '../permissions/permissions.service.ts';

/**
 * A small OAuth 2.0 authorization server over our own tables (issue #25): the authorization code
 * grant with PKCE S256 only (RFC 6749, RFC 7636), rotating refresh tokens whose reuse revokes
 * the grant, revocation (RFC 7009), introspection (RFC 7662) and metadata (RFC 8414). Every
 * credential is 256 random bits with a recognisable prefix, stored as its SHA-256.
 */

export const tokenPrefixes = {
  clientId: 'tfc_',
  clientSecret: 'tfcs_',
  code: 'tfac_',
  access: 'tfat_',
  refresh: 'tfrt_',
} as const;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const random = (prefix: string) => `${prefix}${randomBytes(32).toString('base64url')}`;

/** An OAuth error (RFC 6749 §5.2): `error` and `error_description` beside the house `message`. */
export function oauthError(
  status: 400 | 401 | 403,
  error: string,
  description: string,
  headers: Record<string, string> = {},
): HttpError {
  return new HttpError(
    status,
    description,
    { 'cache-control': 'no-store', ...headers },
    {
      error,
      error_description: description,
    },
  );
}

type App = typeof partnerApps.$inferSelect;

// ---------------------------------------------------------------------------------------------
// The authorization request

/** The checked request: the app, its exact redirect URI, the scopes and the PKCE challenge. */
export type CheckedAuthorization = {
  app: App;
  redirectUri: string;
  scopes: OAuthScope[];
  state: string | undefined;
  codeChallenge: string;
  webMessage: boolean;
};

/**
 * Checks an authorization request. A bad client or redirect URI is answered here (400), never
 * sent to the redirect URI (RFC 6749 §4.1.2.1); other errors are returned as `redirectError`
 * for the redirect URI.
 */
export async function checkAuthorization(
  db: Queryable,
  params: AuthorizationParams,
): Promise<
  | CheckedAuthorization
  | { redirectError: { app: App; redirectUri: string; error: string; description: string } }
> {
  const app = params.client_id ? await findApp(db, params.client_id) : undefined;
  if (!app) throw new HttpError(400, 'Unknown client_id: this partner app is not registered with Twofold.');
  const redirectUri = params.redirect_uri;
  if (!redirectUri || !app.redirect_uris.includes(redirectUri))
    throw new HttpError(
      400,
      'The redirect_uri is not one this partner app registered (they must match exactly).',
    );
  const fail = (error: string, description: string) => ({
    redirectError: { app, redirectUri, error, description },
  });
  if (params.response_type !== 'code')
    return fail('unsupported_response_type', 'Only response_type=code is supported.');
  if (!params.code_challenge) return fail('invalid_request', 'code_challenge is required (PKCE, S256).');
  if (params.code_challenge_method !== 'S256')
    return fail('invalid_request', 'code_challenge_method must be S256 (plain is not supported).');
  if (!/^[A-Za-z0-9_-]{43}$/.test(params.code_challenge))
    return fail('invalid_request', 'code_challenge must be the base64url SHA-256 of the code verifier.');
  if (params.response_mode !== undefined && !['query', 'web_message'].includes(params.response_mode))
    return fail('invalid_request', 'response_mode must be query or web_message.');
  const asked = (params.scope ?? '').split(' ').filter(Boolean);
  const scopes = asked.length ? [...new Set(asked)] : app.scopes;
  if (!scopes.every((s) => isOAuthScope(s) && app.scopes.includes(s)))
    return fail('invalid_scope', 'The scope asks for something this partner app may not have.');
  return {
    app,
    redirectUri,
    scopes: scopes as OAuthScope[],
    state: params.state,
    codeChallenge: params.code_challenge,
    webMessage: params.response_mode === 'web_message',
  };
}

/** The redirect URI with the answer's parameters (and the issuer, RFC 9207). */
function answer(
  config: Config,
  redirectUri: string,
  fields: Record<string, string | undefined>,
): ConsentAnswer {
  const result: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...fields, iss: config.publicUrl }))
    if (v !== undefined) result[k] = v;
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(result)) url.searchParams.set(k, v);
  return { redirect_to: url.toString(), result };
}

/**
 * `GET /oauth/authorize`: the redirect URI with an error when the request cannot go on, or
 * undefined when the consent page should show.
 */
export async function authorizeRedirect(
  db: Queryable,
  config: Config,
  params: AuthorizationParams,
): Promise<string | undefined> {
  const checked = await checkAuthorization(db, params);
  if (!('redirectError' in checked)) return undefined;
  const { redirectUri, error, description } = checked.redirectError;
  return answer(config, redirectUri, { error, error_description: description, state: params.state })
    .redirect_to;
}

/** A partner app's public face, by client id (the embedded registration's Connect button). */
export async function publicApp(db: Queryable, clientId: string) {
  const app = await findApp(db, clientId);
  if (!app) throw new HttpError(404, oauthMessages.appNotFound);
  return { name: app.name, logo_url: app.logo_url, website: app.website };
}

/** The organizations a user may connect apps to: those they administer (directly). */
async function adminOrganizations(db: Queryable, user: AuthUser) {
  return db
    .select({ id: organizations.id, name: organizations.name })
    .from(permissions)
    .innerJoin(organizations, eq(organizations.id, permissions.org_id))
    .where(and(eq(permissions.user_id, user.id), eq(permissions.level, 'admin')))
    .orderBy(organizations.name, organizations.id);
}

/** What the consent screen shows. */
export async function consentInfo(
  db: Queryable,
  user: AuthUser,
  params: AuthorizationParams,
): Promise<ConsentInfo> {
  const checked = await checkAuthorization(db, params);
  if ('redirectError' in checked) throw new HttpError(400, checked.redirectError.description);
  const { app } = checked;
  return {
    app: { name: app.name, logo_url: app.logo_url, website: app.website },
    scopes: checked.scopes.map((scope) => ({ scope, label: oauthScopes[scope] })),
    organizations: await adminOrganizations(db, user),
    redirect_origin: new URL(checked.redirectUri).origin,
  };
}

/**
 * The user's Allow or Deny. Allow needs admin on the organization (or super user): it issues a
 * single-use code bound to the app, redirect URI, PKCE challenge, organization and scopes.
 */
export async function decide(
  db: Db,
  config: Config,
  user: AuthUser,
  input: ConsentDecision,
): Promise<ConsentAnswer> {
  const checked = await checkAuthorization(db, input);
  if ('redirectError' in checked) throw new HttpError(400, checked.redirectError.description);
  if (input.decision === 'deny')
    return answer(config, checked.redirectUri, {
      error: 'access_denied',
      error_description: 'The organization declined the request.',
      state: checked.state,
    });
  const orgId = input.organization_id;
  if (orgId === undefined) throw new HttpError(400, 'organization_id: choose the organization to connect.');
  if ((await effectiveLevel(db, user, orgId)) !== 'admin') throw new HttpError(403, oauthMessages.notAdmin);
  const code = random(tokenPrefixes.code);
  await db.insert(oauthCodes).values({
    code_hash: sha256(code),
    app_id: checked.app.id,
    organization_id: orgId,
    user_id: user.id,
    redirect_uri: checked.redirectUri,
    code_challenge: checked.codeChallenge,
    scopes: checked.scopes,
    expires_at: new Date(Date.now() + oauthLifetimes.codeSeconds * 1000),
  });
  return answer(config, checked.redirectUri, { code, state: checked.state });
}

// ---------------------------------------------------------------------------------------------
// Clients

async function findApp(db: Queryable, clientId: string): Promise<App | undefined> {
  const [app] = await db
    .select()
    .from(partnerApps)
    .where(and(eq(partnerApps.client_id, clientId), isNull(partnerApps.disabled_at)));
  return app;
}

/** The form fields of a token, revocation or introspection request. */
export type FormFields = Record<string, string | undefined>;

/**
 * The calling client (RFC 6749 §2.3.1): HTTP Basic (client_secret_basic) or client_id and
 * client_secret in the body (client_secret_post), never both. A live secret is one without an
 * expiry or before it (a rotated secret's overlap).
 */
export async function authenticateClient(db: Queryable, authorization: string | undefined, form: FormFields) {
  let clientId = form.client_id;
  let secret = form.client_secret;
  const basic = /^Basic\s+(\S+)\s*$/i.exec(authorization ?? '');
  const invalid = (description: string) =>
    oauthError(
      401,
      'invalid_client',
      description,
      basic ? { 'www-authenticate': 'Basic realm="twofold"' } : {},
    );
  if (basic?.[1]) {
    if (secret !== undefined)
      throw oauthError(400, 'invalid_request', 'Authenticate the client one way only.');
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw invalid('Client authentication failed.');
    try {
      const id = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
      if (clientId !== undefined && clientId !== id) throw invalid('Client authentication failed.');
      clientId = id;
      secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
    } catch (error) {
      if (error instanceof HttpError) throw error;
      throw invalid('Client authentication failed.');
    }
  }
  if (!clientId || !secret)
    throw invalid('Client authentication is required (client_secret_basic or client_secret_post).');
  const app = clientId.length <= 200 ? await findApp(db, clientId) : undefined;
  if (!app || secret.length > 200) throw invalid('Client authentication failed.');
  const wanted = Buffer.from(sha256(secret));
  const secrets = await db
    .select({ hash: partnerAppSecrets.secret_hash })
    .from(partnerAppSecrets)
    .where(
      and(
        eq(partnerAppSecrets.app_id, app.id),
        or(isNull(partnerAppSecrets.expires_at), gt(partnerAppSecrets.expires_at, sql`now()`)),
      ),
    );
  if (!secrets.some((s) => timingSafeEqual(Buffer.from(s.hash), wanted)))
    throw invalid('Client authentication failed.');
  return app;
}

// ---------------------------------------------------------------------------------------------
// The token endpoint

export type TokenAnswer = {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
};

async function issueTokens(tx: Queryable, grantId: number, scopes: string[]): Promise<TokenAnswer> {
  const access = random(tokenPrefixes.access);
  const refresh = random(tokenPrefixes.refresh);
  const now = Date.now();
  await tx.insert(oauthTokens).values([
    {
      grant_id: grantId,
      kind: 'access',
      token_hash: sha256(access),
      expires_at: new Date(now + oauthLifetimes.accessTokenSeconds * 1000),
    },
    {
      grant_id: grantId,
      kind: 'refresh',
      token_hash: sha256(refresh),
      expires_at: new Date(now + oauthLifetimes.refreshTokenSeconds * 1000),
    },
  ]);
  return {
    access_token: access,
    token_type: 'Bearer',
    expires_in: oauthLifetimes.accessTokenSeconds,
    refresh_token: refresh,
    scope: scopes.join(' '),
  };
}

async function revokeGrant(tx: Queryable, grantId: number) {
  await tx
    .update(oauthGrants)
    .set({ revoked_at: sql`now()` })
    .where(and(eq(oauthGrants.id, grantId), isNull(oauthGrants.revoked_at)));
  await tx
    .update(oauthTokens)
    .set({ revoked_at: sql`now()` })
    .where(and(eq(oauthTokens.grant_id, grantId), isNull(oauthTokens.revoked_at)));
}

/** A code verifier (RFC 7636 §4.1): 43 to 128 unreserved characters. */
const verifierPattern = /^[A-Za-z0-9._~-]{43,128}$/;

/** `POST /oauth/token`. */
export async function token(db: Db, app: App, form: FormFields): Promise<TokenAnswer> {
  const grantType = form.grant_type;
  if (!grantType) throw oauthError(400, 'invalid_request', 'grant_type is required.');
  if (grantType === 'authorization_code') return exchangeCode(db, app, form);
  if (grantType === 'refresh_token') return refresh(db, app, form);
  throw oauthError(400, 'unsupported_grant_type', 'Only authorization_code and refresh_token are supported.');
}

async function exchangeCode(db: Db, app: App, form: FormFields): Promise<TokenAnswer> {
  const { code, redirect_uri: redirectUri, code_verifier: verifier } = form;
  if (!code) throw oauthError(400, 'invalid_request', 'code is required.');
  if (!verifier) throw oauthError(400, 'invalid_request', 'code_verifier is required (PKCE).');
  const result = await db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(oauthCodes)
      .where(eq(oauthCodes.code_hash, sha256(code)))
      .for('update');
    if (!row || row.app_id !== app.id) return 'invalid';
    if (row.used_at) {
      // RFC 6749 §4.1.2: a code used twice revokes what it was exchanged for.
      if (row.grant_id) await revokeGrant(tx, row.grant_id);
      return 'reused';
    }
    if (row.expires_at.getTime() <= Date.now()) return 'expired';
    if (row.redirect_uri !== redirectUri) return 'redirect';
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    if (!verifierPattern.test(verifier) || challenge !== row.code_challenge) return 'pkce';
    // Connecting again replaces the app's earlier connection to the organization.
    const earlier = await tx
      .select({ id: oauthGrants.id })
      .from(oauthGrants)
      .where(
        and(
          eq(oauthGrants.app_id, app.id),
          eq(oauthGrants.organization_id, row.organization_id),
          isNull(oauthGrants.revoked_at),
        ),
      );
    for (const g of earlier) await revokeGrant(tx, g.id);
    const [grant] = await tx
      .insert(oauthGrants)
      .values({
        app_id: app.id,
        organization_id: row.organization_id,
        granted_by: row.user_id,
        scopes: row.scopes,
      })
      .returning({ id: oauthGrants.id });
    if (!grant) throw new Error('grant insert returned nothing');
    await tx
      .update(oauthCodes)
      .set({ used_at: sql`now()`, grant_id: grant.id })
      .where(eq(oauthCodes.id, row.id));
    const [user] = row.user_id
      ? await tx.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, row.user_id))
      : [];
    await recordAudit(tx, {
      kind: 'partner_app.connected',
      organizationId: row.organization_id,
      actor: user ? { kind: 'user', userId: user.id, email: user.email } : { kind: 'api', label: app.name },
      summary: `Connected ${app.name} (${row.scopes.join(', ')})`,
      details: { app: app.name, client_id: app.client_id, scopes: row.scopes },
    });
    return issueTokens(tx, grant.id, row.scopes);
  });
  if (typeof result !== 'string') return result;
  const descriptions = {
    invalid: 'The code is not valid for this client.',
    reused: 'The code was already used; the tokens it gave are revoked.',
    expired: 'The code has expired.',
    redirect: 'redirect_uri does not match the authorization request.',
    pkce: 'code_verifier does not match the code_challenge.',
  } as const;
  throw oauthError(400, 'invalid_grant', descriptions[result]);
}

async function refresh(db: Db, app: App, form: FormFields): Promise<TokenAnswer> {
  const presented = form.refresh_token;
  if (!presented) throw oauthError(400, 'invalid_request', 'refresh_token is required.');
  const result = await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ token: oauthTokens, grant: oauthGrants })
      .from(oauthTokens)
      .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grant_id))
      .where(and(eq(oauthTokens.token_hash, sha256(presented)), eq(oauthTokens.kind, 'refresh')))
      .for('update');
    if (!row || row.grant.app_id !== app.id) return 'invalid';
    if (row.grant.revoked_at || row.token.revoked_at) return 'revoked';
    if (row.token.used_at) {
      // A refresh token is used once: a second use means it leaked, so the whole grant goes.
      await revokeGrant(tx, row.grant.id);
      return 'reused';
    }
    if (row.token.expires_at.getTime() <= Date.now()) return 'expired';
    const asked = (form.scope ?? '').split(' ').filter(Boolean);
    if (!asked.every((s) => row.grant.scopes.includes(s))) return 'scope';
    await tx.update(oauthTokens).set({ used_at: sql`now()` }).where(eq(oauthTokens.id, row.token.id));
    return issueTokens(tx, row.grant.id, row.grant.scopes);
  });
  if (typeof result !== 'string') return result;
  if (result === 'scope')
    throw oauthError(400, 'invalid_scope', 'A refresh cannot add scopes the organization did not grant.');
  const descriptions = {
    invalid: 'The refresh token is not valid for this client.',
    revoked: 'The refresh token has been revoked.',
    reused: 'The refresh token was already used; the connection is revoked.',
    expired: 'The refresh token has expired.',
  } as const;
  throw oauthError(400, 'invalid_grant', descriptions[result]);
}

// ---------------------------------------------------------------------------------------------
// Revocation and introspection

async function findToken(db: Queryable, app: App, presented: string) {
  const [row] = await db
    .select({ token: oauthTokens, grant: oauthGrants })
    .from(oauthTokens)
    .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grant_id))
    .where(eq(oauthTokens.token_hash, sha256(presented)));
  // Another client's token is not this client's business (RFC 7009 §2.1, RFC 7662 §2.2).
  return row && row.grant.app_id === app.id ? row : undefined;
}

/** RFC 7009: a refresh token ends its grant; an access token ends alone. Unknown tokens are fine (200). */
export async function revoke(db: Db, app: App, form: FormFields): Promise<void> {
  if (!form.token) throw oauthError(400, 'invalid_request', 'token is required.');
  const presented = form.token;
  await db.transaction(async (tx) => {
    const row = await findToken(tx, app, presented);
    if (!row) return;
    if (row.token.kind === 'refresh') await revokeGrant(tx, row.grant.id);
    else await tx.update(oauthTokens).set({ revoked_at: sql`now()` }).where(eq(oauthTokens.id, row.token.id));
  });
}

/** RFC 7662: what a token is, for the client that holds it; anything else is `{ active: false }`. */
export async function introspect(db: Queryable, app: App, form: FormFields) {
  if (!form.token) throw oauthError(400, 'invalid_request', 'token is required.');
  const row = await findToken(db, app, form.token);
  const live =
    row &&
    !row.grant.revoked_at &&
    !row.token.revoked_at &&
    !(row.token.kind === 'refresh' && row.token.used_at) &&
    row.token.expires_at.getTime() > Date.now();
  if (!row || !live) return { active: false };
  return {
    active: true,
    scope: row.grant.scopes.join(' '),
    client_id: app.client_id,
    token_type: row.token.kind === 'access' ? 'Bearer' : 'refresh_token',
    exp: Math.floor(row.token.expires_at.getTime() / 1000),
    iat: Math.floor(row.token.created_at.getTime() / 1000),
    sub: String(row.grant.organization_id),
    organization_id: row.grant.organization_id,
  };
}

/** RFC 8414: the server's metadata. */
export function metadata(config: Config) {
  const base = config.publicUrl;
  return {
    issuer: base,
    authorization_endpoint: `${base}/oauth/authorize`,
    token_endpoint: `${base}/oauth/token`,
    revocation_endpoint: `${base}/oauth/revoke`,
    introspection_endpoint: `${base}/oauth/introspect`,
    response_types_supported: ['code'],
    response_modes_supported: ['query', 'web_message'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    scopes_supported: Object.keys(oauthScopes),
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${base}/api/v1/docs`,
  };
}

// ---------------------------------------------------------------------------------------------
// Access tokens at /api/v1

/**
 * The caller of a public API request made with a partner's access token: the grant's
 * organization and scopes. 401 when the token is unknown, expired or revoked. Records when the
 * connection was last used (at most once a minute).
 */
export async function authenticateAccessToken(db: Queryable, presented: string): Promise<ApiKeyCaller> {
  const invalid = new HttpError(401, 'This access token is not valid, or has expired or been revoked.', {
    'www-authenticate': 'Bearer error="invalid_token"',
  });
  if (presented.length > 200) throw invalid;
  const [row] = await db
    .select({ token: oauthTokens, grant: oauthGrants })
    .from(oauthTokens)
    .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grant_id))
    .innerJoin(partnerApps, eq(partnerApps.id, oauthGrants.app_id))
    .where(
      and(
        eq(oauthTokens.token_hash, sha256(presented)),
        eq(oauthTokens.kind, 'access'),
        isNull(partnerApps.disabled_at),
      ),
    );
  if (!row || row.grant.revoked_at || row.token.revoked_at || row.token.expires_at.getTime() <= Date.now())
    throw invalid;
  const last = row.grant.last_used_at?.getTime() ?? 0;
  if (Date.now() - last >= 60_000)
    await db.update(oauthGrants).set({ last_used_at: sql`now()` }).where(eq(oauthGrants.id, row.grant.id));
  return {
    id: row.token.id,
    organizationId: row.grant.organization_id,
    grantId: row.grant.id,
    scopes: row.grant.scopes,
  };
}

/** 403 `insufficient_scope` (RFC 6750 §3.1) when a partner's token lacks the route's scope. */
export function requireScope(caller: ApiKeyCaller, scope: OAuthScope | 'any'): void {
  if (!caller.scopes || scope === 'any') return;
  if (caller.scopes.includes(scope)) return;
  throw new HttpError(
    403,
    `This access token was not granted the ${scope} scope.`,
    { 'www-authenticate': `Bearer error="insufficient_scope", scope="${scope}"` },
    { error: 'insufficient_scope', error_description: `Requires the ${scope} scope.` },
  );
}

// ---------------------------------------------------------------------------------------------
// Connected apps (the organization's side)

export async function connectedApps(db: Queryable, orgId: number): Promise<ConnectedAppList> {
  const rows = await db
    .select({ grant: oauthGrants, app: partnerApps })
    .from(oauthGrants)
    .innerJoin(partnerApps, eq(partnerApps.id, oauthGrants.app_id))
    .where(and(eq(oauthGrants.organization_id, orgId), isNull(oauthGrants.revoked_at)))
    .orderBy(desc(oauthGrants.created_at), desc(oauthGrants.id));
  return {
    apps: rows.map(({ grant, app }) => ({
      id: grant.id,
      name: app.name,
      logo_url: app.logo_url,
      website: app.website,
      scopes: grant.scopes,
      connected_at: grant.created_at.toISOString(),
      last_used_at: grant.last_used_at?.toISOString() ?? null,
    })),
  };
}

/** Disconnect: the grant and every token under it end at once. */
export async function disconnect(db: Db, orgId: number, grantId: number, user: AuthUser, ip: string) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ grant: oauthGrants, app: partnerApps })
      .from(oauthGrants)
      .innerJoin(partnerApps, eq(partnerApps.id, oauthGrants.app_id))
      .where(
        and(
          eq(oauthGrants.id, grantId),
          eq(oauthGrants.organization_id, orgId),
          isNull(oauthGrants.revoked_at),
        ),
      );
    if (!row) throw new HttpError(404, oauthMessages.grantNotFound);
    await revokeGrant(tx, grantId);
    await recordAudit(tx, {
      kind: 'partner_app.disconnected',
      organizationId: orgId,
      actor: { kind: 'user', userId: user.id, email: user.email },
      summary: `Disconnected ${row.app.name}`,
      details: { app: row.app.name, client_id: row.app.client_id, scopes: row.grant.scopes },
      ip,
    });
    return { message: oauthMessages.disconnected };
  });
}

/** The organizations that granted an app a scope (its webhook subscription's reach). */
export async function organizationsGranting(
  db: Queryable,
  appId: number,
  scope: OAuthScope,
): Promise<number[]> {
  const rows = await db
    .select({ org: oauthGrants.organization_id })
    .from(oauthGrants)
    .where(
      and(
        eq(oauthGrants.app_id, appId),
        isNull(oauthGrants.revoked_at),
        sql`${oauthGrants.scopes} ? ${scope}`,
      ),
    );
  return [...new Set(rows.map((r) => r.org))];
}
