import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { OrganizationResponse, OrganizationSearchResponse } from '../../../src/contract/organization.ts';
import { organizations, permissions, users } from '../../db/schema.ts';
import { demoOrganizationNames as names } from '../../db/seed.ts';
import { call, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';
import { hashPassword } from '../auth/passwords.ts';

let t: TestContext;
const ids: Record<keyof typeof names, number> = {
  hopeHarbor: 0,
  northShore: 0,
  riverside: 0,
  mapleStreet: 0,
};
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestContext();
  for (const [key, name] of Object.entries(names)) {
    const [row] = await t.db.select().from(organizations).where(eq(organizations.name, name));
    ids[key as keyof typeof names] = row?.id ?? 0;
  }
  // A user of another organization only: admin of Maple Street and nothing else.
  const [maple] = await t.db
    .insert(users)
    .values({
      email: 'maple-admin@twofold.test',
      name: 'Morgan Maple',
      password_hash: await hashPassword('maple-pass'),
    })
    .returning();
  await t.db.insert(permissions).values({ org_id: ids.mapleStreet, user_id: maple?.id ?? 0, level: 'admin' });
  for (const who of ['super', 'admin', 'writer', 'reader'])
    tokens[who] = await signIn(t.app, `${who}@twofold.test`);
  tokens.maple = await signIn(t.app, 'maple-admin@twofold.test', 'maple-pass');
});
afterAll(() => t.close());

const getOrg = (id: number | string, who: string) =>
  call(t.app, 'GET', `/api/organization/${id}`, { token: tokens[who] });

describe('GET /api/organization/{id}', () => {
  it('gives each demo user Hope Harbor at their own level, in the contract shape', async () => {
    const expected = { super: 'admin', admin: 'admin', writer: 'write', reader: 'read' };
    for (const [who, level] of Object.entries(expected)) {
      const res = await getOrg(ids.hopeHarbor, who);
      expect(res.status).toBe(200);
      const body = z.parse(OrganizationResponse, res.json);
      expect(body.level).toBe(level);
      expect(body.organization.name).toBe('Hope Harbor Foundation');
    }
  });

  it('returns the full record: categories, address, users, chapters, no private key', async () => {
    const body = z.parse(OrganizationResponse, (await getOrg(ids.hopeHarbor, 'reader')).json);
    const org = body.organization;
    expect(org).toMatchObject({
      id: ids.hopeHarbor,
      type: 'non-profit',
      ein: '84-2917365',
      url: 'https://hopeharbor.example.org',
      country: 'US',
      is_premium: true,
      parent_id: null,
      private_key: null,
      has_private_key: false,
      email_who: 'all',
      email_min: 0,
      documents: [],
      category_id_array: [1, 14, 33],
      notify_contact: {
        name: 'Dana Whitfield',
        email: 'dana@hopeharbor.example.org',
        phone: '(617) 555-0143',
      },
    });
    expect(org.address).toMatchObject({
      street: '120 Atlantic Avenue',
      city: 'Boston',
      state: 'MA',
      country: 'US',
    });
    expect(org.users.map((u) => [u.email, u.level])).toEqual([
      ['admin@twofold.test', 'admin'],
      ['reader@twofold.test', 'read'],
      ['writer@twofold.test', 'write'],
    ]);
    expect(org.children).toEqual({
      [ids.northShore]: { id: ids.northShore, name: names.northShore },
      [ids.riverside]: { id: ids.riverside, name: names.riverside },
    });
    expect(org.shadowedPermissions).toEqual([]);
    expect(body.accessibleOrganizations.map((o) => o.id)).toEqual([
      ids.hopeHarbor,
      ids.northShore,
      ids.riverside,
    ]);
  });

  it('never returns a stored private key, only that one exists', async () => {
    await t.db
      .update(organizations)
      .set({ private_key_encrypted: 'ciphertext-of-a-secret' })
      .where(eq(organizations.id, ids.mapleStreet));
    const res = await getOrg(ids.mapleStreet, 'admin');
    expect(res.json.organization.private_key).toBeNull();
    expect(res.json.organization.has_private_key).toBe(true);
    expect(res.text).not.toContain('ciphertext-of-a-secret');
  });

  it('fills api_keys, webhooks, user_permissions and active_integrations, without any secret', async () => {
    const key = await call(t.app, 'POST', `/api/organization/${ids.hopeHarbor}/api-key`, {
      token: tokens.admin,
    });
    const secret = key.json.api_key.secret as string;
    const created = await call(t.app, 'POST', `/api/organization/${ids.hopeHarbor}/webhook`, {
      token: tokens.admin,
    });
    const hook = created.json.webhooks.at(-1) as { id: number; token: string; secret: string };
    await call(t.app, 'PUT', `/api/webhook/${hook.id}`, {
      token: tokens.admin,
      body: { url: 'hooks.example.org/twofold', token: hook.token, event: 'status' },
    });
    const res = await getOrg(ids.hopeHarbor, 'admin');
    const org = z.parse(OrganizationResponse, res.json).organization;
    expect(org.api_keys.map((k) => k.id)).toContain(key.json.api_key.id);
    expect(org.api_keys.find((k) => k.id === key.json.api_key.id)?.key).toBe(secret.slice(0, 11));
    expect(org.webhooks).toContainEqual({
      id: hook.id,
      url: 'hooks.example.org/twofold',
      event: 'status',
      last_code: null,
    });
    expect(org.active_integrations).toEqual([
      { name: 'api', count: org.api_keys.length },
      { name: 'webhooks', count: 1 },
    ]);
    const [admin] = await t.db.select().from(users).where(eq(users.email, 'admin@twofold.test'));
    expect(org.user_permissions).toContainEqual({
      user_id: admin?.id,
      org_id: ids.hopeHarbor,
      level: 'admin',
    });
    expect(org.user_permissions).toHaveLength(3);
    for (const hidden of [secret, hook.secret, hook.token]) expect(res.text).not.toContain(hidden);
    // Keys and webhooks are the admin screens': a reader sees what is in use, not the keys.
    const read = z.parse(OrganizationResponse, (await getOrg(ids.hopeHarbor, 'reader')).json).organization;
    expect([read.api_keys, read.webhooks]).toEqual([[], []]);
    expect(read.active_integrations).toEqual(org.active_integrations);
  });

  it('reaches chapters through the parent, showing the parent levels as shadowed', async () => {
    const res = await getOrg(ids.northShore, 'writer');
    expect(res.status).toBe(200);
    const body = z.parse(OrganizationResponse, res.json);
    expect(body.level).toBe('write');
    expect(body.organization.parent_id).toBe(ids.hopeHarbor);
    expect(body.organization.users).toEqual([]);
    expect(
      body.organization.shadowedPermissions.map((p) => [p.user.email, p.level, p.organization_id]),
    ).toEqual([
      ['admin@twofold.test', 'admin', ids.hopeHarbor],
      ['reader@twofold.test', 'read', ids.hopeHarbor],
      ['writer@twofold.test', 'write', ids.hopeHarbor],
    ]);
    expect(body.accessibleOrganizations.map((o) => o.id)).toEqual([ids.northShore]);
    expect((await getOrg(ids.riverside, 'reader')).json.level).toBe('read');
  });

  it('answers 404 for organizations out of reach, as if they did not exist', async () => {
    for (const [who, id] of [
      ['writer', ids.mapleStreet],
      ['reader', ids.mapleStreet],
      ['maple', ids.hopeHarbor],
      ['maple', ids.northShore],
    ] as const) {
      const res = await getOrg(id, who);
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ message: `Organization with id ${id} not found` });
    }
    expect((await getOrg(ids.mapleStreet, 'maple')).json.level).toBe('admin');
    expect((await getOrg(ids.mapleStreet, 'admin')).json.level).toBe('admin');
    expect((await getOrg(ids.mapleStreet, 'super')).json.level).toBe('admin');
  });

  it('answers 404 for unknown ids, 400 for malformed ones, 401 without a token', async () => {
    const unknown = await getOrg(999999, 'super');
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({ message: 'Organization with id 999999 not found' });
    for (const bad of ['abc', '0', '-1', '1.5', '99999999999']) {
      const res = await getOrg(bad, 'super');
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ message: 'id: Expected a positive whole number' });
    }
    const anonymous = await call(t.app, 'GET', `/api/organization/${ids.hopeHarbor}`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.json).toEqual({ message: 'Authentication token not found' });
  });
});

describe('GET /api/search/organization', () => {
  const search = async (who: string, term?: string) => {
    const query = term === undefined ? '' : `?term=${encodeURIComponent(term)}`;
    const res = await call(t.app, 'GET', `/api/search/organization${query}`, { token: tokens[who] });
    expect(res.status).toBe(200);
    return z.parse(OrganizationSearchResponse, res.json).organizations.map((o) => o.name);
  };

  it('lets super users search every organization, by name, any case', async () => {
    expect(await search('super')).toEqual([
      names.hopeHarbor,
      names.northShore,
      names.riverside,
      names.mapleStreet,
    ]);
    expect(await search('super', 'HARBOR')).toEqual([names.hopeHarbor, names.northShore, names.riverside]);
    expect(await search('super', 'street')).toEqual([names.mapleStreet]);
  });

  it('limits everyone else to the organizations they reach, chapters included', async () => {
    expect(await search('reader', '')).toEqual([names.hopeHarbor, names.northShore, names.riverside]);
    expect(await search('reader', 'maple')).toEqual([]);
    expect(await search('admin')).toEqual([
      names.hopeHarbor,
      names.northShore,
      names.riverside,
      names.mapleStreet,
    ]);
    expect(await search('maple', 'hope')).toEqual([]);
    expect(await search('maple')).toEqual([names.mapleStreet]);
  });

  it('treats LIKE wildcards as plain characters', async () => {
    expect(await search('super', '%')).toEqual([]);
    expect(await search('super', '_')).toEqual([]);
    expect(await search('super', 'Riverside')).toEqual([names.riverside]);
  });

  it('returns at most 20', async () => {
    await t.db
      .insert(organizations)
      .values(Array.from({ length: 25 }, (_, i) => ({ name: `Bulk Org ${i + 10}` })));
    const found = await search('super', 'bulk');
    expect(found).toHaveLength(20);
    expect(found[0]).toBe('Bulk Org 10');
    expect(await search('admin', 'bulk')).toEqual([]);
  });

  it('gives a member every organization they reach, beyond the 20 of a super user search', async () => {
    const chapters = await t.db
      .insert(organizations)
      .values(
        Array.from({ length: 24 }, (_, i) => ({
          name: `Maple Chapter ${i + 10}`,
          parent_id: ids.mapleStreet,
        })),
      )
      .returning({ id: organizations.id });
    const found = await search('maple');
    expect(found).toHaveLength(25);
    expect(found).toContain(names.mapleStreet);
    expect(found).toContain('Maple Chapter 33');
    expect(await search('super', 'maple')).toHaveLength(20);
    for (const chapter of chapters) await t.db.delete(organizations).where(eq(organizations.id, chapter.id));
  });

  it('refuses an over-long term and anonymous callers', async () => {
    const long = await call(t.app, 'GET', `/api/search/organization?term=${'a'.repeat(201)}`, {
      token: tokens.super,
    });
    expect(long.status).toBe(400);
    expect(long.json.message).toMatch(/^term: /);
    const anonymous = await call(t.app, 'GET', '/api/search/organization?term=hope');
    expect(anonymous.status).toBe(401);
  });
});
