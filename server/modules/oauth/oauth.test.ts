import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, desc, eq } from 'drizzle-orm';
import * as oauth from 'oauth4webapi';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusIdOf } from '../../../src/contract/statuses.ts';
import {
  auditEvents,
  donationStatusHistory,
  donations,
  oauthCodes,
  oauthTokens,
  partnerAppSecrets,
} from '../../db/schema.ts';
import { createWebhookWorker } from '../../jobs/webhook-worker.ts';
import { call, demoOrganizationIds, readyForMatching, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';
import { firstOpened } from '../integrations/webhook-events.ts';

/**
 * The OAuth 2.0 flow of partner apps (issue #25), driven by an independent, spec-strict client
 * (panva's oauth4webapi) as a partner's server would, against the app in-process: every error
 * case of RFC 6749, 7636, 7009, 7662 and 8414 that the issue names.
 */

let t: TestContext;
let demo: Awaited<ReturnType<typeof demoOrganizationIds>>;
const tokens: Record<string, string> = {};
let as: oauth.AuthorizationServer;
const redirectUri = 'https://partner.example/oauth/callback';
type Partner = { client: oauth.Client; secret: string; id: number };
let partner: Partner;
let narrow: Partner;

/** The partner's HTTP client: every request goes to the app in-process. */
const fetchInProcess = async (
  url: string,
  init: { method?: string; headers?: HeadersInit; body?: BodyInit | null },
): Promise<Response> => {
  const target = new URL(url);
  return await t.app.request(`${target.pathname}${target.search}`, {
    method: init.method ?? 'GET',
    headers: init.headers ?? {},
    ...(init.body ? { body: init.body } : {}),
  });
};
const options = { [oauth.customFetch]: fetchInProcess, [oauth.allowInsecureRequests]: true } as const;

async function register(scopes: string[], name = 'GiveHub') {
  const res = await call(t.app, 'POST', '/api/partner-apps', {
    token: tokens.super,
    body: { name, website: 'https://partner.example', redirect_uris: [redirectUri], scopes },
  });
  expect(res.status).toBe(201);
  return {
    client: { client_id: res.json.app.client_id as string },
    secret: res.json.client_secret as string,
    id: res.json.app.id as number,
  };
}

/** The browser's part: /oauth/authorize, then the consent page's Allow (or Deny) as `who`. */
async function authorize(
  app: Partner,
  params: Record<string, string> = {},
  decision: { who?: string; decision?: 'allow' | 'deny'; org?: number } = {},
) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: app.client.client_id,
    redirect_uri: redirectUri,
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    ...params,
  });
  const start = await t.app.request(`/oauth/authorize?${query}`);
  const location = start.headers.get('location') ?? '';
  // A good request shows the consent page (HTML); the rest is refused or sent back with an error.
  if (start.status !== 200) return { start, location, verifier, state, callback: undefined };
  expect(await start.text()).toContain('<twofold-oauth-consent>');
  // The embedded flow's popup must keep its opener; no other site may frame the page.
  expect(start.headers.get('cross-origin-opener-policy')).toBe('unsafe-none');
  expect(start.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  const res = await call(t.app, 'POST', '/api/oauth/authorization', {
    token: tokens[decision.who ?? 'admin'],
    body: {
      ...Object.fromEntries(query),
      decision: decision.decision ?? 'allow',
      organization_id: decision.org ?? demo.hopeHarbor,
    },
  });
  return {
    start,
    location,
    verifier,
    state,
    consent: res,
    callback: res.json?.redirect_to as string | undefined,
  };
}

/** The partner's server: validate the callback, exchange the code. */
async function exchange(app: Partner, flow: Awaited<ReturnType<typeof authorize>>, verifier = flow.verifier) {
  const params = oauth.validateAuthResponse(as, app.client, new URL(flow.callback ?? ''), flow.state);
  const response = await oauth.authorizationCodeGrantRequest(
    as,
    app.client,
    oauth.ClientSecretBasic(app.secret),
    params,
    redirectUri,
    verifier,
    options,
  );
  return oauth.processAuthorizationCodeResponse(as, app.client, response);
}

async function connect(app: Partner = partner, params: Record<string, string> = {}) {
  return exchange(app, await authorize(app, params));
}

/**
 * The OAuth error a rejected promise carries: oauth4webapi's ResponseBodyError, or for a 401
 * with a WWW-Authenticate challenge (client_secret_basic) its WWWAuthenticateChallengeError.
 */
async function oauthErrorOf(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (error instanceof oauth.WWWAuthenticateChallengeError) {
    const body = (await error.response.json()) as { error: string; error_description: string };
    expect(error.cause[0]?.scheme).toBe('basic');
    return { error: body.error, status: error.status, description: body.error_description };
  }
  expect(error).toBeInstanceOf(oauth.ResponseBodyError);
  const e = error as oauth.ResponseBodyError;
  return { error: e.error, status: e.status, description: e.error_description };
}

const refreshWith = async (app: Partner, refreshToken: string) =>
  oauth.processRefreshTokenResponse(
    as,
    app.client,
    await oauth.refreshTokenGrantRequest(
      as,
      app.client,
      oauth.ClientSecretPost(app.secret),
      refreshToken,
      options,
    ),
  );

const gift = () => ({
  donated_at: '2025-03-01 12:00:00',
  amount: 75,
  donor: { name: 'Partner Donor', email: `partner-${Math.random().toString(36).slice(2)}@example.org` },
  company_name: 'Unknown Employer Inc',
});

beforeAll(async () => {
  t = await createTestContext({ config: { apiRateLimitPerMinute: 1000 } });
  demo = await demoOrganizationIds(t.db);
  await readyForMatching(t.db, [demo.hopeHarbor, demo.northShore, demo.mapleStreet]);
  for (const who of ['admin', 'writer', 'super']) tokens[who] = await signIn(t.app, `${who}@twofold.test`);
  const issuer = new URL(t.config.publicUrl);
  as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { ...options, algorithm: 'oauth2' }),
  );
  partner = await register(['matches:read', 'matches:write', 'webhooks:manage']);
  narrow = await register(['matches:read'], 'ReadOnly Reports');
});
afterAll(() => t.close());

describe('metadata (RFC 8414)', () => {
  it('publishes the endpoints, S256 only, and the scopes at /.well-known/oauth-authorization-server', () => {
    expect(as.issuer).toBe(t.config.publicUrl);
    expect(as.token_endpoint).toBe(`${t.config.publicUrl}/oauth/token`);
    expect(as.code_challenge_methods_supported).toEqual(['S256']);
    expect(as.scopes_supported).toContain('matches:write');
    expect(as.revocation_endpoint).toBe(`${t.config.publicUrl}/oauth/revoke`);
    expect(as.introspection_endpoint).toBe(`${t.config.publicUrl}/oauth/introspect`);
  });
});

describe('the authorization code flow with PKCE', () => {
  it('gives tokens bound to the organization and scopes, which create and read matches through /api/v1', async () => {
    const tokenSet = await connect();
    expect(tokenSet.token_type).toBe('bearer');
    expect(tokenSet.expires_in).toBe(3600);
    expect(tokenSet.scope).toBe('matches:read matches:write webhooks:manage');
    const created = await call(t.app, 'POST', '/api/v1/matches', {
      token: tokenSet.access_token,
      body: gift(),
    });
    expect(created.status).toBe(201);
    expect(created.json.donation.organization_id).toBe(demo.hopeHarbor);
    const read = await call(t.app, 'GET', `/api/v1/matches/${created.json.donation.id}`, {
      token: tokenSet.access_token,
    });
    expect(read.status).toBe(200);
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.kind, 'partner_app.connected'), eq(auditEvents.organization_id, demo.hopeHarbor)),
      );
    expect(audit.at(-1)?.actor_label).toBe('admin@twofold.test');
    expect(audit.at(-1)?.summary).toContain('GiveHub');
  });

  it('refuses an unregistered redirect URI at the authorization endpoint without redirecting to it', async () => {
    const flow = await authorize(partner, { redirect_uri: 'https://evil.example/callback' });
    expect(flow.start.status).toBe(400);
    expect(flow.location).toBe('');
    expect((await flow.start.json()).message).toMatch(/redirect_uri/);
    const unknown = await authorize(partner, { client_id: 'tfc_nope' });
    expect(unknown.start.status).toBe(400);
  });

  it('refuses a code exchanged with another redirect URI than it was issued for', async () => {
    const flow = await authorize(partner);
    const params = oauth.validateAuthResponse(as, partner.client, new URL(flow.callback ?? ''), flow.state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      partner.client,
      oauth.ClientSecretBasic(partner.secret),
      params,
      'https://partner.example/other',
      flow.verifier,
      options,
    );
    expect(
      await oauthErrorOf(oauth.processAuthorizationCodeResponse(as, partner.client, response)),
    ).toMatchObject({
      error: 'invalid_grant',
      status: 400,
    });
  });

  it('requires PKCE S256: no challenge or plain goes back as invalid_request; a wrong or missing verifier is refused', async () => {
    for (const params of [{ code_challenge: '' }, { code_challenge_method: 'plain' }] as Record<
      string,
      string
    >[]) {
      const flow = await authorize(partner, params);
      expect(flow.start.status).toBe(302);
      const back = new URL(flow.location);
      expect(`${back.origin}${back.pathname}`).toBe(redirectUri);
      expect(back.searchParams.get('error')).toBe('invalid_request');
      expect(back.searchParams.get('state')).toBe(flow.state);
    }
    const wrong = await authorize(partner);
    expect(await oauthErrorOf(exchange(partner, wrong, oauth.generateRandomCodeVerifier()))).toMatchObject({
      error: 'invalid_grant',
    });
    const missing = await authorize(partner);
    const code = new URL(missing.callback ?? '').searchParams.get('code') ?? '';
    const res = await t.app.request('/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        client_id: partner.client.client_id,
        client_secret: partner.secret,
      }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: 'invalid_request',
      message: expect.stringMatching(/code_verifier/),
    });
  });

  it('uses a code once: a second exchange is refused and revokes the tokens the first gave', async () => {
    const flow = await authorize(partner);
    const first = await exchange(partner, flow);
    expect((await call(t.app, 'GET', '/api/v1/matches', { token: first.access_token })).status).toBe(200);
    expect(await oauthErrorOf(exchange(partner, flow))).toMatchObject({ error: 'invalid_grant' });
    expect((await call(t.app, 'GET', '/api/v1/matches', { token: first.access_token })).status).toBe(401);
    expect(await oauthErrorOf(refreshWith(partner, first.refresh_token ?? ''))).toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('refuses an expired code', async () => {
    const flow = await authorize(partner);
    await t.db.update(oauthCodes).set({ expires_at: new Date(Date.now() - 1000) });
    expect(await oauthErrorOf(exchange(partner, flow))).toMatchObject({ error: 'invalid_grant' });
  });

  it('refuses a scope the app may not ask for (invalid_scope to the redirect URI)', async () => {
    const flow = await authorize(narrow, { scope: 'matches:read matches:write' });
    expect(new URL(flow.location).searchParams.get('error')).toBe('invalid_scope');
  });

  it('sends Deny back as access_denied, and lets only administrators allow', async () => {
    const denied = await authorize(partner, {}, { decision: 'deny' });
    expect(() =>
      oauth.validateAuthResponse(as, partner.client, new URL(denied.callback ?? ''), denied.state),
    ).toThrow(oauth.AuthorizationResponseError);
    expect(new URL(denied.callback ?? '').searchParams.get('error')).toBe('access_denied');
    const writer = await authorize(partner, {}, { who: 'writer' });
    expect(writer.consent?.status).toBe(403);
  });
});

describe('refresh tokens', () => {
  it('rotate on use; reusing an old one revokes the whole grant', async () => {
    const first = await connect();
    const second = await refreshWith(partner, first.refresh_token ?? '');
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await call(t.app, 'GET', '/api/v1/matches', { token: second.access_token })).status).toBe(200);
    expect(await oauthErrorOf(refreshWith(partner, first.refresh_token ?? ''))).toMatchObject({
      error: 'invalid_grant',
    });
    // The family is gone: the newest tokens stop working too.
    expect((await call(t.app, 'GET', '/api/v1/matches', { token: second.access_token })).status).toBe(401);
    expect(await oauthErrorOf(refreshWith(partner, second.refresh_token ?? ''))).toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('are refused to another client', async () => {
    const set = await connect();
    expect(await oauthErrorOf(refreshWith(narrow, set.refresh_token ?? ''))).toMatchObject({
      error: 'invalid_grant',
    });
  });
});

describe('/api/v1 with access tokens', () => {
  it('refuses an expired access token', async () => {
    const set = await connect();
    await t.db
      .update(oauthTokens)
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where(eq(oauthTokens.kind, 'access'));
    const res = await call(t.app, 'GET', '/api/v1/matches', { token: set.access_token });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('invalid_token');
  });

  it('answers 403 insufficient_scope for a route whose scope was not granted', async () => {
    const set = await connect(narrow);
    expect((await call(t.app, 'GET', '/api/v1/matches', { token: set.access_token })).status).toBe(200);
    const res = await call(t.app, 'POST', '/api/v1/matches', { token: set.access_token, body: gift() });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('insufficient_scope');
    expect(res.headers.get('www-authenticate')).toContain('scope="matches:write"');
    expect((await call(t.app, 'GET', '/api/v1/statistics', { token: set.access_token })).status).toBe(403);
    // A narrower grant than the app may ask for: only what the organization allowed counts.
    const readOnly = await connect(partner, { scope: 'matches:read' });
    expect(
      (await call(t.app, 'POST', '/api/v1/matches', { token: readOnly.access_token, body: gift() })).status,
    ).toBe(403);
  });

  it("reads the organization's statistics with 'statistics:read'", async () => {
    const stats = await register(['statistics:read'], 'Stats Board');
    const set = await connect(stats);
    const res = await call(t.app, 'GET', '/api/v1/statistics?from=2020-01-01', { token: set.access_token });
    expect(res.status).toBe(200);
    expect(res.json.donor_contacted).toMatchObject({ count: expect.any(Number), sum: expect.any(Number) });
    expect((await call(t.app, 'GET', '/api/v1/matches', { token: set.access_token })).status).toBe(403);
  });

  it("updates a match's status with 'matches:status', recorded as the API's doing", async () => {
    const status = await register(['matches:write', 'matches:status'], 'Status Sync');
    const set = await connect(status);
    const created = await call(t.app, 'POST', '/api/v1/matches', { token: set.access_token, body: gift() });
    const id = created.json.donation.id as number;
    const res = await call(t.app, 'POST', `/api/v1/matches/${id}/status`, {
      token: set.access_token,
      body: { status: 'submitted' },
    });
    expect(res.status).toBe(200);
    expect(res.json.donation.status_id).toBe(statusIdOf.submitted);
    const [history] = await t.db
      .select()
      .from(donationStatusHistory)
      .where(eq(donationStatusHistory.donation_id, id))
      .orderBy(desc(donationStatusHistory.id))
      .limit(1);
    expect(history).toMatchObject({ source: 'api', user_id: null, to_status_id: statusIdOf.submitted });
    const readOnly = await connect(narrow);
    const refused = await call(t.app, 'POST', `/api/v1/matches/${id}/status`, {
      token: readOnly.access_token,
      body: { status: 'refunded' },
    });
    expect(refused.status).toBe(403);
  });

  it("never reaches another organization's match", async () => {
    const set = await connect();
    const [other] = await t.db
      .insert(donations)
      .values({
        organization_id: demo.mapleStreet,
        amount_cents: 1000,
        donated_at: new Date(),
        status_id: 23,
      })
      .returning({ id: donations.id });
    const res = await call(t.app, 'GET', `/api/v1/matches/${other?.id}`, { token: set.access_token });
    expect(res.status).toBe(404);
    const made = await call(t.app, 'POST', '/api/v1/matches', {
      token: set.access_token,
      body: { ...gift(), organization_id: demo.mapleStreet },
    });
    expect(made.status).toBe(404);
  });
});

describe('client authentication', () => {
  it('refuses a bad client secret with invalid_client (401), by Basic or in the body', async () => {
    const flow = await authorize(partner);
    expect(await oauthErrorOf(exchange({ ...partner, secret: 'tfcs_wrong' }, flow))).toMatchObject({
      error: 'invalid_client',
      status: 401,
    });
    const set = await connect();
    expect(
      await oauthErrorOf(refreshWith({ ...partner, secret: 'tfcs_wrong' }, set.refresh_token ?? '')),
    ).toMatchObject({ error: 'invalid_client', status: 401 });
  });

  it('rotates the client secret with an overlap: old and new both work until the old expires', async () => {
    const rotated = await call(t.app, 'POST', `/api/partner-apps/${partner.id}/secret`, {
      token: tokens.super,
    });
    expect(rotated.status).toBe(200);
    const fresh = { ...partner, secret: rotated.json.client_secret as string };
    expect(rotated.json.app.secrets).toHaveLength(2);
    const viaNew = await connect(fresh);
    expect(viaNew.access_token).toBeTruthy();
    const viaOld = await refreshWith(partner, viaNew.refresh_token ?? '');
    expect(viaOld.access_token).toBeTruthy();
    await t.db
      .update(partnerAppSecrets)
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where(eq(partnerAppSecrets.prefix, partner.secret.slice(0, 11)));
    expect(await oauthErrorOf(refreshWith(partner, viaOld.refresh_token ?? ''))).toMatchObject({
      error: 'invalid_client',
    });
    partner = fresh;
  });

  it('answers an unsupported grant type with unsupported_grant_type', async () => {
    const response = await oauth.genericTokenEndpointRequest(
      as,
      partner.client,
      oauth.ClientSecretBasic(partner.secret),
      'password',
      { username: 'a', password: 'b' },
      options,
    );
    expect(
      await oauthErrorOf(oauth.processGenericTokenEndpointResponse(as, partner.client, response)),
    ).toMatchObject({
      error: 'unsupported_grant_type',
    });
  });
});

describe('revocation (RFC 7009) and introspection (RFC 7662)', () => {
  const introspect = async (app: Partner, token: string) =>
    oauth.processIntrospectionResponse(
      as,
      app.client,
      await oauth.introspectionRequest(as, app.client, oauth.ClientSecretBasic(app.secret), token, options),
    );
  const revoke = async (app: Partner, token: string) =>
    oauth.processRevocationResponse(
      await oauth.revocationRequest(as, app.client, oauth.ClientSecretBasic(app.secret), token, options),
    );

  it('introspects a live token (scope, organization, expiry) for its own client only', async () => {
    const set = await connect();
    const info = await introspect(partner, set.access_token);
    expect(info).toMatchObject({ active: true, scope: set.scope, client_id: partner.client.client_id });
    expect(info.organization_id).toBe(demo.hopeHarbor);
    expect(info.exp).toBeGreaterThan(Date.now() / 1000);
    expect(await introspect(narrow, set.access_token)).toEqual({ active: false });
    expect(await introspect(partner, 'tfat_unknown')).toEqual({ active: false });
  });

  it('revokes an access token alone, and a refresh token with its whole grant', async () => {
    const set = await connect();
    await revoke(partner, set.access_token);
    expect((await call(t.app, 'GET', '/api/v1/matches', { token: set.access_token })).status).toBe(401);
    expect((await introspect(partner, set.access_token)).active).toBe(false);
    const next = await refreshWith(partner, set.refresh_token ?? '');
    expect((await call(t.app, 'GET', '/api/v1/matches', { token: next.access_token })).status).toBe(200);
    await revoke(partner, next.refresh_token ?? '');
    expect((await call(t.app, 'GET', '/api/v1/matches', { token: next.access_token })).status).toBe(401);
    // Someone else's or an unknown token: 200, nothing happens (RFC 7009 §2.2).
    await revoke(narrow, 'tfrt_unknown');
  });
});

describe('Connected apps', () => {
  it('lists the connection for admins, and Disconnect refuses the next call at once', async () => {
    const set = await connect();
    const list = await call(t.app, 'GET', `/api/organization/${demo.hopeHarbor}/connected-apps`, {
      token: tokens.admin,
    });
    expect(list.status).toBe(200);
    const app = list.json.apps.find((a: { name: string }) => a.name === 'GiveHub');
    expect(app.scopes).toEqual(['matches:read', 'matches:write', 'webhooks:manage']);
    // Connecting again replaced the earlier connections of the same app.
    expect(list.json.apps.filter((a: { name: string }) => a.name === 'GiveHub')).toHaveLength(1);
    expect((await call(t.app, 'GET', '/api/v1/matches', { token: set.access_token })).status).toBe(200);
    const again = await call(t.app, 'GET', `/api/organization/${demo.hopeHarbor}/connected-apps`, {
      token: tokens.admin,
    });
    expect(again.json.apps.find((a: { name: string }) => a.name === 'GiveHub').last_used_at).not.toBeNull();
    const gone = await call(
      t.app,
      'DELETE',
      `/api/organization/${demo.hopeHarbor}/connected-apps/${app.id}`,
      {
        token: tokens.admin,
      },
    );
    expect(gone.status).toBe(200);
    expect((await call(t.app, 'GET', '/api/v1/matches', { token: set.access_token })).status).toBe(401);
    expect(await oauthErrorOf(refreshWith(partner, set.refresh_token ?? ''))).toMatchObject({
      error: 'invalid_grant',
    });
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.kind, 'partner_app.disconnected'));
    expect(event?.summary).toBe('Disconnected GiveHub');
    expect(JSON.stringify(event)).not.toContain(set.access_token);
  });
});

describe('the API reference (/api/v1/docs)', () => {
  it('documents the flow, and its partner-server example runs as written against the server', async () => {
    const res = await call(t.app, 'GET', '/api/v1/openapi.json');
    const document = res.json;
    expect(document.components.securitySchemes.oauth2.flows.authorizationCode.tokenUrl).toBe(
      `${t.config.publicUrl}/oauth/token`,
    );
    expect(document.paths['/api/v1/matches'].post.security).toContainEqual({ oauth2: ['matches:write'] });
    const description = document.info.description as string;
    expect(description).toContain('Connect as a partner app (OAuth 2.0)');
    const example = /```js\n([\s\S]*?)```/.exec(description)?.[1];
    expect(example).toBeTruthy();

    const flow = await authorize(partner);
    const code = new URL(flow.callback ?? '').searchParams.get('code');
    const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
      ...args: string[]
    ) => (
      ...values: unknown[]
    ) => Promise<{ match: { id: number; organization_id: number }; tokens: { access_token: string } }>;
    const run = new AsyncFunction(
      'fetch',
      'TWOFOLD',
      'CLIENT_ID',
      'CLIENT_SECRET',
      'REDIRECT_URI',
      'CODE',
      'CODE_VERIFIER',
      example ?? '',
    );
    const result = await run(
      fetchInProcess,
      t.config.publicUrl,
      partner.client.client_id,
      partner.secret,
      redirectUri,
      code,
      flow.verifier,
    );
    expect(result.match.organization_id).toBe(demo.hopeHarbor);
    expect(
      (await call(t.app, 'GET', `/api/v1/matches/${result.match.id}`, { token: result.tokens.access_token }))
        .status,
    ).toBe(200);
  });
});

describe("a partner app's webhook subscription", () => {
  it("receives the events of every organization that granted 'webhooks:manage', signed with its own secret", async () => {
    const received: { headers: Record<string, string>; body: string }[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        received.push({ headers: req.headers as Record<string, string>, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = receiver.address() as AddressInfo;
      const made = await call(t.app, 'POST', '/api/partner-apps', {
        token: tokens.super,
        body: {
          name: 'HookHub',
          website: 'https://partner.example',
          redirect_uris: [redirectUri],
          scopes: ['matches:read', 'webhooks:manage'],
          webhook_url: `http://127.0.0.1:${port}/twofold`,
        },
      });
      expect(made.status).toBe(201);
      const webhookSecret = made.json.webhook_secret as string;
      expect(webhookSecret).toMatch(/^whsec_/);
      const hooked: Partner = {
        client: { client_id: made.json.app.client_id },
        secret: made.json.client_secret,
        id: made.json.app.id,
      };
      // Hope Harbor grants it webhooks; Maple Street connects it without them.
      await connect(hooked);
      await exchange(hooked, await authorize(hooked, { scope: 'matches:read' }, { org: demo.mapleStreet }));
      const [harborMatch, mapleMatch] = await t.db
        .insert(donations)
        .values(
          [demo.hopeHarbor, demo.mapleStreet].map((organization_id) => ({
            organization_id,
            amount_cents: 2500,
            donated_at: new Date(),
            status_id: 23,
          })),
        )
        .returning({ id: donations.id });
      await t.db.transaction(async (tx) => {
        await firstOpened(tx, harborMatch?.id ?? 0);
        await firstOpened(tx, mapleMatch?.id ?? 0);
      });
      const worker = createWebhookWorker({
        db: t.db,
        logger: t.logger,
        outbound: { allowPrivate: true, timeoutMs: 2000 },
        secret: t.config.jwtSecret,
      });
      await worker.runOnce();
      const mine = received.filter((r) => r.body.includes(`"id":${harborMatch?.id}`));
      expect(mine).toHaveLength(1);
      expect(received.some((r) => r.body.includes(`"id":${mapleMatch?.id}`))).toBe(false);
      const payload = new StandardWebhook(webhookSecret).verify(
        mine[0]?.body ?? '',
        mine[0]?.headers ?? {},
      ) as {
        event: string;
        organization_id: number;
        bearer_token?: string;
      };
      expect(payload.event).toBe('first_open');
      expect(payload.organization_id).toBe(demo.hopeHarbor);
      expect(payload.bearer_token).toBeUndefined();
    } finally {
      receiver.close();
    }
  });
});
