import { createHash, randomBytes } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import freeMailDomains from 'email-providers/all.json' with { type: 'json' };
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import * as oidc from 'openid-client';
import type { PermissionLevel } from '../../../src/contract/access.ts';
import {
  type SsoCompleteResponse,
  type SsoConnectionRequest,
  type SsoErrorCode,
  type SsoLookup,
  type SsoSettings,
  ssoMessages,
} from '../../../src/contract/sso.ts';
import { seal, unseal } from '../../crypto/sealed.ts';
import type { Queryable } from '../../db/client.ts';
import {
  organizations,
  permissions,
  ssoConnections,
  ssoDomains,
  ssoJoinRequests,
  ssoLogins,
  users,
} from '../../db/schema.ts';
import { addressRefusal } from '../../http/address-policy.ts';
import { HttpError } from '../../http/errors.ts';
import type { AppEnv, AuthUser, Deps } from '../../http/route.ts';
import { enqueueMail } from '../../jobs/outbox.ts';
import { ssoJoinApprovedMail, ssoJoinRequestMail } from '../../mail/templates.ts';
import { type AuditActor, recordAudit } from '../audit/audit.ts';
import { defaultRedirect, displayName, normalizeEmail, session } from '../auth/auth.service.ts';
import { connectionForEmail, emailDomain } from './sso-policy.ts';

/** The sealed client secret's purpose (server/crypto/sealed.ts); its record is the organization. */
const secretPurpose = 'sso-client-secret';
const verifierPurpose = 'sso-pkce-verifier';
/** spec is silent: time to sign in at the provider (a password, a second factor) and come back. */
export const ssoLoginLifetimeMs = 10 * 60 * 1000;
/** The HttpOnly cookie that ties an attempt to the browser that started it (login CSRF). */
export const ssoCookie = 'twofold_sso';
const cookiePath = '/api/auth/sso';

const freeMail = new Set<string>(freeMailDomains);
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export const callbackPath = '/api/auth/sso/callback';
export const redirectUri = (publicUrl: string) => `${publicUrl}${callbackPath}`;

/** Where the facts of the request go in the audit entry. */
export type RequestFacts = { ip: string; userAgent: string | undefined };

// ---------------------------------------------------------------------------------------------
// The provider

/**
 * Refuses an issuer Twofold must not call: http:// or a private, loopback or link-local address,
 * unless SSO_ALLOW_PRIVATE (local development and tests) says so. Checked before every discovery.
 */
async function checkIssuer(deps: Deps, issuer: string): Promise<void> {
  if (deps.config.ssoAllowPrivate) return;
  const url = new URL(issuer);
  if (url.protocol !== 'https:') throw new HttpError(400, ssoMessages.issuerInvalid);
  const answers = await lookup(url.hostname.replace(/^\[|\]$/g, ''), { all: true }).catch(() => []);
  if (answers.length === 0 || answers.some((a) => addressRefusal(a.address)))
    throw new HttpError(400, ssoMessages.discoveryFailed);
}

/** The provider's configuration from its discovery document (OpenID Connect Discovery). */
async function discover(
  deps: Deps,
  connection: { issuer: string; client_id: string; secret: string },
): Promise<oidc.Configuration> {
  await checkIssuer(deps, connection.issuer);
  return oidc.discovery(new URL(connection.issuer), connection.client_id, connection.secret, undefined, {
    timeout: 10,
    ...(deps.config.ssoAllowPrivate ? { execute: [oidc.allowInsecureRequests] } : {}),
  });
}

const secretOf = (deps: Deps, row: typeof ssoConnections.$inferSelect) =>
  unseal(
    deps.config.jwtSecret,
    secretPurpose,
    `organization:${row.organization_id}`,
    row.client_secret_sealed,
  );

// ---------------------------------------------------------------------------------------------
// Admins: the connection and its join requests

export async function ssoSettings(deps: Deps, organizationId: number): Promise<SsoSettings> {
  const [row] = await deps.db
    .select()
    .from(ssoConnections)
    .where(eq(ssoConnections.organization_id, organizationId));
  const uri = redirectUri(deps.config.publicUrl);
  const domains = row
    ? await deps.db
        .select({ domain: ssoDomains.domain })
        .from(ssoDomains)
        .where(eq(ssoDomains.connection_id, row.id))
        .orderBy(asc(ssoDomains.domain))
    : [];
  const requests = await deps.db
    .select({
      id: ssoJoinRequests.id,
      user_id: users.id,
      email: users.email,
      name: users.name,
      created_at: ssoJoinRequests.created_at,
    })
    .from(ssoJoinRequests)
    .innerJoin(users, eq(users.id, ssoJoinRequests.user_id))
    .where(eq(ssoJoinRequests.organization_id, organizationId))
    .orderBy(asc(ssoJoinRequests.created_at), asc(ssoJoinRequests.id));
  return {
    redirect_uri: uri,
    connection: row
      ? {
          provider_name: row.provider_name,
          issuer: row.issuer,
          client_id: row.client_id,
          has_client_secret: true,
          domains: domains.map((d) => d.domain),
          default_level: row.default_level,
          join_mode: row.join_mode,
          require_sso: row.require_sso,
          redirect_uri: uri,
        }
      : null,
    requests: requests.map((r) => ({ ...r, created_at: r.created_at.toISOString() })),
  };
}

const actorOf = (user: AuthUser): AuditActor => ({ kind: 'user', userId: user.id, email: user.email });

/**
 * Creates or replaces the organization's connection. The provider is asked for its discovery
 * document first, so a mistyped issuer is refused here rather than at someone's first sign-in.
 * A domain already vouched for by another organization is refused (409); public email providers
 * (gmail.com...) are never accepted; an admin who is not a super user may vouch only for their own
 * email's domain (their mailbox there is the proof the organization holds it).
 */
export async function saveConnection(
  deps: Deps,
  organizationId: number,
  user: AuthUser,
  input: SsoConnectionRequest,
  facts: RequestFacts,
): Promise<SsoSettings> {
  const domains = [...new Set(input.domains)];
  for (const domain of domains) {
    if (freeMail.has(domain)) throw new HttpError(400, ssoMessages.freeMailDomain(domain));
    if (!user.globalPermission && domain !== emailDomain(user.email))
      throw new HttpError(403, ssoMessages.domainNotYours(domain, emailDomain(user.email)));
  }
  const [existing] = await deps.db
    .select()
    .from(ssoConnections)
    .where(eq(ssoConnections.organization_id, organizationId));
  const secret = input.client_secret?.trim() || (existing ? secretOf(deps, existing) : '');
  if (!secret) throw new HttpError(400, ssoMessages.clientSecretRequired);
  try {
    await discover(deps, { issuer: input.issuer, client_id: input.client_id, secret });
  } catch (error) {
    if (error instanceof HttpError) throw error;
    deps.logger.warn(`sso: discovery failed for organization ${organizationId}: ${(error as Error).message}`);
    throw new HttpError(400, ssoMessages.discoveryFailed);
  }
  const sealed = seal(deps.config.jwtSecret, secretPurpose, `organization:${organizationId}`, secret);
  await deps.db.transaction(async (tx) => {
    const values = {
      organization_id: organizationId,
      provider_name: input.provider_name,
      issuer: input.issuer,
      client_id: input.client_id,
      client_secret_sealed: sealed,
      default_level: input.default_level,
      join_mode: input.join_mode,
      require_sso: input.require_sso,
    };
    const [row] = await tx
      .insert(ssoConnections)
      .values(values)
      .onConflictDoUpdate({ target: ssoConnections.organization_id, set: values })
      .returning({ id: ssoConnections.id });
    if (!row) throw new Error('upsert returned no row');
    await tx.delete(ssoDomains).where(eq(ssoDomains.connection_id, row.id));
    const claimed = await tx
      .insert(ssoDomains)
      .values(domains.map((domain) => ({ domain, connection_id: row.id })))
      .onConflictDoNothing()
      .returning({ domain: ssoDomains.domain });
    const taken = domains.find((d) => !claimed.some((c) => c.domain === d));
    if (taken) throw new HttpError(409, ssoMessages.domainTaken(taken));
    await recordAudit(tx, {
      kind: 'organization.sso_configured',
      organizationId,
      actor: actorOf(user),
      summary: `${existing ? 'Changed' : 'Set up'} single sign-on with ${input.provider_name} for ${domains.join(', ')}`,
      details: {
        provider: input.provider_name,
        issuer: input.issuer,
        client_id: input.client_id,
        secret_changed: Boolean(input.client_secret?.trim()),
        domains,
        default_level: input.default_level,
        join_mode: input.join_mode,
        require_sso: input.require_sso,
      },
      ip: facts.ip,
      userAgent: facts.userAgent ?? null,
    });
  });
  return ssoSettings(deps, organizationId);
}

export async function removeConnection(
  deps: Deps,
  organizationId: number,
  user: AuthUser,
  facts: RequestFacts,
): Promise<SsoSettings> {
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .delete(ssoConnections)
      .where(eq(ssoConnections.organization_id, organizationId))
      .returning();
    if (!row) throw new HttpError(404, ssoMessages.notConfigured);
    await recordAudit(tx, {
      kind: 'organization.sso_removed',
      organizationId,
      actor: actorOf(user),
      summary: `Removed single sign-on with ${row.provider_name}`,
      details: { provider: row.provider_name, issuer: row.issuer },
      ip: facts.ip,
      userAgent: facts.userAgent ?? null,
    });
  });
  return ssoSettings(deps, organizationId);
}

/** Grants the level asked for and ends the request (an admin's approval). */
export async function approveRequest(
  deps: Deps,
  organizationId: number,
  requestId: number,
  level: PermissionLevel,
  user: AuthUser,
  facts: RequestFacts,
): Promise<SsoSettings> {
  await deps.db.transaction(async (tx) => {
    const [request] = await tx
      .delete(ssoJoinRequests)
      .where(and(eq(ssoJoinRequests.id, requestId), eq(ssoJoinRequests.organization_id, organizationId)))
      .returning();
    if (!request) throw new HttpError(404, ssoMessages.requestNotFound);
    await tx
      .insert(permissions)
      .values({ org_id: organizationId, user_id: request.user_id, level })
      .onConflictDoNothing();
    const [member] = await tx.select().from(users).where(eq(users.id, request.user_id));
    const [organization] = await tx
      .select({ name: organizations.name })
      .from(organizations)
      .where(eq(organizations.id, organizationId));
    const [connection] = await tx
      .select({ provider: ssoConnections.provider_name })
      .from(ssoConnections)
      .where(eq(ssoConnections.organization_id, organizationId));
    if (member)
      await enqueueMail(
        tx,
        await ssoJoinApprovedMail({
          to: member.email,
          name: displayName(member),
          supportEmail: deps.config.supportEmail,
          url: `${deps.config.publicUrl}/portal/login`,
          organizationName: organization?.name ?? 'your organization',
          provider: connection?.provider ?? 'single sign-on',
          level,
        }),
      );
    await recordAudit(tx, {
      kind: 'permission.granted',
      organizationId,
      actor: actorOf(user),
      subjectUserId: request.user_id,
      summary: `Approved ${member?.email ?? 'a member'}’s single sign-on with ${level} access`,
      details: { level, via: 'sso_request' },
      ip: facts.ip,
      userAgent: facts.userAgent ?? null,
    });
  });
  return ssoSettings(deps, organizationId);
}

export async function declineRequest(
  deps: Deps,
  organizationId: number,
  requestId: number,
  user: AuthUser,
  facts: RequestFacts,
): Promise<SsoSettings> {
  await deps.db.transaction(async (tx) => {
    const [request] = await tx
      .delete(ssoJoinRequests)
      .where(and(eq(ssoJoinRequests.id, requestId), eq(ssoJoinRequests.organization_id, organizationId)))
      .returning();
    if (!request) throw new HttpError(404, ssoMessages.requestNotFound);
    const [member] = await tx.select({ email: users.email }).from(users).where(eq(users.id, request.user_id));
    await recordAudit(tx, {
      kind: 'organization.sso_request_declined',
      organizationId,
      actor: actorOf(user),
      subjectUserId: request.user_id,
      summary: `Declined ${member?.email ?? 'a member'}’s request to join through single sign-on`,
      ip: facts.ip,
      userAgent: facts.userAgent ?? null,
    });
  });
  return ssoSettings(deps, organizationId);
}

/** Tells the organization's admins (its own, not its parent's) that a first sign-in waits for them. */
async function mailAdmins(
  deps: Deps,
  tx: Queryable,
  connection: typeof ssoConnections.$inferSelect,
  requester: string,
): Promise<void> {
  const [organization] = await tx
    .select({ name: organizations.name })
    .from(organizations)
    .where(eq(organizations.id, connection.organization_id));
  const admins = await tx
    .select({ email: users.email, name: users.name })
    .from(permissions)
    .innerJoin(users, eq(users.id, permissions.user_id))
    .where(and(eq(permissions.org_id, connection.organization_id), eq(permissions.level, 'admin')));
  for (const admin of admins)
    await enqueueMail(
      tx,
      await ssoJoinRequestMail({
        to: admin.email,
        name: displayName(admin),
        supportEmail: deps.config.supportEmail,
        url: `${deps.config.publicUrl}/portal/organization-details?tab=sso`,
        organizationName: organization?.name ?? 'your organization',
        requester,
        provider: connection.provider_name,
      }),
    );
}

// ---------------------------------------------------------------------------------------------
// Signing in

/** The login page's question: only whether the domain signs in through a provider, and its name. */
export async function lookupSso(db: Queryable, email: string): Promise<SsoLookup> {
  const connection = await connectionForEmail(db, email);
  return {
    sso: connection ? { provider: connection.provider_name, required: connection.require_sso } : null,
  };
}

const loginPage = (deps: Deps, params: Record<string, string>) =>
  `${deps.config.publicUrl}/portal/login?${new URLSearchParams(params).toString()}`;

/** A 303 that keeps the cookie set or cleared on the context. */
function redirectTo(c: Context<AppEnv>, location: string): Response {
  c.header('Cache-Control', 'no-store');
  return c.redirect(location, 303);
}

const refusedTo = (deps: Deps, c: Context<AppEnv>, code: SsoErrorCode) =>
  redirectTo(c, loginPage(deps, { sso_error: code }));

/**
 * Starts a sign-in at the provider of the email's domain: state, nonce and PKCE verifier are made
 * here and kept on the server (the verifier sealed), and an HttpOnly cookie binds the attempt to
 * this browser. Answers a redirect (303) to the provider's authorization endpoint.
 */
export async function startSso(
  deps: Deps,
  c: Context<AppEnv>,
  input: { email: string; redirect?: string | undefined },
): Promise<Response> {
  const connection = await connectionForEmail(deps.db, input.email);
  if (!connection) return refusedTo(deps, c, 'unavailable');
  let config: oidc.Configuration;
  try {
    config = await discover(deps, {
      issuer: connection.issuer,
      client_id: connection.client_id,
      secret: secretOf(deps, connection),
    });
  } catch (error) {
    deps.logger.warn(
      `sso: discovery failed for organization ${connection.organization_id}: ${(error as Error).message}`,
    );
    return refusedTo(deps, c, 'provider');
  }
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const verifier = oidc.randomPKCECodeVerifier();
  const browser = randomBytes(32).toString('base64url');
  const stateHash = sha256(state);
  await deps.db.insert(ssoLogins).values({
    connection_id: connection.id,
    state_hash: stateHash,
    nonce,
    code_verifier_sealed: seal(deps.config.jwtSecret, verifierPurpose, stateHash, verifier),
    browser_hash: sha256(browser),
    redirect: input.redirect ?? defaultRedirect,
    expires_at: new Date(Date.now() + ssoLoginLifetimeMs),
  });
  await deps.db.delete(ssoLogins).where(sql`${ssoLogins.expires_at} < now() - interval '1 hour'`);
  setCookie(c, ssoCookie, browser, {
    path: cookiePath,
    httpOnly: true,
    sameSite: 'Lax',
    secure: deps.config.publicUrl.startsWith('https:'),
    maxAge: ssoLoginLifetimeMs / 1000,
  });
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri(deps.config.publicUrl),
    scope: 'openid email profile',
    state,
    nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    login_hint: normalizeEmail(input.email),
  });
  return redirectTo(c, url.href);
}

/** An email the provider vouches for: `email_verified` (Entra's `xms_edov` is its equivalent). */
function verifiedEmail(claims: Record<string, unknown>): string | null {
  const email = typeof claims.email === 'string' ? normalizeEmail(claims.email) : null;
  const verified =
    claims.email_verified === true || claims.email_verified === 'true' || claims.xms_edov === true;
  return email && verified ? email : null;
}

/**
 * The provider's answer. The state must be one this server issued, unused, unexpired and started
 * in this browser (its cookie); the code is exchanged with the PKCE verifier, and openid-client
 * checks the ID token's signature, issuer, audience, expiry and nonce. Only a verified email in
 * one of the connection's domains is accepted. A first sign-in creates the account and joins at
 * the chosen level, or records a request for an admin to approve. Success leaves a one-time
 * hand-off token for the login page (`?sso=`), which exchanges it for a session.
 */
export async function ssoCallback(deps: Deps, c: Context<AppEnv>, query: { state?: string | undefined }) {
  const browser = getCookie(c, ssoCookie);
  setCookie(c, ssoCookie, '', { path: cookiePath, maxAge: 0 });
  if (!query.state || !browser) return refusedTo(deps, c, 'state');
  const stateHash = sha256(query.state);
  const [attempt] = await deps.db
    .update(ssoLogins)
    .set({ used_at: sql`now()` })
    .where(
      and(
        eq(ssoLogins.state_hash, stateHash),
        eq(ssoLogins.browser_hash, sha256(browser)),
        isNull(ssoLogins.used_at),
        gt(ssoLogins.expires_at, sql`now()`),
      ),
    )
    .returning();
  if (!attempt) return refusedTo(deps, c, 'state');
  const [connection] = await deps.db
    .select()
    .from(ssoConnections)
    .where(eq(ssoConnections.id, attempt.connection_id));
  if (!connection) return refusedTo(deps, c, 'state');

  let claims: Record<string, unknown>;
  try {
    const config = await discover(deps, {
      issuer: connection.issuer,
      client_id: connection.client_id,
      secret: secretOf(deps, connection),
    });
    const current = new URL(redirectUri(deps.config.publicUrl));
    current.search = new URL(c.req.url).search;
    const tokens = await oidc.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: unseal(
        deps.config.jwtSecret,
        verifierPurpose,
        stateHash,
        attempt.code_verifier_sealed,
      ),
      expectedState: query.state,
      expectedNonce: attempt.nonce,
      idTokenExpected: true,
    });
    const idClaims = tokens.claims();
    if (!idClaims) throw new Error('no ID token');
    claims = { ...idClaims };
    // Providers that keep the email out of the ID token give it at the UserInfo endpoint.
    if (!verifiedEmail(claims) && config.serverMetadata().userinfo_endpoint)
      claims = { ...idClaims, ...(await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub)) };
  } catch (error) {
    deps.logger.warn(
      `sso: callback refused for organization ${connection.organization_id}: ${(error as Error).message}`,
    );
    return refusedTo(deps, c, 'provider');
  }
  const email = verifiedEmail(claims);
  if (!email) return refusedTo(deps, c, typeof claims.email === 'string' ? 'unverified' : 'provider');
  const vouched = await deps.db
    .select({ domain: ssoDomains.domain })
    .from(ssoDomains)
    .where(and(eq(ssoDomains.connection_id, connection.id), eq(ssoDomains.domain, emailDomain(email))));
  if (vouched.length === 0) return refusedTo(deps, c, 'domain');

  const name = typeof claims.name === 'string' ? claims.name.trim().slice(0, 200) || null : null;
  const outcome = await deps.db.transaction(async (tx) => {
    let [user] = await tx.select().from(users).where(eq(users.email, email));
    if (!user) [user] = await tx.insert(users).values({ email, name }).returning();
    if (!user) throw new Error('insert returned no row');
    // An organization's provider never speaks for Twofold's own operators.
    if (user.global_permission) return { refused: 'superuser' as const, handoff: '' };
    const [member] = await tx
      .select({ id: permissions.id })
      .from(permissions)
      .where(and(eq(permissions.org_id, connection.organization_id), eq(permissions.user_id, user.id)));
    if (!member && connection.join_mode === 'approve') {
      const created = await tx
        .insert(ssoJoinRequests)
        .values({ organization_id: connection.organization_id, user_id: user.id })
        .onConflictDoNothing()
        .returning({ id: ssoJoinRequests.id });
      // The organization's admins hear of a new request once (not at every retry).
      if (created.length > 0) await mailAdmins(deps, tx, connection, email);
      return { refused: 'pending' as const, handoff: '' };
    }
    if (!member) {
      await tx
        .insert(permissions)
        .values({ org_id: connection.organization_id, user_id: user.id, level: connection.default_level });
      await recordAudit(tx, {
        kind: 'permission.granted',
        organizationId: connection.organization_id,
        actor: { kind: 'system', label: `Single sign-on (${connection.provider_name})` },
        subjectUserId: user.id,
        summary: `${email} joined with ${connection.default_level} access at their first single sign-on`,
        details: { level: connection.default_level, via: 'sso' },
      });
    }
    const handoff = randomBytes(32).toString('base64url');
    await tx
      .update(ssoLogins)
      .set({ user_id: user.id, handoff_hash: sha256(handoff) })
      .where(eq(ssoLogins.id, attempt.id));
    return { refused: null, handoff };
  });
  if (outcome.refused) return refusedTo(deps, c, outcome.refused);
  return redirectTo(c, loginPage(deps, { sso: outcome.handoff }));
}

/** Exchanges the callback's one-time hand-off token for a session (method 'sso'). */
export async function completeSso(
  deps: Deps,
  token: string,
  facts: RequestFacts,
): Promise<SsoCompleteResponse> {
  const done = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(ssoLogins)
      .set({ handed_off_at: sql`now()` })
      .where(
        and(
          eq(ssoLogins.handoff_hash, sha256(token)),
          isNull(ssoLogins.handed_off_at),
          gt(ssoLogins.expires_at, sql`now()`),
        ),
      )
      .returning({
        userId: ssoLogins.user_id,
        redirect: ssoLogins.redirect,
        connectionId: ssoLogins.connection_id,
      });
    if (!row?.userId) throw new HttpError(400, ssoMessages.handoffInvalid);
    const [connection] = await tx
      .select({ organizationId: ssoConnections.organization_id })
      .from(ssoConnections)
      .where(eq(ssoConnections.id, row.connectionId));
    return { userId: row.userId, redirect: row.redirect, organizationId: connection?.organizationId };
  });
  return {
    // session() records the sign-in, with its method and the organization whose provider vouched.
    ...(await session(deps, done.userId, {
      method: 'sso',
      ssoOrganizationId: done.organizationId ?? null,
      ip: facts.ip,
      userAgent: facts.userAgent ?? null,
    })),
    redirect: done.redirect,
    organization_id: done.organizationId ?? null,
  };
}
