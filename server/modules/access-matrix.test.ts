import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { atLeast, type EffectiveLevel, type PermissionLevel } from '../../src/contract/access.ts';
import { createApp } from '../app.ts';
import { queryRows } from '../db/rows.ts';
import {
  companies,
  documents,
  donationNotifications,
  donations,
  notifees,
  organizations,
  permissions,
  reports,
  users,
} from '../db/schema.ts';
import type { AnyRoute } from '../http/route.ts';
import { memoryStorage } from '../storage/storage.ts';
import { call, demoOrganizationIds, signIn } from '../test-helpers.ts';
import { createTestContext, type TestContext } from '../testing.ts';
import { hashPassword } from './auth/passwords.ts';

/**
 * The permission matrix: every organization-scoped route of the route table, called as each demo
 * user, as an admin of another organization only, and anonymously, on a parent organization and
 * on one of its chapters. Each answer must be what the route's declared level and the permission
 * table say; a refused call must change nothing.
 */

let t: TestContext;
let app: ReturnType<typeof createApp>['app'];
const storage = memoryStorage();
const tokens: Record<string, string | undefined> = {};
const orgIds = { hopeHarbor: 0, northShore: 0 };

type Request = { method: string; path: string; body?: unknown; form?: FormData };
/** The level the route must need (pinned here, so loosening a route's declaration fails), and a valid request. */
type Sample = { level: PermissionLevel; request: (orgId: number) => Promise<Omit<Request, 'method'>> };

let unique = 0;
const next = () => ++unique;
const pdf = () => new TextEncoder().encode('%PDF-1.7\n');

async function userWithLevel(orgId: number) {
  const [user] = await t.db
    .insert(users)
    .values({ email: `matrix-${next()}@example.org`, name: 'Matrix User' })
    .returning();
  await t.db.insert(permissions).values({ org_id: orgId, user_id: user?.id ?? 0, level: 'read' });
  return user?.id ?? 0;
}

async function storedDocument(orgId: number) {
  await t.db.delete(documents).where(eq(documents.org_id, orgId));
  const file = await storage.put(pdf(), 'application/pdf');
  const [doc] = await t.db
    .insert(documents)
    .values({ org_id: orgId, name: 'W-9', file, content_type: 'application/pdf' })
    .returning();
  return doc?.id ?? 0;
}

async function storedNotifee(orgId: number) {
  const [row] = await t.db
    .insert(notifees)
    .values({ org_id: orgId, email: `n${next()}@example.org` })
    .returning();
  return row?.id ?? 0;
}

async function storedDonation(orgId: number, values: Partial<typeof donations.$inferInsert> = {}) {
  const [row] = await t.db
    .insert(donations)
    .values({
      organization_id: orgId,
      amount_cents: 5000,
      donated_at: new Date('2025-03-01T12:00:00Z'),
      status_id: 23,
      ...values,
    })
    .returning();
  return row?.id ?? 0;
}

/** A donor email about a match of the organization (its preview is read-level). */
async function storedNotification(orgId: number) {
  const [row] = await t.db
    .insert(donationNotifications)
    .values({
      donation_id: await storedDonation(orgId),
      organization_id: orgId,
      status_id: 23,
      to_email: 'matrix-donor@example.org',
      subject: 'Where do you work?',
      html: '<p>Hello</p>',
      text: 'Hello',
      open_token_hash: `matrix-${next()}`,
    })
    .returning();
  return row?.id ?? 0;
}

/** A match at status 4 with an e-sign company: one whose e-sign packet can be downloaded. */
async function storedPacketDonation(orgId: number) {
  const name = 'Matrix Esign Co';
  const [company] =
    (await t.db.select().from(companies).where(eq(companies.name, name))).length > 0
      ? await t.db.select().from(companies).where(eq(companies.name, name))
      : await t.db.insert(companies).values({ name, match_method: 'esign' }).returning();
  return storedDonation(orgId, { status_id: 4, company_id: company?.id ?? null });
}

/** A one-row donation file for the import calls, sent to the organization (or chapter) itself. */
async function importForm(orgId: number, upload: boolean) {
  const [org] = await t.db
    .select({ name: organizations.name })
    .from(organizations)
    .where(eq(organizations.id, orgId));
  const csv = `Donor Name,Amount,Date,Transaction ID,Organization\nMatrix Donor,50,2025-03-01,matrix-${next()},"${org?.name}"\n`;
  const form = new FormData();
  form.set('donations', new File([csv], 'donations.csv', { type: 'text/csv' }));
  form.set('no_company', 'true');
  if (upload) {
    form.set('type', 'Upload');
    form.set(
      'map',
      JSON.stringify({
        donor_name: 'donor.name',
        amount: 'amount',
        date: 'donated_at',
        transaction_id: 'transaction_id',
        organization: 'organization_name',
      }),
    );
  }
  return form;
}

/** A shared report of the organization (a personal one is its author's alone). */
async function storedReport(orgId: number) {
  const [row] = await t.db
    .insert(reports)
    .values({
      organization_id: orgId,
      name: 'Matrix Report',
      scope: 'organization',
      columns: [['donations.id', 'ID']],
    })
    .returning();
  return row?.id ?? 0;
}

const donationBody = () => ({
  donated_at: '2025-03-01 12:00:00',
  amount: 50,
  donor: { name: 'Matrix Donor', email: `donor-${next()}@example.org` },
  company_id: null,
});

/**
 * A valid request for each organization-scoped route, keyed by method and path. A route without
 * one fails the test below: add its sample here when you add the route.
 */
const samples: Record<string, Sample> = {
  'get /api/organization/:id': {
    level: 'read',
    request: async (id) => ({ path: `/api/organization/${id}` }),
  },
  'get /api/organization/:id/bills': {
    level: 'read',
    request: async (id) => ({ path: `/api/organization/${id}/bills` }),
  },
  'put /api/organization/:id/partial': {
    level: 'write',
    request: async (id) => ({ path: `/api/organization/${id}/partial?phone=${next()}` }),
  },
  'post /api/organization/:id/upload': {
    level: 'write',
    request: async (id) => {
      await t.db.delete(documents).where(eq(documents.org_id, id));
      const form = new FormData();
      form.set('file', new File([pdf()], 'w9.pdf', { type: 'application/pdf' }));
      form.set('name', `Document ${next()}`);
      return { path: `/api/organization/${id}/upload`, form };
    },
  },
  'delete /api/organization/:id/document/:docId': {
    level: 'write',
    request: async (id) => ({ path: `/api/organization/${id}/document/${await storedDocument(id)}` }),
  },
  'get /api/organization/:id/document/:docId/file': {
    level: 'read',
    request: async (id) => ({ path: `/api/organization/${id}/document/${await storedDocument(id)}/file` }),
  },
  'post /api/user/permission': {
    level: 'admin',
    request: async (id) => ({
      path: '/api/user/permission',
      body: { org_id: id, email: `added-${next()}@example.org`, level: 'read', name: 'Added' },
    }),
  },
  'delete /api/user/permission': {
    level: 'admin',
    request: async (id) => ({
      path: '/api/user/permission',
      body: { org_id: id, user_id: await userWithLevel(id) },
    }),
  },
  'put /api/user/:id': {
    level: 'admin',
    request: async (id) => {
      const userId = await userWithLevel(id);
      return {
        path: `/api/user/${userId}`,
        body: { org_id: id, user_id: userId, name: 'Renamed', email: `renamed-${next()}@example.org` },
      };
    },
  },
  'get /api/organization/:id/donation': {
    level: 'read',
    request: async (id) => ({ path: `/api/organization/${id}/donation?filters[status_group]=npo_verify` }),
  },
  'post /api/organization/:id/donation': {
    level: 'write',
    request: async (id) => ({ path: `/api/organization/${id}/donation`, body: donationBody() }),
  },
  'get /api/donation/:id': {
    level: 'read',
    request: async (id) => ({ path: `/api/donation/${await storedDonation(id)}` }),
  },
  'put /api/donation/:id': {
    level: 'write',
    request: async (id) => ({
      path: `/api/donation/${await storedDonation(id)}`,
      body: { ...donationBody(), reprocess: true },
    }),
  },
  'delete /api/donation/:id': {
    level: 'write',
    request: async (id) => ({ path: `/api/donation/${await storedDonation(id)}` }),
  },
  'post /api/donation/confirm': {
    level: 'write',
    request: async (id) => ({
      path: '/api/donation/confirm',
      body: { donation_ids: [await storedDonation(id), await storedDonation(id)], status: 'submitted' },
    }),
  },
  'get /api/donation/:id/csv-token': {
    level: 'read',
    request: async (id) => ({ path: `/api/donation/${id}/csv-token?filters[minAmount]=10` }),
  },
  'get /donation/:id/esign/download': {
    level: 'read',
    request: async (id) => ({ path: `/donation/${await storedPacketDonation(id)}/esign/download` }),
  },
  'get /api/donation/:id/esign/download': {
    level: 'read',
    request: async (id) => ({ path: `/api/donation/${await storedPacketDonation(id)}/esign/download` }),
  },
  'get /api/notification/:id/preview': {
    level: 'read',
    request: async (id) => ({ path: `/api/notification/${await storedNotification(id)}/preview` }),
  },
  'get /api/organization/:id/statistics': {
    level: 'read',
    request: async (id) => ({
      path: `/api/organization/${id}/statistics?from=2025-01-01&to=2025-12-31&report=by_status`,
    }),
  },
  'get /api/organization/:id/statistics/tiers': {
    level: 'read',
    request: async (id) => ({ path: `/api/organization/${id}/statistics/tiers?since=2025-01-01T00:00:00Z` }),
  },
  'get /api/organization/:id/statistics/insights': {
    level: 'read',
    request: async (id) => ({
      path: `/api/organization/${id}/statistics/insights?from=2025-01-01&to=2025-12-31`,
    }),
  },
  'put /api/organization/:id/feature-request': {
    level: 'write',
    request: async (id) => ({
      path: `/api/organization/${id}/feature-request`,
      body: { feature: 'better-reporting' },
    }),
  },
  'get /api/organization/:id/reports': {
    level: 'read',
    request: async (id) => ({ path: `/api/organization/${id}/reports` }),
  },
  'post /api/organization/:id/reports': {
    level: 'write',
    request: async (id) => ({
      path: `/api/organization/${id}/reports`,
      body: { name: `Report ${next()}`, scope: 'organization', columns: { 'donations.id': 'ID' } },
    }),
  },
  'delete /api/reports/:id': {
    level: 'write',
    request: async (id) => ({ path: `/api/reports/${await storedReport(id)}` }),
  },
  'post /api/organization/:id/donation/import-file/Test': {
    level: 'write',
    request: async (id) => ({
      path: `/api/organization/${id}/donation/import-file/Test`,
      form: await importForm(id, false),
    }),
  },
  'post /api/organization/:id/donation/import-file/Upload': {
    level: 'write',
    request: async (id) => ({
      path: `/api/organization/${id}/donation/import-file/Upload`,
      form: await importForm(id, true),
    }),
  },
};
for (const prefix of ['/api/organization', '/organization']) {
  samples[`get ${prefix}/:id/notifee`] = {
    level: 'read',
    request: async (id) => ({ path: `${prefix}/${id}/notifee` }),
  };
  samples[`post ${prefix}/:id/notifee`] = {
    level: 'admin',
    request: async (id) => ({
      path: `${prefix}/${id}/notifee`,
      body: { email: `new-${next()}@example.org` },
    }),
  };
  samples[`delete ${prefix}/:id/notifee/:notifeeId`] = {
    level: 'admin',
    request: async (id) => ({ path: `${prefix}/${id}/notifee/${await storedNotifee(id)}` }),
  };
}

/** Who calls, and their level on Hope Harbor (and so on its chapters). */
const actors: Array<{ who: string; level: EffectiveLevel | 'anonymous' }> = [
  { who: 'super', level: 'admin' },
  { who: 'admin', level: 'admin' },
  { who: 'writer', level: 'write' },
  { who: 'reader', level: 'read' },
  { who: 'outsider', level: 'none' },
  { who: 'anonymous', level: 'anonymous' },
];

beforeAll(async () => {
  t = await createTestContext({ config: { logRequests: false } });
  app = createApp({ config: t.config, db: t.db, storage, logger: t.logger }).app;
  const demo = await demoOrganizationIds(t.db);
  orgIds.hopeHarbor = demo.hopeHarbor;
  orgIds.northShore = demo.northShore;
  const mapleId = demo.mapleStreet;
  const [outsider] = await t.db
    .insert(users)
    .values({
      email: 'outsider@example.org',
      name: 'Out Sider',
      password_hash: await hashPassword('outsider-pass'),
    })
    .returning();
  await t.db.insert(permissions).values({ org_id: mapleId, user_id: outsider?.id ?? 0, level: 'admin' });
  for (const who of ['super', 'admin', 'writer', 'reader'])
    tokens[who] = await signIn(app, `${who}@twofold.test`);
  tokens.outsider = await signIn(app, 'outsider@example.org', 'outsider-pass');
});
afterAll(() => t.close());

const orgScoped = (routes: readonly AnyRoute[]) => routes.filter((r) => typeof r.access === 'object');

async function send(request: Request, token: string | undefined) {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  if (request.form) {
    const res = await app.request(request.path, {
      method: request.method.toUpperCase(),
      body: request.form,
      headers,
    });
    return { status: res.status, text: await res.text() };
  }
  return call(app, request.method.toUpperCase(), request.path, {
    headers,
    ...(request.body === undefined ? {} : { body: request.body }),
  });
}

/** Everything a call on the organization could change. */
async function snapshot(orgId: number) {
  const table = async (query: ReturnType<typeof sql>) => JSON.stringify(await queryRows(t.db, query));
  return Promise.all([
    table(sql`select * from organizations where id = ${orgId}`),
    table(sql`select * from addresses where id = (select address_id from organizations where id = ${orgId})`),
    table(sql`select * from organization_categories where organization_id = ${orgId} order by category_id`),
    table(sql`select * from permissions where org_id = ${orgId} order by id`),
    table(sql`select id, email, name, password_hash from users order by id`),
    table(sql`select * from notifees where org_id = ${orgId} order by id`),
    table(sql`select * from documents where org_id = ${orgId} order by id`),
    table(sql`select count(*) from outbox`),
    table(sql`select * from donations where organization_id = ${orgId} order by id`),
    table(sql`select count(*) from donors`),
    table(sql`select count(*) from donation_status_history`),
    table(sql`select * from reports where organization_id = ${orgId} order by id`),
  ]);
}

describe('the permission matrix', () => {
  it('has a sample request for every organization-scoped route, and each route needs the pinned level', () => {
    const missing = orgScoped(t.routes)
      .map((r) => `${r.method} ${r.path}`)
      .filter((key) => !samples[key]);
    expect(missing).toEqual([]);
    const declared = Object.fromEntries(
      orgScoped(t.routes).map((r) => [
        `${r.method} ${r.path}`,
        (r.access as { level: PermissionLevel }).level,
      ]),
    );
    expect(declared).toEqual(Object.fromEntries(Object.entries(samples).map(([key, s]) => [key, s.level])));
  });

  for (const [orgName, orgKey] of [
    ['Hope Harbor', 'hopeHarbor'],
    ['its North Shore chapter (levels held on the parent)', 'northShore'],
  ] as const) {
    for (const { who, level } of actors) {
      it(`answers ${who} on ${orgName} as the declared levels say, and refusals change nothing`, async () => {
        const orgId = orgIds[orgKey];
        const problems: string[] = [];
        for (const route of orgScoped(t.routes)) {
          const key = `${route.method} ${route.path}`;
          const sample = samples[key];
          if (!sample || typeof route.access !== 'object') continue;
          const request = { method: route.method, ...(await sample.request(orgId)) };
          const before = await snapshot(orgId);
          const res = await send(request, tokens[who]);
          const needed = sample.level;
          const expected =
            level === 'anonymous' ? 401 : level === 'none' ? 404 : atLeast(level, needed) ? 'ok' : 403;
          const ok = expected === 'ok' ? res.status >= 200 && res.status < 300 : res.status === expected;
          if (!ok)
            problems.push(
              `${key} (needs ${needed}): expected ${expected}, got ${res.status} ${res.text.slice(0, 120)}`,
            );
          if (expected !== 'ok' && JSON.stringify(await snapshot(orgId)) !== JSON.stringify(before))
            problems.push(`${key}: a refused call changed data`);
          // A route that finds its organization through a record answers as if the record were
          // missing; the others with the spec's 'Organization with id {id} not found'.
          const notFound = route.access.unreachable ?? `Organization with id ${orgId} not found`;
          if (expected === 404 && !res.text.includes(notFound))
            problems.push(`${key}: 404 without the message ${notFound}`);
        }
        expect(problems).toEqual([]);
      });
    }
  }
});
