import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizations } from '../db/schema.ts';
import { demoOrganizationNames } from '../db/seed.ts';
import { routes } from '../routes.ts';
import { call, signIn } from '../test-helpers.ts';
import { createTestContext, type TestContext } from '../testing.ts';
import { IdParams, orgFromIdParam } from './params.ts';
import { defineRoute } from './route.ts';

/** Routes that exist only here, to exercise each kind of access declaration. */
const probes = [
  defineRoute({
    method: 'post',
    path: '/api/test/organization/:id/admin-only',
    access: { level: 'admin', org: orgFromIdParam },
    summary: 'needs admin on the organization',
    params: IdParams,
    handler: async ({ level, user }) => ({ level, user: user.email }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/test/organization/:id/writers',
    access: { level: 'write', org: orgFromIdParam },
    summary: 'needs write on the organization',
    params: IdParams,
    handler: async ({ level }) => ({ level }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/test/super',
    access: 'super',
    summary: 'super users only',
    handler: async () => ({ ok: true }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/test/donor',
    access: 'donor',
    summary: 'donor sessions only',
    handler: async () => ({ ok: true }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/test/crash',
    access: 'anonymous',
    summary: 'a bug',
    handler: async () => {
      throw new Error('database password is hunter2');
    },
  }),
];

let t: TestContext;
let hopeHarbor = 0;
let chapter = 0;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  t = await createTestContext({ routes: [...routes, ...probes] });
  const rows = await t.db.select().from(organizations);
  hopeHarbor = rows.find((o) => o.name === demoOrganizationNames.hopeHarbor)?.id ?? 0;
  chapter = rows.find((o) => o.name === demoOrganizationNames.riverside)?.id ?? 0;
  for (const who of ['super', 'admin', 'writer', 'reader'])
    tokens[who] = await signIn(t.app, `${who}@twofold.test`);
});
afterAll(() => t.close());

describe('the access guard', () => {
  it('lets a level through on the organization and its chapters, and 403s a lower one', async () => {
    const forbidden = { message: 'You do not have permission to do that.' };
    for (const id of [hopeHarbor, chapter]) {
      const admin = await call(t.app, 'POST', `/api/test/organization/${id}/admin-only`, {
        token: tokens.admin,
      });
      expect(admin.json).toEqual({ level: 'admin', user: 'admin@twofold.test' });
      const superUser = await call(t.app, 'POST', `/api/test/organization/${id}/admin-only`, {
        token: tokens.super,
      });
      expect(superUser.json.level).toBe('admin');
      for (const who of ['writer', 'reader']) {
        const res = await call(t.app, 'POST', `/api/test/organization/${id}/admin-only`, {
          token: tokens[who],
        });
        expect(res.status).toBe(403);
        expect(res.json).toEqual(forbidden);
      }
      expect(
        (await call(t.app, 'GET', `/api/test/organization/${id}/writers`, { token: tokens.writer })).json,
      ).toEqual({ level: 'write' });
      expect(
        (await call(t.app, 'GET', `/api/test/organization/${id}/writers`, { token: tokens.reader })).status,
      ).toBe(403);
    }
  });

  it('answers 404 when the caller has no level there at all', async () => {
    const [maple] = await t.db
      .select()
      .from(organizations)
      .where(eq(organizations.name, demoOrganizationNames.mapleStreet));
    const res = await call(t.app, 'POST', `/api/test/organization/${maple?.id}/admin-only`, {
      token: tokens.reader,
    });
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ message: `Organization with id ${maple?.id} not found` });
  });

  it('keeps super-only routes to super users', async () => {
    expect((await call(t.app, 'GET', '/api/test/super', { token: tokens.super })).json).toEqual({ ok: true });
    const admin = await call(t.app, 'GET', '/api/test/super', { token: tokens.admin });
    expect(admin.status).toBe(403);
    expect(admin.json.message).toBe('You do not have permission to do that.');
  });

  it('does not open donor routes to staff sessions', async () => {
    const res = await call(t.app, 'GET', '/api/test/donor', { token: tokens.admin });
    expect(res.status).toBe(401);
  });

  it('turns a bug into a 500 with a generic message, logging the details on the server only', async () => {
    const res = await call(t.app, 'GET', '/api/test/crash');
    expect(res.status).toBe(500);
    expect(res.json).toEqual({ message: 'Something went wrong. Please try again.' });
    expect(res.text).not.toContain('hunter2');
    expect(t.logger.lines.join('\n')).toContain('database password is hunter2');
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await call(t.app, 'GET', '/api/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ message: 'Not found' });
  });
});
