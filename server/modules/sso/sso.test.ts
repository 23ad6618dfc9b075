import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ssoErrors, ssoMessages } from '../../../src/contract/sso.ts';
import { auditEvents, permissions, ssoConnections, users } from '../../db/schema.ts';
import { call, demoOrganizationIds, lastMailTo, linkIn, signIn } from '../../test-helpers.ts';
import { signInAtProvider, startTestOidcProvider, type TestOidcProvider } from '../../test-oidc-provider.ts';
import { createTestContext, type TestContext } from '../../testing.ts';
import { hashPassword } from '../auth/passwords.ts';
import { SoftwareAuthenticator } from '../passkeys/software-authenticator.ts';
import { ssoCookie } from './sso.service.ts';

let t: TestContext;
let op: TestOidcProvider;
let hope = 0;
let maple = 0;
let superToken = '';
const callback = 'http://portal.test/api/auth/sso/callback';

beforeAll(async () => {
  t = await createTestContext({ config: { ssoAllowPrivate: true } });
  // A real OpenID provider on a port of this engineer's range (9001-9050).
  op = await startTestOidcProvider({ port: 9011, redirectUris: [callback] });
  const demo = await demoOrganizationIds(t.db);
  hope = demo.hopeHarbor;
  maple = demo.mapleStreet;
  superToken = await signIn(t.app, 'super@twofold.test');
});
afterAll(async () => {
  await op?.close();
  await t?.close();
});

const connection = (overrides: Record<string, unknown> = {}) => ({
  provider_name: 'Hope Workspace',
  issuer: op.issuer,
  client_id: op.clientId,
  client_secret: op.clientSecret,
  domains: ['hope.test'],
  default_level: 'read',
  join_mode: 'join',
  require_sso: false,
  ...overrides,
});

const configure = (overrides: Record<string, unknown> = {}, token = superToken, org = hope) =>
  call(t.app, 'PUT', `/api/organization/${org}/sso`, { token, body: connection(overrides) });

/**
 * A browser's whole single sign-on: start (Twofold sets its cookie and sends it to the provider),
 * the provider's login, the callback. `tamper` may change the authorization URL or the callback.
 */
async function ssoSignIn(
  email: string,
  tamper: {
    authorization?: (url: URL) => void;
    callback?: (url: URL) => void;
    cookie?: string;
    /** Receives the callback request, to send it again. */
    onCallback?: (path: string, cookie: string) => void;
  } = {},
) {
  const start = await call(
    t.app,
    'GET',
    `/api/auth/sso/start?email=${encodeURIComponent(email)}&redirect=/portal/donations`,
  );
  expect(start.status).toBe(303);
  const location = new URL(start.headers.get('location') ?? '');
  const cookie = start.headers.get('set-cookie')?.match(new RegExp(`${ssoCookie}=([^;]+)`))?.[1] ?? '';
  expect(location.origin).toBe(op.issuer);
  expect(location.searchParams.get('code_challenge_method')).toBe('S256');
  tamper.authorization?.(location);
  const back = await signInAtProvider(location.href, callback);
  tamper.callback?.(back);
  tamper.onCallback?.(`${back.pathname}${back.search}`, tamper.cookie ?? cookie);
  const done = await call(t.app, 'GET', `${back.pathname}${back.search}`, {
    headers: { cookie: `${ssoCookie}=${tamper.cookie ?? cookie}` },
  });
  expect(done.status).toBe(303);
  return new URL(done.headers.get('location') ?? '');
}

const complete = (token: string) => call(t.app, 'POST', '/api/auth/sso/complete', { body: { token } });

async function userId(email: string) {
  const [row] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return row?.id;
}

describe('connecting an organization to a provider', () => {
  it('keeps the client secret sealed, never returns it, and records the change in the audit log', async () => {
    const saved = await configure();
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json.connection).toMatchObject({
      provider_name: 'Hope Workspace',
      domains: ['hope.test'],
      has_client_secret: true,
    });
    expect(saved.json.connection.redirect_uri).toBe(callback);
    expect(saved.text).not.toContain(op.clientSecret);
    const [row] = await t.db.select().from(ssoConnections).where(eq(ssoConnections.organization_id, hope));
    expect(row?.client_secret_sealed).not.toContain(op.clientSecret);
    // Editing without a secret keeps the stored one.
    const { client_secret: _s, ...withoutSecret } = connection({ provider_name: 'Hope Google' });
    const edited = await call(t.app, 'PUT', `/api/organization/${hope}/sso`, {
      token: superToken,
      body: withoutSecret,
    });
    expect(edited.status).toBe(200);
    const read = await call(t.app, 'GET', `/api/organization/${hope}/sso`, { token: superToken });
    expect(read.json.connection.provider_name).toBe('Hope Google');
    expect(read.text).not.toContain(op.clientSecret);
    const entries = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.kind, 'organization.sso_configured'), eq(auditEvents.organization_id, hope)));
    expect(entries.length).toBe(2);
    expect(JSON.stringify(entries)).not.toContain(op.clientSecret);
    await configure({ provider_name: 'Hope Workspace' });
  });

  it('refuses a domain another organization claimed, public email domains, an admin’s foreign domain and an issuer that is not a provider', async () => {
    const taken = await configure({}, superToken, maple);
    expect(taken.status).toBe(409);
    expect(taken.json).toEqual({ message: ssoMessages.domainTaken('hope.test') });
    const gmail = await configure({ domains: ['gmail.com'] }, superToken, maple);
    expect(gmail.status).toBe(400);
    const admin = await signIn(t.app, 'admin@twofold.test');
    const foreign = await configure({ domains: ['maple.test'] }, admin, maple);
    expect(foreign.status).toBe(403);
    expect(foreign.json.message).toBe(ssoMessages.domainNotYours('maple.test', 'twofold.test'));
    const notOidc = await configure(
      { domains: ['maple.test'], issuer: 'http://127.0.0.1:9012' },
      superToken,
      maple,
    );
    expect(notOidc.status).toBe(400);
    expect(notOidc.json).toEqual({ message: ssoMessages.discoveryFailed });
    const noSecret = await configure({ domains: ['maple.test'], client_secret: '' }, superToken, maple);
    expect(noSecret.status).toBe(400);
    const [row] = await t.db.select().from(ssoConnections).where(eq(ssoConnections.organization_id, maple));
    expect(row).toBeUndefined();
  });

  it('tells the login page only whether the domain signs in through a provider, and its name', async () => {
    const found = await call(t.app, 'GET', '/api/auth/sso/lookup?email=someone@hope.test');
    expect(found.json).toEqual({ sso: { provider: 'Hope Workspace', required: false } });
    const none = await call(t.app, 'GET', '/api/auth/sso/lookup?email=someone@elsewhere.test');
    expect(none.json).toEqual({ sso: null });
  });
});

describe('signing in through the provider', () => {
  it('a first sign-in creates the account, joins at the chosen level and lands in the organization', async () => {
    op.accounts.set('alice@hope.test', {
      email: 'alice@hope.test',
      email_verified: true,
      name: 'Alice Hope',
    });
    const landed = await ssoSignIn('alice@hope.test');
    expect(landed.pathname).toBe('/portal/login');
    const token = landed.searchParams.get('sso') ?? '';
    const session = await complete(token);
    expect(session.status, session.text).toBe(200);
    expect(session.json.me.email).toBe('alice@hope.test');
    expect(session.json.me.name).toBe('Alice Hope');
    expect(session.json.redirect).toBe('/portal/donations');
    expect(session.json.organization_id).toBe(hope);
    const [grant] = await t.db
      .select()
      .from(permissions)
      .where(
        and(eq(permissions.org_id, hope), eq(permissions.user_id, (await userId('alice@hope.test')) ?? 0)),
      );
    expect(grant?.level).toBe('read');
    // The hand-off token works once.
    expect((await complete(token)).status).toBe(400);
    const [signInEntry] = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.kind, 'auth.sign_in'),
          eq(auditEvents.actor_user_id, (await userId('alice@hope.test')) ?? 0),
        ),
      );
    expect(signInEntry?.details).toMatchObject({ method: 'sso' });
    // A second sign-in keeps the account and its level.
    const again = await complete((await ssoSignIn('alice@hope.test')).searchParams.get('sso') ?? '');
    expect(again.status).toBe(200);
  });

  it('with "ask an admin to approve", a first sign-in waits as a request the admin approves', async () => {
    await configure({ join_mode: 'approve', default_level: 'write' });
    op.accounts.set('bob@hope.test', { email: 'bob@hope.test', email_verified: true, name: 'Bob' });
    const waiting = await ssoSignIn('bob@hope.test');
    expect(waiting.searchParams.get('sso_error')).toBe('pending');
    expect(waiting.searchParams.get('sso')).toBeNull();
    const toAdmin = await lastMailTo(t.db, 'admin@twofold.test');
    expect(toAdmin?.subject).toBe('bob@hope.test asks to join Hope Harbor Foundation on Twofold');
    expect(toAdmin?.text).toContain('http://portal.test/portal/organization-details?tab=sso');
    // Trying again files no second request and no second email.
    await ssoSignIn('bob@hope.test');
    expect((await lastMailTo(t.db, 'admin@twofold.test'))?.id).toBe(toAdmin?.id);
    const settings = await call(t.app, 'GET', `/api/organization/${hope}/sso`, { token: superToken });
    const request = settings.json.requests.find((r: { email: string }) => r.email === 'bob@hope.test');
    expect(request).toBeDefined();
    const approved = await call(
      t.app,
      'POST',
      `/api/organization/${hope}/sso/requests/${request.id}/approve`,
      {
        token: superToken,
        body: { level: 'write' },
      },
    );
    expect(approved.status).toBe(200);
    expect(approved.json.requests).toEqual([]);
    expect((await lastMailTo(t.db, 'bob@hope.test'))?.subject).toBe(
      'You can now sign in to Hope Harbor Foundation on Twofold',
    );
    const session = await complete((await ssoSignIn('bob@hope.test')).searchParams.get('sso') ?? '');
    expect(session.status).toBe(200);
    const [grant] = await t.db
      .select()
      .from(permissions)
      .where(
        and(eq(permissions.org_id, hope), eq(permissions.user_id, (await userId('bob@hope.test')) ?? 0)),
      );
    expect(grant?.level).toBe('write');
    // Declining removes the request and grants nothing.
    op.accounts.set('dan@hope.test', { email: 'dan@hope.test', email_verified: true });
    await ssoSignIn('dan@hope.test');
    const again = await call(t.app, 'GET', `/api/organization/${hope}/sso`, { token: superToken });
    const dan = again.json.requests.find((r: { email: string }) => r.email === 'dan@hope.test');
    const declined = await call(t.app, 'DELETE', `/api/organization/${hope}/sso/requests/${dan.id}`, {
      token: superToken,
    });
    expect(declined.json.requests).toEqual([]);
    const danGrants = await t.db
      .select()
      .from(permissions)
      .where(eq(permissions.user_id, (await userId('dan@hope.test')) ?? 0));
    expect(danGrants).toEqual([]);
    await configure();
  });

  it('refuses a wrong state, a state from another browser and a replayed callback', async () => {
    op.accounts.set('erin@hope.test', { email: 'erin@hope.test', email_verified: true });
    const wrong = await ssoSignIn('erin@hope.test', {
      callback: (url) => url.searchParams.set('state', 'forged-state-value'),
    });
    expect(wrong.searchParams.get('sso_error')).toBe('state');
    const otherBrowser = await ssoSignIn('erin@hope.test', { cookie: 'someone-elses-cookie' });
    expect(otherBrowser.searchParams.get('sso_error')).toBe('state');
    expect(await userId('erin@hope.test')).toBeUndefined();

    let replay = { path: '', cookie: '' };
    const first = await ssoSignIn('erin@hope.test', {
      onCallback: (path, cookie) => (replay = { path, cookie }),
    });
    expect(first.searchParams.get('sso')).toBeTruthy();
    const again = await call(t.app, 'GET', replay.path, {
      headers: { cookie: `${ssoCookie}=${replay.cookie}` },
    });
    expect(new URL(again.headers.get('location') ?? '').searchParams.get('sso_error')).toBe('state');
    expect(ssoErrors.state).toMatch(/did not start in this browser/);
  });

  it('refuses an ID token whose nonce is not the one this sign-in sent', async () => {
    op.accounts.set('fay@hope.test', { email: 'fay@hope.test', email_verified: true });
    const landed = await ssoSignIn('fay@hope.test', {
      authorization: (url) => url.searchParams.set('nonce', 'an-attackers-nonce-0123456789'),
    });
    expect(landed.searchParams.get('sso_error')).toBe('provider');
    expect(await userId('fay@hope.test')).toBeUndefined();
  });

  it('refuses an email in a domain the connection does not vouch for, and an unverified email', async () => {
    op.accounts.set('gil@hope.test', { email: 'gil@elsewhere.test', email_verified: true });
    const foreign = await ssoSignIn('gil@hope.test');
    expect(foreign.searchParams.get('sso_error')).toBe('domain');
    expect(await userId('gil@elsewhere.test')).toBeUndefined();
    op.accounts.set('hal@hope.test', { email: 'hal@hope.test', email_verified: false });
    const unverified = await ssoSignIn('hal@hope.test');
    expect(unverified.searchParams.get('sso_error')).toBe('unverified');
    expect(await userId('hal@hope.test')).toBeUndefined();
  });

  it('"require SSO" refuses password and magic-link sign-in for the domain, pointing to the provider', async () => {
    await t.db
      .insert(users)
      .values({ email: 'ivy@hope.test', password_hash: await hashPassword('ivy-password') });
    const before = await call(t.app, 'POST', '/api/auth/login', {
      body: { email: 'ivy@hope.test', password: 'ivy-password' },
    });
    expect(before.status).toBe(200);
    // Ivy holds a passkey and a magic link from before the requirement.
    const authenticator = new SoftwareAuthenticator('http://portal.test');
    const token = before.json.access_token;
    const options = await call(t.app, 'POST', '/api/account/passkeys/options', { token });
    const added = await call(t.app, 'POST', '/api/account/passkeys', {
      token,
      body: { credential: authenticator.register(options.json) },
    });
    expect(added.status).toBe(201);
    expect((await call(t.app, 'POST', '/api/auth/otp', { body: { email: 'ivy@hope.test' } })).status).toBe(
      200,
    );
    const link = await lastMailTo(t.db, 'ivy@hope.test');
    const magicToken = linkIn(link?.text ?? '', 'http://portal.test/portal/login?magic=').searchParams.get(
      'magic',
    );
    await configure({ require_sso: true });
    const stale = await call(t.app, 'POST', '/api/auth/otp/verify', { body: { token: magicToken } });
    expect(stale.status).toBe(403);
    const passkeyOptions = await call(t.app, 'POST', '/api/auth/passkey/options', { body: {} });
    const withPasskey = await call(t.app, 'POST', '/api/auth/passkey', {
      body: { credential: authenticator.authenticate(passkeyOptions.json) },
    });
    expect(withPasskey.status).toBe(403);
    expect(withPasskey.json).toEqual({ message: ssoMessages.required('Hope Workspace') });
    const refused = await call(t.app, 'POST', '/api/auth/login', {
      body: { email: 'ivy@hope.test', password: 'ivy-password' },
    });
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({ message: ssoMessages.required('Hope Workspace') });
    const magic = await call(t.app, 'POST', '/api/auth/otp', { body: { email: 'ivy@hope.test' } });
    expect(magic.status).toBe(403);
    expect((await call(t.app, 'GET', '/api/auth/sso/lookup?email=ivy@hope.test')).json.sso.required).toBe(
      true,
    );
    // Other domains are untouched.
    expect(
      (
        await call(t.app, 'POST', '/api/auth/login', {
          body: { email: 'reader@twofold.test', password: 'twofold-demo' },
        })
      ).status,
    ).toBe(200);
    op.accounts.set('ivy@hope.test', { email: 'ivy@hope.test', email_verified: true });
    expect((await complete((await ssoSignIn('ivy@hope.test')).searchParams.get('sso') ?? '')).status).toBe(
      200,
    );
  });

  it('never signs in a super user through an organization’s provider', async () => {
    await t.db.insert(users).values({ email: 'root@hope.test', global_permission: true });
    op.accounts.set('root@hope.test', { email: 'root@hope.test', email_verified: true });
    const refused = await ssoSignIn('root@hope.test');
    expect(refused.searchParams.get('sso_error')).toBe('superuser');
    expect(refused.searchParams.get('sso')).toBeNull();
  });

  it('removing the connection frees the domain and is audited', async () => {
    const removed = await call(t.app, 'DELETE', `/api/organization/${hope}/sso`, { token: superToken });
    expect(removed.status).toBe(200);
    expect(removed.json.connection).toBeNull();
    expect((await call(t.app, 'GET', '/api/auth/sso/lookup?email=ivy@hope.test')).json).toEqual({
      sso: null,
    });
    expect(
      (
        await call(t.app, 'POST', '/api/auth/login', {
          body: { email: 'ivy@hope.test', password: 'ivy-password' },
        })
      ).status,
    ).toBe(200);
    const entries = await t.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.kind, 'organization.sso_removed'));
    expect(entries.length).toBe(1);
    expect((await call(t.app, 'DELETE', `/api/organization/${hope}/sso`, { token: superToken })).status).toBe(
      404,
    );
  });
});
