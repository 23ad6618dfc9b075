import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifees } from '../../db/schema.ts';
import { call, demoOrganizationIds, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';

let t: TestContext;
let hope = 0;
let maple = 0;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestContext();
  const demo = await demoOrganizationIds(t.db);
  hope = demo.hopeHarbor;
  maple = demo.mapleStreet;
  for (const who of ['admin', 'writer', 'reader']) tokens[who] = await signIn(t.app, `${who}@twofold.test`);
});
afterAll(() => t.close());

describe.each(['/api/organization', '/organization'])('notifees at %s/{id}/notifee', (prefix) => {
  it('adds, lists and removes notification emails', async () => {
    const add = await call(t.app, 'POST', `${prefix}/${hope}/notifee`, {
      token: tokens.admin,
      body: { email: `Ops${prefix.length}@Hope.example` },
    });
    expect(add.status).toBe(200);
    const added = add.json.notifees.find(
      (n: { email: string }) => n.email === `ops${prefix.length}@hope.example`,
    );
    expect(added).toEqual({ id: expect.any(Number), email: `ops${prefix.length}@hope.example` });
    const list = await call(t.app, 'GET', `${prefix}/${hope}/notifee`, { token: tokens.reader });
    expect(list.status).toBe(200);
    expect(list.json.notifees).toContainEqual(added);
    const removed = await call(t.app, 'DELETE', `${prefix}/${hope}/notifee/${added.id}`, {
      token: tokens.admin,
    });
    expect(removed.status).toBe(200);
    expect(removed.json.notifees).not.toContainEqual(added);
    const again = await call(t.app, 'DELETE', `${prefix}/${hope}/notifee/${added.id}`, {
      token: tokens.admin,
    });
    expect(again.status).toBe(404);
    expect(again.json).toEqual({ message: 'Notification email not found' });
  });

  it('refuses a duplicate (any case) and a bad email', async () => {
    const body = { email: `dup${prefix.length}@hope.example` };
    expect(
      (await call(t.app, 'POST', `${prefix}/${hope}/notifee`, { token: tokens.admin, body })).status,
    ).toBe(200);
    const dup = await call(t.app, 'POST', `${prefix}/${hope}/notifee`, {
      token: tokens.admin,
      body: { email: body.email.toUpperCase() },
    });
    expect(dup.status).toBe(409);
    expect(dup.json).toEqual({ message: 'That email already receives notifications.' });
    const bad = await call(t.app, 'POST', `${prefix}/${hope}/notifee`, {
      token: tokens.admin,
      body: { email: 'x' },
    });
    expect(bad.json).toEqual({ message: 'email: Please enter a valid email address' });
  });

  it('needs admin to change, read to list; other organizations are out of reach', async () => {
    const writer = await call(t.app, 'POST', `${prefix}/${hope}/notifee`, {
      token: tokens.writer,
      body: { email: 'w@x.org' },
    });
    expect(writer.status).toBe(403);
    const outside = await call(t.app, 'GET', `${prefix}/${maple}/notifee`, { token: tokens.reader });
    expect(outside.status).toBe(404);
    // A notifee of one organization cannot be removed through another.
    const [other] = await t.db
      .insert(notifees)
      .values({ org_id: maple, email: `m${prefix.length}@maple.example` })
      .returning();
    const cross = await call(t.app, 'DELETE', `${prefix}/${hope}/notifee/${other?.id}`, {
      token: tokens.admin,
    });
    expect(cross.status).toBe(404);
    expect(
      await t.db
        .select()
        .from(notifees)
        .where(eq(notifees.id, other?.id ?? 0)),
    ).toHaveLength(1);
  });
});
