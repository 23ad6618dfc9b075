import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, companies, donationStatusHistory, donations, idempotencyKeys } from '../../db/schema.ts';
import { call, demoOrganizationIds, readyForMatching, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';
import { hashApiKey } from './api-keys.service.ts';

let t: TestContext;
let demo: Awaited<ReturnType<typeof demoOrganizationIds>>;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestContext({ config: { apiRateLimitPerMinute: 1000 } });
  demo = await demoOrganizationIds(t.db);
  await readyForMatching(t.db, [demo.hopeHarbor, demo.northShore, demo.mapleStreet]);
  for (const who of ['admin', 'writer', 'super']) tokens[who] = await signIn(t.app, `${who}@twofold.test`);
});
afterAll(() => t.close());

async function newKey(orgId = demo.hopeHarbor, token = tokens.admin) {
  const res = await call(t.app, 'POST', `/api/organization/${orgId}/api-key`, { token });
  expect(res.status).toBe(200);
  return res.json.api_key as { id: number; key: string; secret: string };
}

const gift = (extra: Record<string, unknown> = {}) => ({
  donated_at: '2025-03-01 12:00:00',
  amount: 75,
  donor: { name: 'Api Donor', email: `api-${Math.random().toString(36).slice(2)}@example.org` },
  company_name: 'Unknown Employer Inc',
  ...extra,
});

describe('Manage API Keys', () => {
  it('shows the whole key once, stores only its hash, and lists it by its prefix afterwards', async () => {
    const created = await newKey();
    expect(created.secret).toMatch(/^tf_[A-Za-z0-9_-]{43}$/);
    expect(created.secret.startsWith(created.key)).toBe(true);
    expect(created.key.length).toBeLessThan(created.secret.length);
    const [row] = await t.db.select().from(apiKeys).where(eq(apiKeys.id, created.id));
    expect(row?.key_hash).toBe(hashApiKey(created.secret));
    expect(JSON.stringify(row)).not.toContain(created.secret);
    const list = await call(t.app, 'GET', `/api/organization/${demo.hopeHarbor}/partial/api_keys`, {
      token: tokens.admin,
    });
    expect(list.status).toBe(200);
    const listed = list.json.api_keys.find((k: { id: number }) => k.id === created.id);
    expect(listed).toMatchObject({ id: created.id, key: created.key, name: '', last_used_at: null });
    expect(list.text).not.toContain(created.secret);
  });

  it('GET api-key creates the first key whole, then returns the newest live key without its secret', async () => {
    const orgId = demo.northShore;
    await t.db.delete(apiKeys).where(eq(apiKeys.organization_id, orgId));
    const get = () => call(t.app, 'GET', `/api/organization/${orgId}/api-key`, { token: tokens.admin });
    const first = await get();
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(first.json.api_key.secret).toMatch(/^tf_/);
    // Asked again (a reload): the same key's record, never its secret, and no new key.
    const again = await get();
    expect(again.json.api_key).toEqual({ ...first.json.api_key, secret: undefined });
    expect(again.text).not.toContain(first.json.api_key.secret);
    // An explicit create makes a new one; GET then returns that newest key, still without a secret.
    const created = await newKey(orgId);
    expect(created.id).not.toBe(first.json.api_key.id);
    const newest = await get();
    expect(newest.json.api_key.id).toBe(created.id);
    expect(newest.json.api_key.secret).toBeUndefined();
    const live = await t.db.select().from(apiKeys).where(eq(apiKeys.organization_id, orgId));
    expect(live).toHaveLength(2);
  });

  it("renames a key, and refuses another organization's key id as not found", async () => {
    const created = await newKey();
    const renamed = await call(t.app, 'PUT', `/api/organization/${demo.hopeHarbor}/api-key/${created.id}`, {
      token: tokens.admin,
      body: { name: '  Donation platform  ' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.json.api_key.name).toBe('Donation platform');
    const elsewhere = await call(
      t.app,
      'PUT',
      `/api/organization/${demo.mapleStreet}/api-key/${created.id}`,
      {
        token: tokens.super,
        body: { name: 'x' },
      },
    );
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.json.message).toBe('API key not found');
  });

  it('records when and from where a key was last used', async () => {
    const created = await newKey();
    const res = await call(t.app, 'GET', '/api/v1/matches', { token: created.secret });
    expect(res.status).toBe(200);
    const [row] = await t.db.select().from(apiKeys).where(eq(apiKeys.id, created.id));
    expect(row?.last_used_at).toBeInstanceOf(Date);
    expect(row?.last_ip_address).toBeTruthy();
  });

  it('answers a deleted key with 401 "revoked", an unknown key and no key with their own messages', async () => {
    const created = await newKey();
    const removed = await call(
      t.app,
      'DELETE',
      `/api/organization/${demo.hopeHarbor}/api-key/${created.id}`,
      {
        token: tokens.admin,
      },
    );
    expect(removed.status).toBe(200);
    const revoked = await call(t.app, 'GET', '/api/v1/matches', { token: created.secret });
    expect(revoked).toMatchObject({ status: 401, json: { message: 'This API key has been revoked.' } });
    const unknown = await call(t.app, 'GET', '/api/v1/matches', { token: `tf_${'x'.repeat(43)}` });
    expect(unknown).toMatchObject({ status: 401, json: { message: 'This API key is not valid.' } });
    const none = await call(t.app, 'GET', '/api/v1/matches');
    expect(none.status).toBe(401);
    expect(none.json.message).toContain('Authorization: Bearer');
    // A staff sign-in token is not an API key.
    const staff = await call(t.app, 'GET', '/api/v1/matches', { token: tokens.admin });
    expect(staff.status).toBe(401);
    const list = await call(t.app, 'GET', `/api/organization/${demo.hopeHarbor}/partial/api_keys`, {
      token: tokens.admin,
    });
    expect(list.json.api_keys.map((k: { id: number }) => k.id)).not.toContain(created.id);
  });
});

describe('the public API', () => {
  it('creates a match with the same status resolution as a staff create, recorded as from the API', async () => {
    const { secret } = await newKey();
    const body = gift();
    const viaApi = await call(t.app, 'POST', '/api/v1/matches', { token: secret, body });
    expect(viaApi.status).toBe(201);
    const viaStaff = await call(t.app, 'POST', `/api/organization/${demo.hopeHarbor}/donation`, {
      token: tokens.admin,
      body: gift(),
    });
    expect(viaApi.json.donation.status_id).toBe(viaStaff.json.donation.status_id);
    expect(viaApi.json.donation.organization_id).toBe(demo.hopeHarbor);
    expect(viaApi.json.donation.amount).toBe(75);
    const [history] = await t.db
      .select()
      .from(donationStatusHistory)
      .where(eq(donationStatusHistory.donation_id, viaApi.json.donation.id));
    expect(history).toMatchObject({ source: 'api', user_id: null });
  });

  it('gives a retried request with the same Idempotency-Key the first answer and creates one match', async () => {
    const { secret } = await newKey();
    const body = gift({ transaction_id: 'idem-1' });
    const headers = { 'idempotency-key': 'order-4711' };
    const first = await call(t.app, 'POST', '/api/v1/matches', { token: secret, body, headers });
    const second = await call(t.app, 'POST', '/api/v1/matches', { token: secret, body, headers });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.json).toEqual(first.json);
    const rows = await t.db.select().from(donations).where(eq(donations.transaction_id, 'idem-1'));
    expect(rows).toHaveLength(1);
    const other = await call(t.app, 'POST', '/api/v1/matches', {
      token: secret,
      body: { ...body, amount: 80 },
      headers,
    });
    expect(other.status).toBe(422);
    expect(other.json.message).toBe('This Idempotency-Key was already used with a different request.');
    // A day later the key is forgotten: it names a new request.
    await t.db
      .update(idempotencyKeys)
      .set({ created_at: new Date(Date.now() - 25 * 3600_000) })
      .where(eq(idempotencyKeys.key, 'order-4711'));
    const later = await call(t.app, 'POST', '/api/v1/matches', {
      token: secret,
      body: { ...body, transaction_id: 'idem-2' },
      headers,
    });
    expect(later.status).toBe(201);
    expect(later.json.donation.id).not.toBe(first.json.donation.id);
  });

  it("creates for a chapter of the key's organization, and refuses an organization outside it as not found", async () => {
    const { secret } = await newKey();
    const chapter = await call(t.app, 'POST', '/api/v1/matches', {
      token: secret,
      body: gift({ organization_id: demo.northShore }),
    });
    expect(chapter.status).toBe(201);
    expect(chapter.json.donation.organization_id).toBe(demo.northShore);
    const before = await t.db.select().from(donations).where(eq(donations.organization_id, demo.mapleStreet));
    const outside = await call(t.app, 'POST', '/api/v1/matches', {
      token: secret,
      body: gift({ organization_id: demo.mapleStreet }),
    });
    expect(outside.status).toBe(404);
    expect(outside.json.message).toBe(`Organization with id ${demo.mapleStreet} not found`);
    const after = await t.db.select().from(donations).where(eq(donations.organization_id, demo.mapleStreet));
    expect(after).toHaveLength(before.length);
  });

  it("reads one match of its own, and answers another organization's match id as not found", async () => {
    const hopeKey = await newKey();
    const mapleKey = await newKey(demo.mapleStreet, tokens.super);
    const created = await call(t.app, 'POST', '/api/v1/matches', { token: hopeKey.secret, body: gift() });
    const id = created.json.donation.id;
    const own = await call(t.app, 'GET', `/api/v1/matches/${id}`, { token: hopeKey.secret });
    expect(own.status).toBe(200);
    expect(own.json.donation.id).toBe(id);
    const other = await call(t.app, 'GET', `/api/v1/matches/${id}`, { token: mapleKey.secret });
    expect(other).toMatchObject({ status: 404, json: { message: 'Donation not found' } });
  });

  it('pages through matches with a cursor and filters by status, company and updated_since', async () => {
    const { secret } = await newKey(demo.mapleStreet, tokens.super);
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await call(t.app, 'POST', '/api/v1/matches', {
        token: secret,
        body: gift({ company_name: i % 2 === 0 ? 'Acme Paging Corp' : 'Other Paging Ltd' }),
      });
      ids.push(res.json.donation.id);
    }
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Awaited<ReturnType<typeof call>> = await call(
        t.app,
        'GET',
        `/api/v1/matches?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        { token: secret },
      );
      expect(page.status).toBe(200);
      expect(page.json.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.json.data.map((d: { id: number }) => d.id));
      cursor = page.json.next_cursor;
      pages++;
    } while (cursor && pages < 20);
    for (const id of ids) expect(seen).toContain(id);
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);

    const acme = await call(t.app, 'GET', '/api/v1/matches?company=acme%20paging', { token: secret });
    expect(acme.json.data.map((d: { id: number }) => d.id)).toEqual([ids[0], ids[2], ids[4]]);
    const status = acme.json.data[0].status_id;
    const byStatus = await call(t.app, 'GET', `/api/v1/matches?status=${status}`, { token: secret });
    expect(byStatus.json.data.every((d: { status_id: number }) => d.status_id === status)).toBe(true);
    const future = await call(t.app, 'GET', '/api/v1/matches?updated_since=2999-01-01T00:00:00Z', {
      token: secret,
    });
    expect(future.json).toEqual({ data: [], next_cursor: null });
    // A made-up cursor, and one naming an id past the column's range, are refused the same way.
    const outOfRange = Buffer.from('c9999999999', 'latin1').toString('base64url');
    for (const cursor of ['nonsense', outOfRange]) {
      const bad = await call(t.app, 'GET', `/api/v1/matches?cursor=${cursor}`, { token: secret });
      expect(bad).toMatchObject({
        status: 400,
        json: { message: 'The cursor is not valid. Start again without it.' },
      });
    }
  });

  it("searches employers with their program's method, ratio, limits and deadline", async () => {
    await t.db.insert(companies).values({
      name: 'Zebracorp Matching',
      match_method: 'form',
      match_ratio: '2',
      minimum_match_cents: 2500,
      maximum_match_cents: 500000,
      deadline_rule: 'days-after-gift',
      deadline_days: 90,
    });
    const { secret } = await newKey();
    const res = await call(t.app, 'GET', '/api/v1/companies?q=zebrac', { token: secret });
    expect(res.status).toBe(200);
    expect(res.json.data[0]).toMatchObject({
      name: 'Zebracorp Matching',
      match_method: 'form',
      match_ratio: 2,
      minimum_match: 25,
      maximum_match: 5000,
      deadline: { rule: 'days-after-gift', days: 90 },
    });
    const short = await call(t.app, 'GET', '/api/v1/companies?q=ab', { token: secret });
    expect(short.status).toBe(400);
  });

  it('limits requests per key, not per address', async () => {
    const limited = await createTestContext({ config: { apiRateLimitPerMinute: 3 } });
    try {
      const admin = await signIn(limited.app, 'admin@twofold.test');
      const ids = await demoOrganizationIds(limited.db);
      const keyOf = async () =>
        (await call(limited.app, 'POST', `/api/organization/${ids.hopeHarbor}/api-key`, { token: admin }))
          .json.api_key.secret as string;
      const [a, b] = [await keyOf(), await keyOf()];
      const statuses = [];
      for (let i = 0; i < 4; i++)
        statuses.push((await call(limited.app, 'GET', '/api/v1/matches', { token: a })).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect((await call(limited.app, 'GET', '/api/v1/matches', { token: b })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('describes every public API route in the OpenAPI document with the schemas the routes validate with', async () => {
    const doc = await call(t.app, 'GET', '/api/v1/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.json.openapi).toBe('3.1.0');
    const operations = Object.entries(doc.json.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, ops]) => Object.keys(ops).map((method) => `${method} ${path}`),
    );
    const routes = t.routes
      .filter((r) => r.access === 'api-key')
      .map((r) => `${r.method} ${r.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`);
    expect(operations.sort()).toEqual(routes.sort());
    const create = doc.json.paths['/api/v1/matches'].post;
    expect(create.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['donated_at', 'amount', 'donor']),
    );
    expect(create.parameters).toContainEqual(
      expect.objectContaining({ name: 'Idempotency-Key', in: 'header' }),
    );
    const list = doc.json.paths['/api/v1/matches'].get;
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['status', 'company', 'updated_since', 'cursor', 'limit']),
    );
    // What the document says is required is what the route refuses without.
    const missing = await call(t.app, 'POST', '/api/v1/matches', {
      token: (await newKey()).secret,
      body: { amount: 5, donor: { name: 'X' } },
    });
    expect(missing.status).toBe(400);
    expect(missing.json.message).toMatch(/^donated_at/);
  });

  it('serves the interactive reference and its assets from this server', async () => {
    const page = await t.app.request('/api/v1/docs');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('/api/v1/docs/swagger-ui-bundle.js');
    expect(html).not.toMatch(/https?:\/\//);
    const bundle = await t.app.request('/api/v1/docs/swagger-ui-bundle.js');
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toContain('javascript');
    expect((await bundle.text()).length).toBeGreaterThan(100_000);
    expect((await t.app.request('/api/v1/docs/init.js')).status).toBe(200);
    expect((await t.app.request('/api/v1/docs/..%2Fpackage.json')).status).toBe(404);
    // Names of Object.prototype's members are not assets (the route fuzz found valueOf answering 500).
    for (const name of ['valueOf', 'toString', 'constructor', '__proto__', 'hasOwnProperty'])
      expect((await t.app.request(`/api/v1/docs/${name}`)).status, name).toBe(404);
  });
});
