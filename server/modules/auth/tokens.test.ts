import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenPurposes } from '../../db/schema.ts';
import { httpMessages } from '../../http/errors.ts';
import { call, demoOrganizationIds, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';
import {
  consumeToken,
  issueToken,
  type SignedPurpose,
  signedPurposes,
  signToken,
  verifyToken,
} from './tokens.ts';

/** The one token module: a token made for one purpose is never accepted for another. */

let t: TestContext;
let secret = '';
let orgId = 0;
let adminId = 0;
let adminSession = '';
beforeAll(async () => {
  t = await createTestContext({ config: { logRequests: false } });
  secret = t.config.jwtSecret;
  orgId = (await demoOrganizationIds(t.db)).hopeHarbor;
  const admin = await signIn(t.app, 'admin@twofold.test');
  const verified = await verifyToken(secret, 'access', admin, t.db);
  adminId = Number(verified?.subject);
  adminSession = verified?.session?.id ?? '';
});
afterAll(() => t.close());

const subjectFor = (purpose: SignedPurpose) => (purpose === 'donor-session' ? 'donor@example.org' : adminId);

describe('signed tokens', () => {
  it('verify only for the purpose they were signed for', async () => {
    for (const made of signedPurposes) {
      // A session token names its live session (a row of user_sessions).
      const sid = made === 'access' ? { sid: adminSession } : {};
      const token = await signToken(secret, made, subjectFor(made), {
        org: orgId,
        data: { filters: {} },
        ...sid,
      });
      for (const asked of signedPurposes) {
        const verified = await verifyToken(secret, asked, token, t.db);
        if (asked === made)
          expect(verified, `${made} as ${made}`).toMatchObject({ purpose: made, org: orgId });
        else expect(verified, `${made} as ${asked}`).toBeNull();
      }
    }
  });

  it('refuse a token without a purpose, with an unknown one, or with a subject of the wrong kind', async () => {
    const sign = (claims: Record<string, unknown>, sub: string) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(sub)
        .setExpirationTime(Math.floor(Date.now() / 1000) + 600)
        .sign(new TextEncoder().encode(secret));
    const sid = adminSession;
    expect(
      await verifyToken(secret, 'access', await sign({ kind: 'staff', sid }, String(adminId)), t.db),
    ).toBeNull();
    expect(
      await verifyToken(secret, 'access', await sign({ purpose: 'admin', sid }, String(adminId)), t.db),
    ).toBeNull();
    // A donor session names an email; as an access token it would name no user.
    expect(
      await verifyToken(secret, 'access', await sign({ purpose: 'access', sid }, 'donor@example.org'), t.db),
    ).toBeNull();
    // A session token naming no session, or another user's, is refused.
    expect(
      await verifyToken(secret, 'access', await sign({ purpose: 'access' }, String(adminId)), t.db),
    ).toBeNull();
    expect(
      await verifyToken(secret, 'access', await sign({ purpose: 'access', sid }, String(adminId + 1)), t.db),
    ).toBeNull();
    expect(
      await verifyToken(secret, 'access', await sign({ purpose: 'access', sid }, String(adminId)), t.db),
    ).not.toBeNull();
  });
});

describe('one-time tokens', () => {
  it('are used only for their own purpose, and only once', async () => {
    for (const made of tokenPurposes) {
      const token =
        made === 'donor_link'
          ? await issueToken(t.db, 'donor_link', { donationId: 1, email: 'donor@example.org' }, 60_000)
          : await issueToken(t.db, made, adminId, 60_000);
      for (const asked of tokenPurposes) {
        if (asked !== made) expect(await consumeToken(t.db, asked, token), `${made} as ${asked}`).toBeNull();
      }
      // Still unused after the wrong tries: its own purpose takes it, once.
      expect(await consumeToken(t.db, made, token)).not.toBeNull();
      expect(await consumeToken(t.db, made, token)).toBeNull();
    }
  });
});

describe('on the routes', () => {
  it('a CSV link is not a session, and a session or donor session is not a CSV link', async () => {
    const csv = await signToken(secret, 'csv-link', adminId, { org: orgId, data: { filters: {} } });
    const access = await signIn(t.app, 'admin@twofold.test');
    const donor = await signToken(secret, 'donor-session', 'donor@example.org');
    const asBearer = await call(t.app, 'GET', `/api/organization/${orgId}`, { token: csv });
    expect(asBearer).toMatchObject({ status: 401, json: { message: httpMessages.authExpired } });
    for (const token of [access, donor]) {
      expect((await call(t.app, 'GET', `/api/donation/${orgId}/csv?token=${token}`)).status).toBe(401);
    }
    expect((await call(t.app, 'GET', `/api/donation/${orgId}/csv?token=${csv}`)).status).toBe(200);
  });

  it('the billing links take a session token only: a CSV link or a donor session is sent to sign in', async () => {
    const csv = await signToken(secret, 'csv-link', adminId, { org: orgId, data: { filters: {} } });
    const donor = await signToken(secret, 'donor-session', 'donor@example.org');
    for (const token of [csv, donor]) {
      const answer = await call(t.app, 'GET', `/api/organization/${orgId}/billing-portal?token=${token}`);
      expect(answer.status).toBe(303);
      expect(answer.headers.get('location')).toContain('/portal/login');
    }
  });

  it('a ?token= route ignores a bearer header: the link is the credential', async () => {
    const access = await signIn(t.app, 'admin@twofold.test');
    const answer = await call(t.app, 'GET', `/api/donation/${orgId}/csv`, { token: access });
    expect(answer.status).toBe(401);
  });
});
