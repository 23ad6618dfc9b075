import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invitations, permissions, users } from '../../db/schema.ts';
import { call, demoOrganizationIds, lastMailTo, linkIn, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';

let t: TestContext;
let hope = 0;
let maple = 0;
let admin = '';
let readerId = 0;

beforeAll(async () => {
  t = await createTestContext();
  const demo = await demoOrganizationIds(t.db);
  hope = demo.hopeHarbor;
  maple = demo.mapleStreet;
  admin = await signIn(t.app, 'admin@twofold.test');
  const [reader] = await t.db.select().from(users).where(eq(users.email, 'reader@twofold.test'));
  readerId = reader?.id ?? 0;
});
afterAll(() => t.close());

const invalid = {
  message:
    'This invitation is invalid, has expired or was cancelled. Ask an admin of the organization to send a new one.',
};

const invite = (email: string, level = 'read') =>
  call(t.app, 'POST', '/api/user/permission', { token: admin, body: { org_id: maple, email, level } });

async function linkToken(email: string): Promise<string> {
  const mail = await lastMailTo(t.db, email);
  return (
    linkIn(mail?.text ?? '', 'http://portal.test/portal/login?invitation=').searchParams.get('invitation') ??
    ''
  );
}

const isMember = async (orgId: number, userId: number) =>
  (
    await t.db
      .select()
      .from(permissions)
      .where(and(eq(permissions.org_id, orgId), eq(permissions.user_id, userId)))
  ).length === 1;

describe('inviting an existing account', () => {
  it('emails its owner, who sees what is offered, accepts once, and is signed in to it', async () => {
    const res = await invite('reader@twofold.test', 'write');
    expect(res.status).toBe(200);
    expect(res.json.users.find((u: { id: number }) => u.id === readerId)).toMatchObject({
      pending: true,
      level: 'write',
    });
    expect(await isMember(maple, readerId)).toBe(false);
    // The reader cannot reach the organization before accepting.
    const reader = await signIn(t.app, 'reader@twofold.test');
    expect((await call(t.app, 'GET', `/api/organization/${maple}`, { token: reader })).status).toBe(404);

    const mail = await lastMailTo(t.db, 'reader@twofold.test');
    expect(mail?.text).toContain('with write access');
    expect(mail?.text).toContain('expires in 7 days');
    const token = await linkToken('reader@twofold.test');
    // Only the hash is stored.
    expect((await t.db.select().from(invitations)).map((i) => i.token_hash)).not.toContain(token);

    const preview = await call(t.app, 'POST', '/api/invitation', { body: { token } });
    expect(preview.json).toEqual({
      organization: 'Maple Street PTA',
      level: 'write',
      email: 'reader@twofold.test',
      invited_by: 'Alex Morgan',
      registration: false,
    });
    const accepted = await call(t.app, 'POST', '/api/invitation/accept', { body: { token } });
    expect(accepted.status).toBe(200);
    expect(accepted.json.organization_id).toBe(maple);
    expect(accepted.json.me.orgs.map((o: { id: number }) => o.id)).toContain(maple);
    expect(
      (await call(t.app, 'GET', `/api/organization/${maple}`, { token: accepted.json.access_token })).json
        .level,
    ).toBe('write');

    const again = await call(t.app, 'POST', '/api/invitation/accept', { body: { token } });
    expect(again.status).toBe(400);
    expect(again.json).toEqual(invalid);
    const list = await call(t.app, 'GET', `/api/organization/${maple}`, { token: admin });
    expect(
      list.json.organization.users.find((u: { id: number }) => u.id === readerId).pending,
    ).toBeUndefined();
  });

  it('refuses a second invitation, and a member, with 409', async () => {
    await t.db.insert(users).values({ email: 'twice@example.org', name: 'Twice' });
    await invite('twice@example.org');
    const second = await invite('twice@example.org', 'admin');
    expect(second.status).toBe(409);
    expect(second.json).toEqual({
      message: 'That user has already been invited to this organization. You can resend the invitation.',
    });
    expect((await invite('reader@twofold.test')).status).toBe(409);
  });

  it('resend replaces the link; cancel withdraws it', async () => {
    const [user] = await t.db.insert(users).values({ email: 'later@example.org', name: 'Later' }).returning();
    const userId = user?.id ?? 0;
    await invite('later@example.org');
    const first = await linkToken('later@example.org');
    const resent = await call(t.app, 'POST', '/api/user/invitation', {
      token: admin,
      body: { org_id: maple, user_id: userId },
    });
    expect(resent.status).toBe(200);
    const second = await linkToken('later@example.org');
    expect(second).not.toBe(first);
    expect((await call(t.app, 'POST', '/api/invitation/accept', { body: { token: first } })).json).toEqual(
      invalid,
    );

    const cancelled = await call(t.app, 'DELETE', '/api/user/invitation', {
      token: admin,
      body: { org_id: maple, user_id: userId },
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.json.users.map((u: { id: number }) => u.id)).not.toContain(userId);
    expect((await call(t.app, 'POST', '/api/invitation/accept', { body: { token: second } })).status).toBe(
      400,
    );
    expect(await isMember(maple, userId)).toBe(false);
    const gone = await call(t.app, 'DELETE', '/api/user/invitation', {
      token: admin,
      body: { org_id: maple, user_id: userId },
    });
    expect(gone.status).toBe(404);
    expect(gone.json).toEqual({ message: 'Invitation not found' });
  });

  it('refuses an expired link', async () => {
    const [user] = await t.db.insert(users).values({ email: 'slow@example.org', name: 'Slow' }).returning();
    await invite('slow@example.org');
    const token = await linkToken('slow@example.org');
    await t.db
      .update(invitations)
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where(eq(invitations.user_id, user?.id ?? 0));
    expect((await call(t.app, 'POST', '/api/invitation', { body: { token } })).json).toEqual(invalid);
    expect((await call(t.app, 'POST', '/api/invitation/accept', { body: { token } })).status).toBe(400);
    expect(await isMember(maple, user?.id ?? 0)).toBe(false);
  });

  it('a member below admin cannot resend or cancel it', async () => {
    const [user] = await t.db.insert(users).values({ email: 'guarded@example.org', name: 'G' }).returning();
    const invited = await call(t.app, 'POST', '/api/user/permission', {
      token: admin,
      body: { org_id: hope, email: 'guarded@example.org', level: 'read' },
    });
    expect(invited.status).toBe(200);
    const writer = await signIn(t.app, 'writer@twofold.test');
    const refused = await call(t.app, 'DELETE', '/api/user/invitation', {
      token: writer,
      body: { org_id: hope, user_id: user?.id },
    });
    expect(refused.status).toBe(403);
    expect(
      await t.db
        .select()
        .from(invitations)
        .where(eq(invitations.user_id, user?.id ?? 0)),
    ).toHaveLength(1);
  });
});
