import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csrfExpiredMessage } from '../../../src/contract/public.ts';
import { registrationMessages as messages } from '../../../src/contract/registration.ts';
import {
  addresses,
  oneTimeTokens,
  organizationCategories,
  organizations,
  outbox,
  permissions,
  users,
} from '../../db/schema.ts';
import { call, lastMailTo, linkIn, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';
import { issueCsrfToken } from './csrf.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const csrf = async () => (await call(t.app, 'GET', '/api/csrf-token')).json.csrf_token as string;

const validForm = (overrides: Record<string, unknown> = {}) => ({
  return_json: 1,
  name: 'Tidewater Literacy Project',
  type: 'non-profit',
  phone: '(757) 555-0101',
  mission: 'Reading tutors for every child in Tidewater.',
  ein: '31-4159265',
  url: 'https://tidewater.example.org',
  address: { street: '10 Granby Street', city: 'Norfolk', state: 'va', zip: '23510', country: 'US' },
  categoryId: [10, 11],
  contact_name: 'Jordan Reyes',
  contact_email: 'Jordan@Tidewater.example.org',
  contact_phone: '(757) 555-0102',
  ...overrides,
});

async function register(body: unknown, token?: string, headers: Record<string, string> = {}) {
  const value = token ?? (await csrf());
  return call(t.app, 'POST', '/organization/register', {
    body,
    headers: { authorization: `Bearer ${value}`, 'x-csrf-token': value, ...headers },
  });
}

const count = async (table: typeof organizations | typeof users | typeof addresses | typeof outbox) =>
  (await t.db.select({ n: sql<number>`count(*)::int` }).from(table))[0]?.n ?? 0;

describe('GET /api/csrf-token', () => {
  it('hands out a signed token, to any origin', async () => {
    const res = await call(t.app, 'GET', '/api/csrf-token', {
      headers: { origin: 'https://partner.example' },
    });
    expect(res.status).toBe(200);
    expect(res.json.csrf_token).toMatch(/^[\w-]+\.\d+\.[\w-]+$/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('POST /organization/register', () => {
  it('registers the organization, its address, categories and admin, and mails a set-password link', async () => {
    const res = await register(validForm());
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      registered: true,
      already_registered: false,
      email: 'jordan@tidewater.example.org',
    });
    const [org] = await t.db
      .select()
      .from(organizations)
      .where(eq(organizations.name, 'Tidewater Literacy Project'));
    expect(org).toMatchObject({
      type: 'non-profit',
      ein: '31-4159265',
      country: 'US',
      notify_contact: {
        name: 'Jordan Reyes',
        email: 'jordan@tidewater.example.org',
        phone: '(757) 555-0102',
      },
    });
    const [address] = await t.db
      .select()
      .from(addresses)
      .where(eq(addresses.id, org?.address_id ?? 0));
    expect(address).toMatchObject({
      street: '10 Granby Street',
      city: 'Norfolk',
      state: 'VA',
      country: 'US',
    });
    const cats = await t.db
      .select()
      .from(organizationCategories)
      .where(eq(organizationCategories.organization_id, org?.id ?? 0));
    expect(cats.map((c) => c.category_id).sort()).toEqual([10, 11]);
    const [user] = await t.db.select().from(users).where(eq(users.email, 'jordan@tidewater.example.org'));
    expect(user?.password_hash).toBeNull();
    const [grant] = await t.db
      .select()
      .from(permissions)
      .where(eq(permissions.user_id, user?.id ?? 0));
    expect(grant).toMatchObject({ org_id: org?.id, level: 'admin' });

    // The contact follows the link from the mailbox, sets a password and signs in as admin.
    const mail = await lastMailTo(t.db, 'jordan@tidewater.example.org');
    expect(mail?.subject).toBe('Tidewater Literacy Project is registered on Twofold');
    const link = linkIn(mail?.text ?? '', 'http://portal.test/portal/reset-password?token=');
    const [token] = await t.db
      .select()
      .from(oneTimeTokens)
      .where(eq(oneTimeTokens.user_id, user?.id ?? 0));
    expect(token?.purpose).toBe('set_password');
    const days = ((token?.expires_at.getTime() ?? 0) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    const reset = await call(t.app, 'POST', '/api/auth/reset', {
      body: { token: link.searchParams.get('token'), password: 'tidewater-pass' },
    });
    expect(reset.status).toBe(200);
    const session = await signIn(t.app, 'jordan@tidewater.example.org', 'tidewater-pass');
    const me = await call(t.app, 'GET', `/api/organization/${org?.id}`, { token: session });
    expect(me.json.level).toBe('admin');
  });

  it('answers already registered for the same EIN however it is formatted, writing nothing', async () => {
    const before = await count(organizations);
    const res = await register(
      validForm({ name: 'Somebody Else', ein: '  842917365 ', contact_email: 'x@y.org' }),
    );
    expect(res.status).toBe(200);
    // Hope Harbor's (seeded) administrator is named, not a chapter's.
    expect(res.json).toEqual({ registered: false, already_registered: true, email: 'admin@twofold.test' });
    expect(await count(organizations)).toBe(before);
    expect(await t.db.select().from(users).where(eq(users.email, 'x@y.org'))).toEqual([]);
  });

  it('answers already registered for the same name (any case) in the same country', async () => {
    const res = await register(validForm({ name: '  maple street pta ', ein: '99-0000001' }));
    expect(res.json).toEqual({ registered: false, already_registered: true, email: 'admin@twofold.test' });
    const canada = await register(
      validForm({
        name: 'Maple Street PTA',
        ein: '99-0000002',
        contact_email: 'ca@maple.example',
        address: { street: '1 Rue', city: 'Montréal', country: 'CA' },
      }),
    );
    expect(canada.json).toEqual({ registered: true, already_registered: false, email: 'ca@maple.example' });
  });

  it('makes an existing account the administrator only when its owner confirms from the emailed link', async () => {
    const res = await register(
      validForm({ name: 'Writers Guild', ein: '55-5555555', contact_email: 'writer@twofold.test' }),
    );
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ registered: true, already_registered: false, email: 'writer@twofold.test' });
    // The form is public: the account is not a member yet, and it keeps its password.
    const session = await signIn(t.app, 'writer@twofold.test');
    const before = await call(t.app, 'GET', '/api/common', { token: session });
    expect(before.json.orgs.map((o: { name: string }) => o.name)).not.toContain('Writers Guild');
    const mail = await lastMailTo(t.db, 'writer@twofold.test');
    expect(mail?.subject).toBe('Confirm that you registered Writers Guild on Twofold');
    expect(mail?.text).toContain('only if you confirm');
    expect(mail?.text).not.toContain('reset-password');
    const link = linkIn(mail?.text ?? '', 'http://portal.test/portal/login');
    const token = link.searchParams.get('invitation') ?? '';
    expect(token).not.toBe('');
    const preview = await call(t.app, 'POST', '/api/invitation', { body: { token } });
    expect(preview.status).toBe(200);
    expect(preview.json).toMatchObject({
      organization: 'Writers Guild',
      level: 'admin',
      email: 'writer@twofold.test',
      registration: true,
    });
    const accepted = await call(t.app, 'POST', '/api/invitation/accept', { body: { token } });
    expect(accepted.status).toBe(200);
    const after = await call(t.app, 'GET', '/api/common', { token: accepted.json.access_token });
    const guild = after.json.orgs.find((o: { name: string }) => o.name === 'Writers Guild');
    expect(guild).toBeDefined();
    const [permission] = await t.db.select().from(permissions).where(eq(permissions.org_id, guild.id));
    expect(permission?.level).toBe('admin');
    // The link works once.
    expect((await call(t.app, 'POST', '/api/invitation/accept', { body: { token } })).status).toBe(400);
  });

  it('refuses a missing, mismatched, forged or expired csrf token with 403', async () => {
    const good = await csrf();
    const expired = issueCsrfToken(t.config.jwtSecret, Date.now() - 3 * 60 * 60 * 1000);
    const forged = `${good.split('.').slice(0, 2).join('.')}.AAAA`;
    const attempts = [
      call(t.app, 'POST', '/organization/register', { body: validForm() }),
      register(validForm(), good, { 'x-csrf-token': await csrf() }),
      register(validForm(), good, { authorization: '' }),
      register(validForm(), expired),
      register(validForm(), forged),
      register(validForm(), issueCsrfToken('another-secret-that-is-long-enough-to-sign-with')),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(403);
      expect(res.json).toEqual({ message: csrfExpiredMessage });
    }
  });

  it('answers every missing field with the spec message, and writes nothing', async () => {
    const before = await count(organizations);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: ' ' }, `name: ${messages.name}`],
      [{ type: 'company' }, `type: ${messages.type}`],
      [{ phone: '' }, `phone: ${messages.phone}`],
      [{ mission: '' }, `mission: ${messages.mission}`],
      [{ ein: '' }, `ein: ${messages.ein}`],
      [{ url: '' }, `url: ${messages.url}`],
      [{ address: { street: '', city: 'X', country: 'US' } }, `address.street: ${messages.street}`],
      [{ address: { street: 'X', city: '', country: 'US' } }, `address.city: ${messages.city}`],
      [{ address: { street: 'X', city: 'X', country: 'FR' } }, `address.country: ${messages.country}`],
      [
        { address: { street: 'X', city: 'X', state: 'MAS', country: 'US' } },
        'address.state: State must be 2 characters',
      ],
      [{ categoryId: [] }, `categoryId: ${messages.categories}`],
      [{ categoryId: [999] }, 'categoryId: Unknown category 999'],
      [{ contact_name: '' }, `contact_name: ${messages.contactName}`],
      [{ contact_email: 'nope' }, `contact_email: ${messages.contactEmail}`],
    ];
    for (const [override, message] of cases) {
      const res = await register(validForm({ name: 'Brand New Org', ein: '77-7777777', ...override }));
      expect(res.status, message).toBe(400);
      expect(res.json).toEqual({ message });
    }
    expect(await count(organizations)).toBe(before);
  });

  it('leaves nothing behind when a step fails mid-way (the mail cannot be queued)', async () => {
    await t.db.execute(sql`create function fail_outbox() returns trigger language plpgsql as $$
      begin raise exception 'outbox is down'; end $$`);
    await t.db.execute(
      sql`create trigger fail_outbox before insert on outbox for each row execute function fail_outbox()`,
    );
    const before = await Promise.all([count(organizations), count(users), count(addresses), count(outbox)]);
    try {
      const res = await register(
        validForm({ name: 'Doomed Org', ein: '88-8888888', contact_email: 'doomed@example.org' }),
      );
      expect(res.status).toBe(500);
    } finally {
      await t.db.execute(sql`drop trigger fail_outbox on outbox`);
      await t.db.execute(sql`drop function fail_outbox()`);
    }
    expect(await Promise.all([count(organizations), count(users), count(addresses), count(outbox)])).toEqual(
      before,
    );
    const retry = await register(
      validForm({ name: 'Doomed Org', ein: '88-8888888', contact_email: 'doomed@example.org' }),
    );
    expect(retry.json.registered).toBe(true);
  });

  it('answers the browser preflight from any origin', async () => {
    const res = await t.app.request('/organization/register', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://partner.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, x-csrf-token, content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-csrf-token');
    // Staff routes stay closed to other origins.
    const staff = await t.app.request('/api/common', {
      method: 'OPTIONS',
      headers: { origin: 'https://partner.example' },
    });
    expect(staff.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('GET /api/public/organization-search', () => {
  const search = async (term: string) =>
    (await call(t.app, 'GET', `/api/public/organization-search?term=${encodeURIComponent(term)}`)).json;

  it('finds organizations by part of their name, ids and names only, from 2 characters', async () => {
    const found = await search('harbor');
    expect(found.organizations[0]).toEqual({ id: expect.any(Number), name: 'Hope Harbor Foundation' });
    expect(Object.keys(found.organizations[0]).sort()).toEqual(['id', 'name']);
    expect(await search('h')).toEqual({ organizations: [] });
    expect(await search('%%')).toEqual({ organizations: [] });
  });

  it('returns at most 10', async () => {
    await t.db
      .insert(organizations)
      .values(Array.from({ length: 12 }, (_, i) => ({ name: `Zebra Club ${i}` })));
    expect((await search('zebra')).organizations).toHaveLength(10);
  });
});
