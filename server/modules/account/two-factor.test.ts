import { and, desc, eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { twoFactorMessages } from '../../../src/contract/account.ts';
import { loadConfig } from '../../config.ts';
import { auditEvents, organizations, permissions, userSessions, users, userTotp } from '../../db/schema.ts';
import { call, demoOrganizationIds, lastMailTo, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';
import { hashPassword } from '../auth/passwords.ts';
import { policyMessages } from './account.service.ts';

/** Issue #24: authenticator apps, recovery codes, the second step of signing in, policy and resets. */

let t: TestContext;
let hope = 0;
let maple = 0;
let northShore = 0;
const ids: Record<string, number> = {};
const password = 'twofold-demo';

beforeAll(async () => {
  // Past three wrong codes (per user and address) each try needs a solved challenge, as passwords.
  t = await createTestContext({ config: { loginCaptchaAfter: 3 } });
  const demo = await demoOrganizationIds(t.db);
  hope = demo.hopeHarbor;
  maple = demo.mapleStreet;
  northShore = demo.northShore;
  for (const who of ['super', 'admin', 'writer', 'reader']) {
    const [row] = await t.db
      .select()
      .from(users)
      .where(eq(users.email, `${who}@twofold.test`));
    ids[who] = row?.id ?? 0;
  }
  // Members of their own: an admin of Maple Street only, and people to enrol.
  const hash = await hashPassword(password);
  for (const [key, email, org, level] of [
    ['mapleAdmin', 'maple-admin@example.org', maple, 'admin'],
    ['ana', 'ana@example.org', hope, 'write'],
    ['ben', 'ben@example.org', hope, 'read'],
    ['cy', 'cy@example.org', hope, 'read'],
    ['dee', 'dee@example.org', hope, 'read'],
  ] as const) {
    const [user] = await t.db.insert(users).values({ email, password_hash: hash }).returning();
    ids[key] = user?.id ?? 0;
    await t.db.insert(permissions).values({ org_id: org, user_id: ids[key] ?? 0, level });
  }
});
afterAll(() => t.close());

/** The code an authenticator app shows for `secret`, `offsetSteps` steps from now. */
function codeFor(secret: string, offsetSteps = 0): string {
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  return totp.generate({ timestamp: Date.now() + offsetSteps * 30_000 });
}

/** "Time passes": the user's last accepted step is forgotten, so the next code of now is fresh. */
async function laterOn(userId: number) {
  await t.db.update(userTotp).set({ last_used_step: 0 }).where(eq(userTotp.user_id, userId));
}

/** Sets up an authenticator app for a signed-in user; returns its secret and recovery codes. */
async function enrol(token: string) {
  const started = await call(t.app, 'POST', '/api/account/totp', { token });
  expect(started.status).toBe(200);
  const secret = started.json.secret as string;
  const confirmed = await call(t.app, 'POST', '/api/account/totp/confirm', {
    token,
    body: { code: codeFor(secret) },
  });
  expect(confirmed.status).toBe(200);
  return { secret, codes: confirmed.json.recovery_codes as string[], started: started.json };
}

async function passwordStep(email: string) {
  const res = await call(t.app, 'POST', '/api/auth/login', { body: { email, password } });
  expect(res.status).toBe(200);
  return res.json;
}

const secondFactor = (token: string, code: string, captcha?: string) =>
  call(t.app, 'POST', '/api/auth/second-factor', { body: { token, code, ...(captcha ? { captcha } : {}) } });

async function auditKinds(userId: number) {
  const rows = await t.db
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.actor_user_id, userId))
    .orderBy(desc(auditEvents.id));
  return rows;
}

describe('authenticator app (TOTP)', () => {
  it('enrols with a QR code and the secret as text, then gives ten recovery codes once; the secret is sealed and never shown again', async () => {
    const token = await signIn(t.app, 'ana@example.org');
    const { secret, codes, started } = await enrol(token);
    enrolled.set('ana@example.org', { secret, codes });
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(started.otpauth_url).toContain(`secret=${secret}`);
    expect(started.qr_svg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);

    const [row] = await t.db
      .select()
      .from(userTotp)
      .where(eq(userTotp.user_id, ids.ana ?? 0));
    expect(row?.confirmed_at).not.toBeNull();
    expect(row?.secret_sealed).not.toContain(secret);
    const status = await call(t.app, 'GET', '/api/account/two-factor', { token });
    expect(status.json).toMatchObject({ totp: true, recovery_codes_left: 10, session_two_factor: true });
    expect(JSON.stringify(status.json)).not.toContain(secret);
    // Starting again while one is set up is refused: the secret is never handed out twice.
    const again = await call(t.app, 'POST', '/api/account/totp', { token });
    expect(again).toMatchObject({ status: 409, json: { message: twoFactorMessages.alreadyEnrolled } });
    const kinds = (await auditKinds(ids.ana ?? 0)).map((r) => r.kind);
    expect(kinds).toEqual(expect.arrayContaining(['auth.totp_enabled', 'auth.recovery_codes_generated']));
  });

  it('a wrong first code does not confirm the app', async () => {
    const token = await signIn(t.app, 'dee@example.org');
    const started = await call(t.app, 'POST', '/api/account/totp', { token });
    const wrong = await call(t.app, 'POST', '/api/account/totp/confirm', {
      token,
      body: { code: codeFor(started.json.secret, -3) },
    });
    expect(wrong).toMatchObject({ status: 400, json: { message: twoFactorMessages.invalidCode } });
    const status = await call(t.app, 'GET', '/api/account/two-factor', { token });
    expect(status.json.totp).toBe(false);
    // Nothing asks dee for a code at sign-in.
    expect((await passwordStep('dee@example.org')).access_token).toEqual(expect.any(String));
  });

  it('sign-in asks for a code after the password: the pending token is no session; a code within one step signs in, once', async () => {
    await laterOn(ids.ana ?? 0);
    const { secret } = await secretOf('ana@example.org');
    const step = await passwordStep('ana@example.org');
    expect(step.access_token).toBeUndefined();
    expect(step.second_factor_token).toEqual(expect.any(String));
    // The pending token opens nothing.
    const asBearer = await call(t.app, 'GET', '/api/common', { token: step.second_factor_token });
    expect(asBearer.status).toBe(401);

    // A code outside the window (three steps ago) is refused.
    const stale = await secondFactor(step.second_factor_token, codeFor(secret, -3));
    expect(stale).toMatchObject({ status: 401, json: { message: twoFactorMessages.invalidCode } });

    const code = codeFor(secret, 1);
    const ok = await secondFactor(step.second_factor_token, code);
    expect(ok.status).toBe(200);
    expect((await call(t.app, 'GET', '/api/common', { token: ok.json.access_token })).status).toBe(200);
    const [session] = await t.db
      .select()
      .from(userSessions)
      .where(eq(userSessions.user_id, ids.ana ?? 0))
      .orderBy(desc(userSessions.created_at))
      .limit(1);
    expect(session).toMatchObject({ method: 'password', factors: ['password', 'totp'] });

    // The same code again (a replay, even with a fresh password step) is refused.
    const replay = await secondFactor((await passwordStep('ana@example.org')).second_factor_token, code);
    expect(replay.status).toBe(401);
    // So is an earlier code of the window, once a later one was used.
    const earlier = await secondFactor(
      (await passwordStep('ana@example.org')).second_factor_token,
      codeFor(secret),
    );
    expect(earlier.status).toBe(401);

    const audit = await auditKinds(ids.ana ?? 0);
    expect(audit.find((r) => r.kind === 'auth.sign_in')?.details).toMatchObject({
      method: 'password',
      factors: ['password', 'totp'],
    });
    expect(audit.filter((r) => r.kind === 'auth.sign_in_failed').length).toBeGreaterThanOrEqual(3);
  });

  it('a recovery code signs in once; a magic link also asks for the code and keeps its landing page', async () => {
    const ana = await secretOf('ana@example.org');
    const codes = ana.codes;
    const first = codes[0] ?? '';
    const once = await secondFactor(
      (await passwordStep('ana@example.org')).second_factor_token,
      first.toUpperCase(),
    );
    expect(once.status).toBe(200);
    const twice = await secondFactor((await passwordStep('ana@example.org')).second_factor_token, first);
    expect(twice.status).toBe(401);
    expect((await auditKinds(ids.ana ?? 0)).some((r) => r.kind === 'auth.recovery_code_used')).toBe(true);

    await call(t.app, 'POST', '/api/auth/otp', {
      body: { email: 'ana@example.org', redirect: '/portal/reports' },
    });
    const mail = await lastMailTo(t.db, 'ana@example.org');
    const magic = /magic=([^\s"&]+)/.exec(mail?.text ?? '')?.[1] ?? '';
    const landed = await call(t.app, 'POST', '/api/auth/otp/verify', {
      body: { token: decodeURIComponent(magic) },
    });
    expect(landed.status).toBe(200);
    expect(landed.json.access_token).toBeUndefined();
    expect(landed.json.redirect).toBe('/portal/reports');
    await laterOn(ids.ana ?? 0);
    const done = await secondFactor(landed.json.second_factor_token, codeFor(ana.secret));
    expect(done.status).toBe(200);
    expect(done.json.redirect).toBe('/portal/reports');
  });

  it('an invitation’s link is a first factor too: the owner joins, then gives the code to be signed in', async () => {
    const admin = await signIn(t.app, 'admin@twofold.test');
    const invited = await call(t.app, 'POST', '/api/user/permission', {
      token: admin,
      body: { org_id: northShore, email: 'ana@example.org', level: 'read' },
    });
    expect(invited.status).toBe(200);
    const mail = await lastMailTo(t.db, 'ana@example.org');
    const token = /invitation=([^\s"&]+)/.exec(mail?.text ?? '')?.[1] ?? '';
    const accepted = await call(t.app, 'POST', '/api/invitation/accept', {
      body: { token: decodeURIComponent(token) },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.json.access_token).toBeUndefined();
    expect(accepted.json.organization_id).toBe(northShore);
    await laterOn(ids.ana ?? 0);
    const ana = await secretOf('ana@example.org');
    const done = await secondFactor(accepted.json.second_factor_token, codeFor(ana.secret));
    expect(done.status).toBe(200);
    expect(done.json.me.orgs.map((o: { id: number }) => o.id)).toContain(northShore);
  });

  it('wrong codes are throttled like passwords: past three, each try needs a solved challenge, never a lockout', async () => {
    const pending = (await passwordStep('ana@example.org')).second_factor_token;
    let last = await secondFactor(pending, '000000');
    for (let i = 0; i < 3 && last.status === 401 && !last.json.captcha; i++)
      last = await secondFactor(pending, '000001');
    expect(last.json.captcha).toBe(true);
    const unsolved = await secondFactor(pending, '000002');
    expect(unsolved).toMatchObject({ status: 428, json: { captcha: true } });
    // The right code is not even checked without a challenge (the owner solves one and gets in).
    await laterOn(ids.ana ?? 0);
    const ana = await secretOf('ana@example.org');
    expect((await secondFactor(pending, codeFor(ana.secret))).status).toBe(428);
  });

  it('removing the app needs a current code or a recent sign-in; new recovery codes replace the old', async () => {
    const token = await signIn(t.app, 'cy@example.org');
    const { secret, codes } = await enrol(token);
    const fresh = await call(t.app, 'POST', '/api/account/recovery-codes', { token });
    expect(fresh.status).toBe(200);
    expect(fresh.json.recovery_codes).toHaveLength(10);
    // The old codes no longer work.
    const old = await secondFactor(
      (await passwordStep('cy@example.org')).second_factor_token,
      codes[1] ?? '',
    );
    expect(old.status).toBe(401);
    // An old session (signed in long ago) needs a code.
    await t.db
      .update(userSessions)
      .set({ created_at: new Date(Date.now() - 60 * 60 * 1000) })
      .where(eq(userSessions.user_id, ids.cy ?? 0));
    const refused = await call(t.app, 'POST', '/api/account/totp/remove', { token });
    expect(refused).toMatchObject({ status: 403, json: { message: twoFactorMessages.codeOrRecentSignIn } });
    await laterOn(ids.cy ?? 0);
    const removed = await call(t.app, 'POST', '/api/account/totp/remove', {
      token,
      body: { code: codeFor(secret) },
    });
    expect(removed.status).toBe(200);
    expect((await passwordStep('cy@example.org')).access_token).toEqual(expect.any(String));
    expect((await auditKinds(ids.cy ?? 0)).some((r) => r.kind === 'auth.totp_disabled')).toBe(true);
  });
});

/** Reads back what the enrol test stored for a user (its secret, as the test kept it). */
const enrolled = new Map<string, { secret: string; codes: string[] }>();
async function secretOf(email: string) {
  const found = enrolled.get(email);
  if (found) return found;
  throw new Error(`${email} was not enrolled by this file`);
}

describe('sessions', () => {
  it('lists the user’s sessions (device, address, this device) and ends another: its token is refused on the next call', async () => {
    const ua =
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
    const login = (agent: string) =>
      call(t.app, 'POST', '/api/auth/login', {
        body: { email: 'writer@twofold.test', password },
        headers: { 'user-agent': agent },
      });
    const mac = (await login(ua)).json.access_token as string;
    const other = (await login('Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0')).json
      .access_token as string;
    const list = await call(t.app, 'GET', '/api/account/sessions', { token: mac });
    expect(list.status).toBe(200);
    const sessions = list.json.sessions as Array<{ id: string; device: string; current: boolean }>;
    const mine = sessions.find((s) => s.current);
    expect(mine?.device).toBe('Chrome 131 on macOS');
    const theirs = sessions.find((s) => s.device.startsWith('Firefox'));
    expect(theirs).toBeDefined();

    expect((await call(t.app, 'GET', `/api/organization/${hope}`, { token: other })).status).toBe(200);
    const ended = await call(t.app, 'DELETE', `/api/account/sessions/${theirs?.id}`, { token: mac });
    expect(ended.status).toBe(200);
    const refused = await call(t.app, 'GET', `/api/organization/${hope}`, { token: other });
    expect(refused).toMatchObject({
      status: 401,
      json: { message: 'Authentication expired. Please login again.' },
    });
    expect((await call(t.app, 'GET', '/api/common', { token: mac })).status).toBe(200);
    // Someone else's session id is not found (and not ended).
    const adminToken = await signIn(t.app, 'admin@twofold.test');
    const notMine = await call(t.app, 'DELETE', `/api/account/sessions/${mine?.id}`, { token: adminToken });
    expect(notMine.status).toBe(404);
    expect((await call(t.app, 'GET', '/api/common', { token: mac })).status).toBe(200);
  });

  it('ends all other sessions at once; signing out ends this one', async () => {
    const a = await signIn(t.app, 'reader@twofold.test');
    const b = await signIn(t.app, 'reader@twofold.test');
    const c = await signIn(t.app, 'reader@twofold.test');
    const res = await call(t.app, 'POST', '/api/account/sessions/end-others', { token: a });
    expect(res.json.ended).toBeGreaterThanOrEqual(2);
    expect((await call(t.app, 'GET', '/api/common', { token: b })).status).toBe(401);
    expect((await call(t.app, 'GET', '/api/common', { token: c })).status).toBe(401);
    expect((await call(t.app, 'GET', '/api/common', { token: a })).status).toBe(200);
    expect((await call(t.app, 'POST', '/api/auth/logout', { token: a })).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/common', { token: a })).status).toBe(401);
  });

  it('“last seen” is written at most once a minute per session, not on every request', async () => {
    const token = await signIn(t.app, 'reader@twofold.test');
    const before = new Date(Date.now() - 30_000);
    await t.db
      .update(userSessions)
      .set({ last_seen_at: before })
      .where(eq(userSessions.user_id, ids.reader ?? 0));
    await call(t.app, 'GET', '/api/common', { token });
    const read = async () =>
      (
        await t.db
          .select()
          .from(userSessions)
          .where(eq(userSessions.user_id, ids.reader ?? 0))
      )
        .filter((s) => s.ended_at === null)
        .map((s) => s.last_seen_at.getTime());
    // The address is the same and the stored time is recent: nothing written.
    expect(await read()).toEqual([before.getTime()]);
    await t.db
      .update(userSessions)
      .set({ last_seen_at: new Date(Date.now() - 120_000) })
      .where(eq(userSessions.user_id, ids.reader ?? 0));
    await call(t.app, 'GET', '/api/common', { token });
    const [seen] = await read();
    expect(Date.now() - (seen ?? 0)).toBeLessThan(10_000);
  });
});

describe('organization policy', () => {
  it('an admin without a second factor cannot require one; with one, requires it of everyone', async () => {
    const admin = await signIn(t.app, 'admin@twofold.test');
    const refused = await call(t.app, 'PUT', `/api/organization/${hope}/two-factor`, {
      token: admin,
      body: { require_two_factor: true },
    });
    expect(refused).toMatchObject({ status: 409, json: { message: policyMessages.ownFirst } });
    const { secret, codes } = await enrol(admin);
    enrolled.set('admin@twofold.test', { secret, codes });
    const on = await call(t.app, 'PUT', `/api/organization/${hope}/two-factor`, {
      token: admin,
      body: { require_two_factor: true },
    });
    expect(on.status).toBe(200);
    expect(on.json.require_two_factor).toBe(true);
    const [org] = await t.db.select().from(organizations).where(eq(organizations.id, hope));
    expect(org?.require_two_factor).toBe(true);
    const [entry] = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.kind, 'organization.two_factor_policy'), eq(auditEvents.organization_id, hope)),
      );
    expect(entry?.actor_user_id).toBe(ids.admin);
  });

  it('blocks a member without a second factor on every staff route but the account page, until they enrol', async () => {
    const token = await signIn(t.app, 'ben@example.org');
    const me = await call(t.app, 'GET', '/api/common', { token });
    expect(me.status).toBe(200);
    expect(me.json.twoFactorRequired).toBe(true);
    // Every staff route outside the account page, whatever its parameters: refused before anything else.
    const staffRoutes = t.routes.filter(
      (r) =>
        !['anonymous', 'donor', 'api-key'].includes(r.access as string) &&
        !r.duringTwoFactorSetup &&
        !r.tokenInQuery,
    );
    expect(staffRoutes.length).toBeGreaterThan(50);
    for (const route of staffRoutes) {
      const path = route.path.replace(/:([A-Za-z_]+)/g, (_: string, name: string) =>
        name === 'id' || name.endsWith('Id') ? String(hope) : 'x',
      );
      const answer = await call(t.app, route.method.toUpperCase(), path, {
        token,
        ...(route.body ? { body: {} } : {}),
      });
      expect({
        route: `${route.method} ${route.path}`,
        status: answer.status,
        message: answer.json?.message,
        // The portal takes the user to their account page on this header.
        header: answer.headers.get('x-two-factor-required'),
      }).toEqual({
        route: `${route.method} ${route.path}`,
        status: 403,
        message: twoFactorMessages.required,
        header: 'true',
      });
    }
    // Its account page works: status, sessions, enrolment; once enrolled this very session goes on.
    const status = await call(t.app, 'GET', '/api/account/two-factor', { token });
    expect(status.json).toMatchObject({ required: true, totp: false });
    await enrol(token);
    expect((await call(t.app, 'GET', `/api/organization/${hope}`, { token })).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/common', { token })).json.twoFactorRequired).toBe(false);
  });

  it('members of other organizations are not affected', async () => {
    const token = await signIn(t.app, 'maple-admin@example.org');
    expect((await call(t.app, 'GET', `/api/organization/${maple}`, { token })).status).toBe(200);
  });
});

describe('resets', () => {
  it('an admin resets a member’s second factor: app and codes gone, sessions ended, member emailed, audited', async () => {
    await laterOn(ids.admin ?? 0);
    const adminSecret = enrolled.get('admin@twofold.test')?.secret ?? '';
    const pending = (await passwordStep('admin@twofold.test')).second_factor_token;
    const admin = (await secondFactor(pending, codeFor(adminSecret))).json.access_token as string;
    // ben enrolled above; his session is live.
    const benPending = (await passwordStep('ben@example.org')).second_factor_token;
    expect(benPending).toEqual(expect.any(String));
    const [benSession] = await t.db
      .select()
      .from(userSessions)
      .where(and(eq(userSessions.user_id, ids.ben ?? 0)));
    expect(benSession).toBeDefined();

    const reset = await call(t.app, 'POST', `/api/organization/${hope}/user/${ids.ben}/reset-two-factor`, {
      token: admin,
    });
    expect(reset.status).toBe(200);
    expect(
      await t.db
        .select()
        .from(userTotp)
        .where(eq(userTotp.user_id, ids.ben ?? 0)),
    ).toEqual([]);
    const live = (
      await t.db
        .select()
        .from(userSessions)
        .where(eq(userSessions.user_id, ids.ben ?? 0))
    ).filter((s) => s.ended_at === null);
    expect(live).toEqual([]);
    const mail = await lastMailTo(t.db, 'ben@example.org');
    expect(mail?.subject).toBe('Your Twofold two-factor sign-in was reset');
    const [entry] = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.kind, 'auth.two_factor_reset'), eq(auditEvents.subject_user_id, ids.ben ?? 0)),
      );
    expect(entry).toMatchObject({ organization_id: hope, actor_user_id: ids.admin });
    // ben signs in with the password alone again, and is sent to enrolment (Hope requires it).
    const again = await passwordStep('ben@example.org');
    expect(again.me.twoFactorRequired).toBe(true);
  });

  it('an admin of another organization cannot reset a member they do not manage', async () => {
    const mapleAdmin = await signIn(t.app, 'maple-admin@example.org');
    const viaMaple = await call(
      t.app,
      'POST',
      `/api/organization/${maple}/user/${ids.ana}/reset-two-factor`,
      {
        token: mapleAdmin,
      },
    );
    expect(viaMaple.status).toBe(404);
    const viaHope = await call(t.app, 'POST', `/api/organization/${hope}/user/${ids.ana}/reset-two-factor`, {
      token: mapleAdmin,
    });
    expect(viaHope.status).toBe(404);
    const superRoute = await call(t.app, 'POST', `/api/user/${ids.ana}/reset-two-factor`, {
      token: mapleAdmin,
    });
    expect(superRoute.status).toBe(403);
    expect(
      await t.db
        .select()
        .from(userTotp)
        .where(eq(userTotp.user_id, ids.ana ?? 0)),
    ).toHaveLength(1);
  });

  it('a super user resets anyone’s', async () => {
    const superToken = await signIn(t.app, 'super@twofold.test');
    const res = await call(t.app, 'POST', `/api/user/${ids.ana}/reset-two-factor`, { token: superToken });
    expect(res.status).toBe(200);
    expect(
      await t.db
        .select()
        .from(userTotp)
        .where(eq(userTotp.user_id, ids.ana ?? 0)),
    ).toEqual([]);
    const [entry] = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.kind, 'auth.two_factor_reset'), eq(auditEvents.subject_user_id, ids.ana ?? 0)),
      );
    expect(entry).toMatchObject({ organization_id: null, actor_user_id: ids.super });
  });
});

describe('super users beyond loopback', () => {
  it('a super user must pass a second factor when HOST is not loopback; on loopback only a requiring organization asks', async () => {
    expect(
      loadConfig({ JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing', HOST: '0.0.0.0' })
        .exposed,
    ).toBe(true);
    const exposed = await createTestContext({ config: { host: '0.0.0.0', exposed: true } });
    try {
      const org = (await demoOrganizationIds(exposed.db)).mapleStreet;
      const token = await signIn(exposed.app, 'super@twofold.test');
      const blocked = await call(exposed.app, 'GET', `/api/organization/${org}`, { token });
      expect(blocked).toMatchObject({ status: 403, json: { message: twoFactorMessages.required } });
      expect((await call(exposed.app, 'GET', '/api/common', { token })).json.twoFactorRequired).toBe(true);
      const started = await call(exposed.app, 'POST', '/api/account/totp', { token });
      const confirmed = await call(exposed.app, 'POST', '/api/account/totp/confirm', {
        token,
        body: { code: codeFor(started.json.secret) },
      });
      expect(confirmed.status).toBe(200);
      expect((await call(exposed.app, 'GET', `/api/organization/${org}`, { token })).status).toBe(200);
    } finally {
      await exposed.close();
    }
    // Here (loopback), the super user reaches Maple Street (no policy) but not Hope Harbor (requires it).
    const superToken = await signIn(t.app, 'super@twofold.test');
    expect((await call(t.app, 'GET', `/api/organization/${maple}`, { token: superToken })).status).toBe(200);
    const hopeAnswer = await call(t.app, 'GET', `/api/organization/${hope}`, { token: superToken });
    expect(hopeAnswer).toMatchObject({ status: 403, json: { message: twoFactorMessages.required } });
  });
});
