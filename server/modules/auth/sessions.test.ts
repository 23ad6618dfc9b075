import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissions, users } from '../../db/schema.ts';
import { call, demoOrganizationIds, lastMailTo, linkIn, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';

let t: TestContext;
let hope = 0;
let maple = 0;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestContext();
  const demo = await demoOrganizationIds(t.db);
  hope = demo.hopeHarbor;
  maple = demo.mapleStreet;
  for (const who of ['admin', 'writer', 'reader']) {
    const [row] = await t.db
      .select()
      .from(users)
      .where(eq(users.email, `${who}@twofold.test`));
    ids[who] = row?.id ?? 0;
  }
});
afterAll(() => t.close());

const expired = { message: 'Authentication expired. Please login again.' };
const common = (token: string) => call(t.app, 'GET', '/api/common', { token });

describe('sessions end when what they were granted on changes', () => {
  it('a password reset ends the sessions issued before it; a sign-in afterwards works', async () => {
    const old = await signIn(t.app, 'reader@twofold.test');
    expect((await common(old)).status).toBe(200);
    await call(t.app, 'POST', '/api/auth/forgot', { body: { email: 'reader@twofold.test' } });
    const mail = await lastMailTo(t.db, 'reader@twofold.test');
    const token = linkIn(
      mail?.text ?? '',
      'http://portal.test/portal/reset-password?token=',
    ).searchParams.get('token');
    const reset = await call(t.app, 'POST', '/api/auth/reset', { body: { token, password: 'fresh-pass-1' } });
    expect(reset.status).toBe(200);

    const after = await common(old);
    expect(after.status).toBe(401);
    expect(after.json).toEqual(expired);
    const fresh = await signIn(t.app, 'reader@twofold.test', 'fresh-pass-1');
    expect((await common(fresh)).status).toBe(200);
  });

  it('a removal from an organization ends the removed user’s sessions, not the admin’s', async () => {
    // The writer also holds Maple Street; removing it there must end the old session everywhere.
    await t.db.insert(permissions).values({ org_id: maple, user_id: ids.writer ?? 0, level: 'read' });
    const admin = await signIn(t.app, 'admin@twofold.test');
    const writer = await signIn(t.app, 'writer@twofold.test');
    const gone = await call(t.app, 'DELETE', '/api/user/permission', {
      token: admin,
      body: { org_id: maple, user_id: ids.writer },
    });
    expect(gone.status).toBe(200);
    expect((await common(writer)).status).toBe(401);
    expect((await call(t.app, 'GET', `/api/organization/${maple}`, { token: writer })).status).toBe(401);
    expect((await common(admin)).status).toBe(200);
    // Signing in again gives the access that is left (Hope Harbor only).
    const again = await call(t.app, 'POST', '/api/auth/login', {
      body: { email: 'writer@twofold.test', password: 'twofold-demo' },
    });
    expect(again.json.me.orgs.map((o: { id: number }) => o.id)).toEqual([hope]);
  });

  it('a demotion ends the demoted user’s sessions; a promotion does not', async () => {
    const admin = await signIn(t.app, 'admin@twofold.test');
    let writer = await signIn(t.app, 'writer@twofold.test');
    const up = await call(t.app, 'POST', '/api/user/permission', {
      token: admin,
      body: { org_id: hope, user_id: ids.writer, level: 'admin' },
    });
    expect(up.status).toBe(200);
    expect((await common(writer)).status).toBe(200);

    const down = await call(t.app, 'POST', '/api/user/permission', {
      token: admin,
      body: { org_id: hope, user_id: ids.writer, level: 'read' },
    });
    expect(down.status).toBe(200);
    const refused = await call(t.app, 'GET', `/api/organization/${hope}`, { token: writer });
    expect(refused.status).toBe(401);
    expect(refused.json).toEqual(expired);
    writer = await signIn(t.app, 'writer@twofold.test');
    expect((await common(writer)).status).toBe(200);
  });

  it('an admin who steps down keeps the session that did it (a fresh token); their others end', async () => {
    const other = await signIn(t.app, 'admin@twofold.test');
    const here = await signIn(t.app, 'admin@twofold.test');
    // A second admin first, so the admin may step down.
    await call(t.app, 'POST', '/api/user/permission', {
      token: here,
      body: { org_id: hope, user_id: ids.writer, level: 'admin' },
    });
    const down = await call(t.app, 'POST', '/api/user/permission', {
      token: here,
      body: { org_id: hope, user_id: ids.admin, level: 'write' },
    });
    expect(down.status).toBe(200);
    const fresh = down.json.access_token as string;
    expect(fresh).toEqual(expect.any(String));
    expect((await common(here)).status).toBe(401);
    expect((await common(other)).status).toBe(401);
    expect((await call(t.app, 'GET', `/api/organization/${hope}`, { token: fresh })).json.level).toBe(
      'write',
    );
    // Changing someone else's level gives the caller no token.
    const writer = await signIn(t.app, 'writer@twofold.test');
    const back = await call(t.app, 'POST', '/api/user/permission', {
      token: writer,
      body: { org_id: hope, user_id: ids.admin, level: 'admin' },
    });
    expect(back.status).toBe(200);
    expect(back.json.access_token).toBeUndefined();
  });
});
