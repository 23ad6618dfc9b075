import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissions, users } from '../../db/schema.ts';
import { call, demoOrganizationIds, lastMailTo, linkIn, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';

let t: TestContext;
let hope = 0;
let maple = 0;
const tokens: Record<string, string> = {};
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestContext();
  const demo = await demoOrganizationIds(t.db);
  hope = demo.hopeHarbor;
  maple = demo.mapleStreet;
  for (const who of ['super', 'admin', 'writer', 'reader']) {
    tokens[who] = await signIn(t.app, `${who}@twofold.test`);
    ids[who] =
      (
        await t.db
          .select()
          .from(users)
          .where(eq(users.email, `${who}@twofold.test`))
      )[0]?.id ?? 0;
  }
});
afterAll(() => t.close());

const post = (who: string, body: unknown) =>
  call(t.app, 'POST', '/api/user/permission', { token: tokens[who], body });
const remove = (who: string, body: unknown) =>
  call(t.app, 'DELETE', '/api/user/permission', { token: tokens[who], body });
const put = (who: string, id: number, body: unknown) =>
  call(t.app, 'PUT', `/api/user/${id}`, { token: tokens[who], body });
const levelOf = async (orgId: number, userId: number) =>
  (
    await t.db
      .select()
      .from(permissions)
      .where(and(eq(permissions.org_id, orgId), eq(permissions.user_id, userId)))
  )[0]?.level;

describe('POST /api/user/permission (add)', () => {
  it('creates a new user named "No Name" and invites them to set a password', async () => {
    const res = await post('admin', {
      org_id: hope,
      email: 'New.Person@Example.org',
      level: 'read',
      name: '',
    });
    expect(res.status).toBe(200);
    expect(res.json.users).toContainEqual({
      id: expect.any(Number),
      name: 'No Name',
      email: 'new.person@example.org',
      level: 'read',
      editable: true,
    });
    const mail = await lastMailTo(t.db, 'new.person@example.org');
    expect(mail?.subject).toBe('You have been added to Hope Harbor Foundation on Twofold');
    expect(mail?.text).toContain('Alex Morgan added you');
    expect(mail?.text).toContain('expires in 7 days');
    const link = linkIn(mail?.text ?? '', 'http://portal.test/portal/reset-password?token=');
    const reset = await call(t.app, 'POST', '/api/auth/reset', {
      body: { token: link.searchParams.get('token'), password: 'new-person-pass' },
    });
    expect(reset.status).toBe(200);
    // The new reader signs in, sees the organization and cannot change it.
    const token = await signIn(t.app, 'new.person@example.org', 'new-person-pass');
    expect((await call(t.app, 'GET', `/api/organization/${hope}`, { token })).json.level).toBe('read');
    expect((await call(t.app, 'PUT', `/api/organization/${hope}/partial?phone=1`, { token })).status).toBe(
      403,
    );
  });

  it('never attaches an existing account: it is invited, pending, until its owner accepts', async () => {
    const res = await post('admin', {
      org_id: maple,
      email: 'Writer@twofold.test',
      level: 'write',
      name: 'Ignored',
    });
    expect(res.status).toBe(200);
    expect(res.json.users).toContainEqual({
      id: ids.writer,
      name: 'Wren Castillo',
      email: 'writer@twofold.test',
      level: 'write',
      pending: true,
      editable: false,
    });
    // No access yet, and the name given by the admin is not applied to someone else's account.
    expect(await levelOf(maple, ids.writer ?? 0)).toBeUndefined();
    expect(
      (
        await t.db
          .select()
          .from(users)
          .where(eq(users.id, ids.writer ?? 0))
      )[0]?.name,
    ).toBe('Wren Castillo');
    const mail = await lastMailTo(t.db, 'writer@twofold.test');
    expect(mail?.subject).toBe('Alex Morgan invited you to Maple Street PTA on Twofold');
    const link = linkIn(mail?.text ?? '', 'http://portal.test/portal/login?invitation=');
    const accepted = await call(t.app, 'POST', '/api/invitation/accept', {
      body: { token: link.searchParams.get('invitation') },
    });
    expect(accepted.status).toBe(200);
    expect(await levelOf(maple, ids.writer ?? 0)).toBe('write');
  });

  it('refuses a user who already has access, with 409', async () => {
    const res = await post('admin', { org_id: hope, email: 'reader@twofold.test', level: 'admin' });
    expect(res.status).toBe(409);
    expect(res.json).toEqual({ message: 'That user already has access to this organization.' });
    expect(await levelOf(hope, ids.reader ?? 0)).toBe('read');
  });

  it('answers bad input on its field', async () => {
    expect((await post('admin', { org_id: hope, email: 'nope', level: 'read' })).json).toEqual({
      message: 'email: Please enter a valid email address',
    });
    expect((await post('admin', { org_id: hope, email: 'a@b.org', level: 'owner' })).json).toEqual({
      message: 'level: Choose a permission level',
    });
    expect((await post('admin', { org_id: hope, user_id: 1 })).json).toEqual({
      message: 'level: Choose a permission level',
    });
  });

  it('is for admins only', async () => {
    const res = await post('writer', { org_id: hope, email: 'sneaky@example.org', level: 'admin' });
    expect(res.status).toBe(403);
    expect(await t.db.select().from(users).where(eq(users.email, 'sneaky@example.org'))).toEqual([]);
  });
});

describe('POST /api/user/permission (update) and DELETE /api/user/permission', () => {
  it('changes a level and removes a user', async () => {
    const up = await post('admin', { org_id: hope, user_id: ids.reader, level: 'write' });
    expect(up.status).toBe(200);
    expect(up.json.users.find((u: { id: number }) => u.id === ids.reader).level).toBe('write');
    await post('admin', { org_id: hope, user_id: ids.reader, level: 'read' });
    const gone = await remove('admin', { org_id: maple, user_id: ids.writer });
    expect(gone.status).toBe(200);
    expect(gone.json.users.map((u: { id: number }) => u.id)).not.toContain(ids.writer);
    const again = await remove('admin', { org_id: maple, user_id: ids.writer });
    expect(again.status).toBe(404);
    expect(again.json).toEqual({ message: 'User not found' });
  });

  it('keeps at least one admin: the last one cannot be removed or downgraded', async () => {
    for (const res of [
      await remove('admin', { org_id: hope, user_id: ids.admin }),
      await post('admin', { org_id: hope, user_id: ids.admin, level: 'write' }),
    ]) {
      expect(res.status).toBe(409);
      expect(res.json).toEqual({ message: 'An organization needs at least one admin.' });
    }
    expect(await levelOf(hope, ids.admin ?? 0)).toBe('admin');
    // With a second admin, the first may step down.
    await post('admin', { org_id: hope, user_id: ids.writer, level: 'admin' });
    expect((await post('admin', { org_id: hope, user_id: ids.admin, level: 'write' })).status).toBe(200);
    await post('super', { org_id: hope, user_id: ids.admin, level: 'admin' });
    await post('super', { org_id: hope, user_id: ids.writer, level: 'write' });
    // Stepping down ended the admin's and the writer's sessions: they sign in again.
    tokens.admin = await signIn(t.app, 'admin@twofold.test');
    tokens.writer = await signIn(t.app, 'writer@twofold.test');
  });
});

describe('PUT /api/user/{id}', () => {
  it('changes the name and email of a user of the organization', async () => {
    const [created] = await t.db
      .insert(users)
      .values({ email: 'temp@example.org', name: 'Temp' })
      .returning();
    await t.db.insert(permissions).values({ org_id: hope, user_id: created?.id ?? 0, level: 'read' });
    const res = await put('admin', created?.id ?? 0, {
      org_id: hope,
      user_id: created?.id,
      name: 'Tempest',
      email: 'Tempest@Example.org',
    });
    expect(res.status).toBe(200);
    expect(res.json.users).toContainEqual({
      id: created?.id,
      name: 'Tempest',
      email: 'tempest@example.org',
      level: 'read',
      editable: true,
    });
  });

  it('refuses an email another user has, a user outside the organization, and a mismatched id', async () => {
    const taken = await put('admin', ids.reader ?? 0, {
      org_id: hope,
      user_id: ids.reader,
      name: 'R',
      email: 'writer@twofold.test',
    });
    expect(taken.status).toBe(409);
    expect(taken.json).toEqual({ message: 'Another user already uses that email address.' });
    const outside = await put('admin', ids.super ?? 0, {
      org_id: hope,
      user_id: ids.super,
      name: 'S',
      email: 's@x.org',
    });
    expect(outside.status).toBe(404);
    expect(outside.json).toEqual({ message: 'User not found' });
    const mismatch = await put('admin', ids.writer ?? 0, {
      org_id: hope,
      user_id: ids.reader,
      name: 'R',
      email: 'r@x.org',
    });
    expect(mismatch.status).toBe(400);
    expect(
      (
        await t.db
          .select()
          .from(users)
          .where(eq(users.id, ids.reader ?? 0))
      )[0]?.email,
    ).toBe('reader@twofold.test');
  });

  it("refuses an admin's change to the name or email of an account in another organization, or a super user's", async () => {
    const [mapleOnly] = await t.db
      .insert(users)
      .values({ email: 'maple-only@example.org', name: 'M' })
      .returning();
    await t.db.insert(permissions).values({ org_id: maple, user_id: mapleOnly?.id ?? 0, level: 'admin' });
    const [admin] = await t.db
      .select()
      .from(users)
      .where(eq(users.id, ids.admin ?? 0));
    await t.db
      .update(users)
      .set({ password_hash: admin?.password_hash ?? null })
      .where(eq(users.id, mapleOnly?.id ?? 0));
    const mapleToken = await signIn(t.app, 'maple-only@example.org');
    await t.db.insert(permissions).values({ org_id: maple, user_id: ids.reader ?? 0, level: 'read' });
    const shared =
      'This account also belongs to other organizations, so only its owner can change its name and email.';
    for (const body of [
      { org_id: maple, user_id: ids.reader, name: 'Riley Chen', email: 'stolen@example.org' },
      { org_id: maple, user_id: ids.reader, name: 'Renamed', email: 'reader@twofold.test' },
    ]) {
      const res = await call(t.app, 'PUT', `/api/user/${ids.reader}`, { token: mapleToken, body });
      expect(res.status).toBe(403);
      expect(res.json).toEqual({ message: shared });
    }
    // Even an admin of every organization the account is in: it is still someone else's account.
    const both = await put('admin', ids.reader ?? 0, {
      org_id: hope,
      user_id: ids.reader,
      name: 'Renamed',
      email: 'reader@twofold.test',
    });
    expect(both.status).toBe(403);
    const [reader] = await t.db
      .select()
      .from(users)
      .where(eq(users.id, ids.reader ?? 0));
    expect([reader?.name, reader?.email]).toEqual(['Riley Chen', 'reader@twofold.test']);
    // The list says which rows an admin may edit.
    const list = await call(t.app, 'GET', `/api/organization/${maple}`, { token: mapleToken });
    const row = (id: number | undefined) =>
      list.json.organization.users.find((u: { id: number }) => u.id === id);
    expect(row(ids.reader).editable).toBe(false);
    expect(row(mapleOnly?.id).editable).toBe(true);

    // A super user's account, even in this organization only.
    await t.db.insert(permissions).values({ org_id: hope, user_id: ids.super ?? 0, level: 'read' });
    const superUser = await put('admin', ids.super ?? 0, {
      org_id: hope,
      user_id: ids.super,
      name: 'Not Super',
      email: 'super@twofold.test',
    });
    expect(superUser.status).toBe(403);
    expect(superUser.json).toEqual({
      message: 'A super user’s name and email can only be changed by a super user.',
    });

    // A super user may; and anyone may change their own.
    expect(
      (
        await put('super', ids.reader ?? 0, {
          org_id: maple,
          user_id: ids.reader,
          name: 'Riley C.',
          email: 'reader@twofold.test',
        })
      ).status,
    ).toBe(200);
    const own = await call(t.app, 'PUT', `/api/user/${mapleOnly?.id}`, {
      token: mapleToken,
      body: { org_id: maple, user_id: mapleOnly?.id, name: 'Morgan', email: 'maple-only@example.org' },
    });
    expect(own.status).toBe(200);
    await t.db
      .delete(permissions)
      .where(and(eq(permissions.org_id, hope), eq(permissions.user_id, ids.super ?? 0)));
  });
});
