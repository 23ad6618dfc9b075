import { parse } from 'csv-parse/sync';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, permissions, users } from '../../db/schema.ts';
import { call, demoOrganizationIds, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';
import { hashPassword } from '../auth/passwords.ts';
import { shippedTemplates } from '../templates/defaults.ts';
import { recordAudit } from './audit.ts';

let t: TestContext;
let demo: Awaited<ReturnType<typeof demoOrganizationIds>>;
const tokens: Record<string, string> = {};
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestContext({ config: { logRequests: false } });
  demo = await demoOrganizationIds(t.db);
  // An admin of Maple Street only: another organization's admin, as far as Hope Harbor goes.
  const [outsider] = await t.db
    .insert(users)
    .values({
      email: 'maple-admin@example.org',
      name: 'Maple Admin',
      password_hash: await hashPassword('maple-pass'),
    })
    .returning();
  await t.db
    .insert(permissions)
    .values({ org_id: demo.mapleStreet, user_id: outsider?.id ?? 0, level: 'admin' });
  for (const who of ['admin', 'writer', 'reader', 'super'])
    tokens[who] = await signIn(t.app, `${who}@twofold.test`);
  tokens.outsider = await signIn(t.app, 'maple-admin@example.org', 'maple-pass');
  for (const row of await t.db.select({ id: users.id, email: users.email }).from(users))
    ids[row.email.split('@')[0] ?? ''] = row.id;
});
afterAll(() => t.close());

type Event = {
  id: number;
  kind: string;
  organization_id: number | null;
  actor: { kind: string; user_id: number | null; label: string | null };
  subject: { user_id: number; email: string | null } | null;
  summary: string;
  details: Record<string, unknown>;
  occurred_at: string;
  ip_address: string | null;
};

async function log(orgId: number, query = '', token = tokens.admin) {
  return call(t.app, 'GET', `/api/organization/${orgId}/audit-events${query ? `?${query}` : ''}`, { token });
}

/** Every entry of the log for a query, page by page through the cursor. */
async function all(orgId: number, query = '', token = tokens.admin, limit = 200): Promise<Event[]> {
  const events: Event[] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams(query);
    params.set('limit', String(limit));
    if (cursor) params.set('cursor', cursor);
    const res = await log(orgId, params.toString(), token);
    expect(res.status).toBe(200);
    events.push(...res.json.events);
    cursor = res.json.next_cursor;
  } while (cursor);
  return events;
}

const newest = async (orgId: number, kind: string, token = tokens.admin) =>
  (await all(orgId, `kind=${kind}`, token))[0];

describe('what the portal records, each in its change’s transaction', () => {
  it('records access granted, changed and removed with the admin, the member and the levels', async () => {
    const added = await call(t.app, 'POST', '/api/user/permission', {
      token: tokens.admin,
      headers: { 'user-agent': 'AuditTest/1.0' },
      body: { org_id: demo.hopeHarbor, email: 'ana@example.org', level: 'read', name: 'Ana' },
    });
    expect(added.status).toBe(200);
    const ana = added.json.users.find((u: { email: string }) => u.email === 'ana@example.org').id as number;
    const granted = await newest(demo.hopeHarbor, 'permission.granted');
    expect(granted).toMatchObject({
      organization_id: demo.hopeHarbor,
      actor: { kind: 'user', user_id: ids.admin, label: 'admin@twofold.test' },
      subject: { user_id: ana, email: 'ana@example.org' },
      summary: 'Gave ana@example.org read access (a new account)',
      details: { email: 'ana@example.org', level: 'read', new_account: true },
    });
    const changed = await call(t.app, 'POST', '/api/user/permission', {
      token: tokens.admin,
      body: { org_id: demo.hopeHarbor, user_id: ana, level: 'write' },
    });
    expect(changed.status).toBe(200);
    expect(await newest(demo.hopeHarbor, 'permission.changed')).toMatchObject({
      actor: { label: 'admin@twofold.test' },
      subject: { user_id: ana },
      summary: 'Changed ana@example.org from read to write',
      details: { from: 'read', to: 'write' },
    });
    const removed = await call(t.app, 'DELETE', '/api/user/permission', {
      token: tokens.admin,
      body: { org_id: demo.hopeHarbor, user_id: ana },
    });
    expect(removed.status).toBe(200);
    expect(await newest(demo.hopeHarbor, 'permission.revoked')).toMatchObject({
      subject: { user_id: ana },
      summary: "Removed ana@example.org's write access",
      details: { level: 'write' },
    });
    const [stored] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.kind, 'permission.granted'), eq(auditEvents.subject_user_id, ana)));
    expect(stored?.user_agent).toBe('AuditTest/1.0');
    expect(stored?.ip_address).toBeTruthy();
  });

  it('records invitations sent, sent again and withdrawn', async () => {
    const body = { org_id: demo.mapleStreet, email: 'reader@twofold.test', level: 'write' };
    expect((await call(t.app, 'POST', '/api/user/permission', { token: tokens.admin, body })).status).toBe(
      200,
    );
    const pending = { org_id: demo.mapleStreet, user_id: ids.reader };
    expect(
      (await call(t.app, 'POST', '/api/user/invitation', { token: tokens.admin, body: pending })).status,
    ).toBe(200);
    expect(
      (await call(t.app, 'DELETE', '/api/user/invitation', { token: tokens.admin, body: pending })).status,
    ).toBe(200);
    const sent = await all(demo.mapleStreet, 'kind=invitation.sent');
    expect(sent.map((e) => e.summary)).toEqual([
      'Sent the invitation of reader@twofold.test again (write)',
      'Invited reader@twofold.test as write',
    ]);
    expect(sent[1]).toMatchObject({ subject: { user_id: ids.reader }, details: { level: 'write' } });
    expect(await newest(demo.mapleStreet, 'invitation.revoked')).toMatchObject({
      actor: { label: 'admin@twofold.test' },
      summary: 'Withdrew the invitation of reader@twofold.test (write)',
    });
  });

  it('records API keys created and removed by their prefix, never the key', async () => {
    const created = await call(t.app, 'POST', `/api/organization/${demo.hopeHarbor}/api-key`, {
      token: tokens.admin,
    });
    expect(created.status).toBe(200);
    const { id, key, secret } = created.json.api_key;
    const entry = await newest(demo.hopeHarbor, 'api_key.created');
    expect(entry).toMatchObject({ summary: `Created API key ${key}…`, details: { key_id: id, prefix: key } });
    const removed = await call(t.app, 'DELETE', `/api/organization/${demo.hopeHarbor}/api-key/${id}`, {
      token: tokens.admin,
    });
    expect(removed.status).toBe(200);
    expect(await newest(demo.hopeHarbor, 'api_key.revoked')).toMatchObject({
      summary: `Removed API key ${key}…`,
      actor: { label: 'admin@twofold.test' },
    });
    const stored = await t.db.select().from(auditEvents);
    expect(JSON.stringify(stored)).not.toContain(secret);
  });

  it('records webhooks created and removed, without their token or signing secret', async () => {
    const created = await call(t.app, 'POST', `/api/organization/${demo.hopeHarbor}/webhook`, {
      token: tokens.admin,
    });
    expect(created.status).toBe(201);
    const hook = created.json.webhooks.at(-1);
    expect(await newest(demo.hopeHarbor, 'webhook.created')).toMatchObject({
      summary: `Created webhook #${hook.id}`,
    });
    await call(t.app, 'PUT', `/api/webhook/${hook.id}`, {
      token: tokens.admin,
      body: { url: 'hooks.example.org/twofold?key=abc', event: 'status' },
    });
    expect((await call(t.app, 'DELETE', `/api/webhook/${hook.id}`, { token: tokens.admin })).status).toBe(
      200,
    );
    const removed = await newest(demo.hopeHarbor, 'webhook.removed');
    expect(removed?.summary).toBe(`Removed webhook #${hook.id} (hooks.example.org/twofold)`);
    expect(JSON.stringify(removed)).not.toContain('key=abc');
  });

  it('records a matches export with who, the filters and how many rows', async () => {
    const link = await call(
      t.app,
      'GET',
      `/api/donation/${demo.hopeHarbor}/csv-token?filters%5BdateFrom%5D=2000-01-01`,
      { token: tokens.reader },
    );
    expect(link.status).toBe(200);
    const file = await t.app.request(link.json.url);
    expect(file.status).toBe(200);
    const rows = parse(await file.text(), { bom: true }) as string[][];
    const entry = await newest(demo.hopeHarbor, 'export.donations');
    expect(entry).toMatchObject({
      actor: { user_id: ids.reader, label: 'reader@twofold.test' },
      summary: `Exported ${rows.length - 1} matches as CSV`,
      details: { format: 'csv', rows: rows.length - 1, filters: { 'filters[dateFrom]': '2000-01-01' } },
    });
  });

  it('records a report download with the report, its format and how many rows', async () => {
    const saved = await call(t.app, 'POST', `/api/organization/${demo.hopeHarbor}/reports`, {
      token: tokens.writer,
      body: { name: 'Audit big gifts', scope: 'organization', columns: { 'donations.id': 'ID' } },
    });
    expect(saved.status).toBe(200);
    const reportId = saved.json.report.id;
    const link = await call(
      t.app,
      'GET',
      `/api/donation/${demo.hopeHarbor}/csv-token?report_id=${reportId}`,
      {
        token: tokens.writer,
      },
    );
    const file = await t.app.request(link.json.url);
    const rows = parse(await file.text(), { bom: true }) as string[][];
    expect(await newest(demo.hopeHarbor, 'report.downloaded')).toMatchObject({
      actor: { label: 'writer@twofold.test' },
      summary: `Downloaded report "Audit big gifts" as CSV (${rows.length - 1} rows)`,
      details: { report_id: reportId, format: 'csv', rows: rows.length - 1, scope: 'organization' },
    });
  });

  it('records email template changes', async () => {
    const created = await call(t.app, 'POST', `/api/organization/${demo.hopeHarbor}/template/0`, {
      token: tokens.writer,
      body: { ...shippedTemplates[10], status_id: 10, live: false },
    });
    expect(created.status).toBe(200);
    const id = created.json.id;
    const saved = await call(t.app, 'POST', `/api/organization/${demo.hopeHarbor}/template/${id}`, {
      token: tokens.writer,
      body: { ...shippedTemplates[10], subject1: 'A new subject', live: true },
    });
    expect(saved.status).toBe(200);
    const entries = await all(demo.hopeHarbor, 'kind=template.changed');
    expect(entries.slice(0, 2).map((e) => e.summary)).toEqual([
      'Saved: Below minimum, version A',
      'Created: Below minimum, version A',
    ]);
    expect(entries[0]).toMatchObject({
      actor: { label: 'writer@twofold.test' },
      details: { template_id: id, live: true },
    });
  });

  it('records a super user’s catalogue edit for no organization: super users see it in any log, admins never', async () => {
    const { json } = await call(t.app, 'GET', '/api/companies/1', { token: tokens.super });
    const { id: _id, name, ...programme } = json.company;
    const res = await call(t.app, 'PUT', '/api/companies/1', {
      token: tokens.super,
      body: { ...programme, match_ratio: (programme.match_ratio ?? 1) + 1 },
    });
    expect(res.status).toBe(200);
    const [stored] = await t.db.select().from(auditEvents).where(eq(auditEvents.kind, 'catalogue.edited'));
    expect(stored).toMatchObject({ organization_id: null, actor_label: 'super@twofold.test' });
    expect(stored?.summary).toBe(`Edited ${name}: match_ratio`);
    expect(await newest(demo.hopeHarbor, 'catalogue.edited', tokens.super)).toMatchObject({
      summary: stored?.summary,
    });
    expect(await newest(demo.mapleStreet, 'catalogue.edited', tokens.super)).toMatchObject({
      summary: stored?.summary,
    });
    expect(await all(demo.hopeHarbor, 'kind=catalogue.edited', tokens.admin)).toEqual([]);
  });
});

describe('an entry and its change commit or roll back together', () => {
  it('a removal whose entry cannot be written is rolled back whole: the key stays live and no entry remains', async () => {
    const created = await call(t.app, 'POST', `/api/organization/${demo.hopeHarbor}/api-key`, {
      token: tokens.admin,
    });
    const { id, secret } = created.json.api_key;
    // The database refuses this one entry: the change it records must not survive without it.
    await t.db.execute(sql`create function refuse_audit() returns trigger language plpgsql as $$
      begin raise exception 'audit refused'; end; $$`);
    await t.db.execute(
      sql`create trigger refuse_audit before insert on audit_events for each row when (new.kind = 'api_key.revoked') execute function refuse_audit()`,
    );
    try {
      const removed = await call(t.app, 'DELETE', `/api/organization/${demo.hopeHarbor}/api-key/${id}`, {
        token: tokens.admin,
      });
      expect(removed.status).toBe(500);
    } finally {
      await t.db.execute(sql`drop trigger refuse_audit on audit_events`);
    }
    const stillWorks = await call(t.app, 'GET', '/api/v1/matches', {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(stillWorks.status).not.toBe(401);
    const entries = await t.db.select().from(auditEvents).where(eq(auditEvents.kind, 'api_key.revoked'));
    expect(entries.filter((e) => e.details.key_id === id)).toEqual([]);
  });

  it('a refused change records nothing (the last admin cannot step down)', async () => {
    const before = await t.db.select().from(auditEvents);
    const mapleAdmins = await t.db
      .select()
      .from(permissions)
      .where(and(eq(permissions.org_id, demo.mapleStreet), eq(permissions.level, 'admin')));
    // Two admins on Maple Street (the demo admin and maple-admin): demote one, then the other is last.
    expect(mapleAdmins).toHaveLength(2);
    const res = await call(t.app, 'POST', '/api/user/permission', {
      token: tokens.outsider,
      body: { org_id: demo.mapleStreet, user_id: ids.admin, level: 'read' },
    });
    expect(res.status).toBe(200);
    const last = await call(t.app, 'POST', '/api/user/permission', {
      token: tokens.outsider,
      body: { org_id: demo.mapleStreet, user_id: ids['maple-admin'], level: 'read' },
    });
    expect(last.status).toBe(409);
    const after = await t.db.select().from(auditEvents);
    expect(after.length).toBe(before.length + 1);
    expect(after.at(-1)).toMatchObject({
      kind: 'permission.changed',
      actor_label: 'maple-admin@example.org',
    });
    // Put the demo admin back for the tests that follow (the demotion ended their sessions).
    await t.db
      .update(permissions)
      .set({ level: 'admin' })
      .where(and(eq(permissions.org_id, demo.mapleStreet), eq(permissions.user_id, ids.admin ?? 0)));
    tokens.admin = await signIn(t.app, 'admin@twofold.test');
  });
});

describe('reading the log', () => {
  const day = (d: string) => new Date(`${d}T12:00:00Z`);
  let org = 0;

  beforeAll(async () => {
    org = demo.riverside;
    const entries = [
      { at: '2025-01-10', kind: 'api_key.created', actor: 'admin', subject: null },
      { at: '2025-01-11', kind: 'permission.changed', actor: 'admin', subject: 'reader' },
      { at: '2025-01-12', kind: 'export.donations', actor: 'writer', subject: null },
      { at: '2025-01-13', kind: 'permission.changed', actor: 'admin', subject: 'writer' },
      { at: '2025-01-14', kind: 'export.donations', actor: 'reader', subject: null },
    ] as const;
    for (const [i, e] of entries.entries())
      await t.db.insert(auditEvents).values({
        occurred_at: day(e.at),
        organization_id: org,
        actor_kind: 'user',
        actor_user_id: ids[e.actor] ?? null,
        actor_label: `${e.actor}@twofold.test`,
        kind: e.kind,
        subject_user_id: e.subject ? (ids[e.subject] ?? null) : null,
        summary: `entry ${i + 1}`,
      });
    // Two entries in the same instant: the id breaks the tie.
    for (const n of [6, 7])
      await t.db.insert(auditEvents).values({
        occurred_at: day('2025-01-15'),
        organization_id: org,
        actor_kind: 'system',
        kind: 'webhook.created',
        summary: `entry ${n}`,
      });
  });

  it('lists newest first and pages through every entry by the cursor, none twice', async () => {
    const whole = (await all(org, 'from=2025-01-01&to=2025-01-31')).map((e) => e.summary);
    expect(whole).toEqual(['entry 7', 'entry 6', 'entry 5', 'entry 4', 'entry 3', 'entry 2', 'entry 1']);
    const paged = (await all(org, 'from=2025-01-01&to=2025-01-31', tokens.admin, 2)).map((e) => e.summary);
    expect(paged).toEqual(whole);
    const first = await log(org, 'from=2025-01-01&to=2025-01-31&limit=7');
    expect(first.json.next_cursor).toBeNull();
  });

  it('filters by person (who did it or whom it was about), kind and inclusive days', async () => {
    const summaries = async (query: string) =>
      (await all(org, `from=2025-01-01&to=2025-01-31&${query}`)).map((e) => e.summary);
    expect(await summaries(`person=${ids.writer}`)).toEqual(['entry 4', 'entry 3']);
    expect(await summaries(`person=${ids.reader}`)).toEqual(['entry 5', 'entry 2']);
    expect(await summaries('kind=export.donations')).toEqual(['entry 5', 'entry 3']);
    expect(await summaries(`kind=permission.changed&person=${ids.writer}`)).toEqual(['entry 4']);
    expect((await all(org, 'from=2025-01-12&to=2025-01-13')).map((e) => e.summary)).toEqual([
      'entry 4',
      'entry 3',
    ]);
    expect((await all(org, 'to=2025-01-10')).map((e) => e.summary)).toEqual(['entry 1']);
  });

  it('answers bad input with a 400 and a message, never a 500', async () => {
    for (const [query, message] of [
      ['from=2025-02-01&to=2025-01-01', 'from must be on or before to'],
      ['from=2025-02-30', 'Expected a real date'],
      ['kind=nothing.like.this', 'kind must be one of'],
      ['cursor=bm90IGEgY3Vyc29y', 'cursor is not valid'],
      ['cursor=WyIyMDI1LTAxLTAxVDAwOjAwOjAwLjAwMDAwMFoiLC0xXQ', 'cursor is not valid'],
      ['limit=0', 'limit must be'],
      ['limit=500', 'limit must be'],
      ['person=abc', 'person must be a user id'],
    ] as const) {
      const res = await log(org, query);
      expect(res.status, query).toBe(400);
      expect(res.json.message, query).toContain(message);
    }
  });

  it('holds its members’ account-wide events, never a non-member’s nor another organization’s', async () => {
    const signIn = (userId: number | undefined, email: string) =>
      recordAudit(t.db, {
        kind: 'auth.sign_in',
        organizationId: null,
        actor: { kind: 'user', userId: userId ?? 0, email },
        summary: `Signed in ${email}`,
      });
    await signIn(ids.writer, 'writer@twofold.test');
    await signIn(ids['maple-admin'], 'maple-admin@example.org');
    await recordAudit(t.db, {
      kind: 'webhook.created',
      organizationId: demo.mapleStreet,
      actor: { kind: 'user', userId: ids['maple-admin'] ?? 0, email: 'maple-admin@example.org' },
      summary: 'A Maple Street webhook',
    });
    const hope = (await all(demo.hopeHarbor)).map((e) => e.summary);
    expect(hope).toContain('Signed in writer@twofold.test');
    expect(hope).not.toContain('Signed in maple-admin@example.org');
    expect(hope).not.toContain('A Maple Street webhook');
    const maple = (await all(demo.mapleStreet, '', tokens.outsider)).map((e) => e.summary);
    expect(maple).toContain('Signed in maple-admin@example.org');
    expect(maple).toContain('A Maple Street webhook');
    expect(maple).not.toContain('Signed in writer@twofold.test');
    expect(maple.some((s) => s.includes('ana@example.org'))).toBe(false);
    // Filtering by a person of another organization shows nothing of theirs either.
    const theirs = await all(demo.hopeHarbor, `person=${ids['maple-admin']}`);
    expect(theirs).toEqual([]);
  });

  it('refuses another organization’s admin (404), and writers and readers (403)', async () => {
    for (const path of ['', '/csv-token']) {
      const url = `/api/organization/${demo.hopeHarbor}/audit-events${path}`;
      const outsider = await call(t.app, 'GET', url, { token: tokens.outsider });
      expect(outsider.status).toBe(404);
      expect(outsider.text).not.toContain('admin@twofold.test');
      expect((await call(t.app, 'GET', url, { token: tokens.writer })).status).toBe(403);
      expect((await call(t.app, 'GET', url, { token: tokens.reader })).status).toBe(403);
      expect((await call(t.app, 'GET', url)).status).toBe(401);
    }
  });
});

describe('the CSV export', () => {
  it('streams the filtered log with its columns, formula-safe, and records the export itself', async () => {
    const org = demo.northShore;
    await recordAudit(t.db, {
      kind: 'template.changed',
      organizationId: org,
      actor: { kind: 'user', userId: ids.writer ?? 0, email: 'writer@twofold.test' },
      summary: '=HYPERLINK("http://evil.example","click")',
      details: { template_id: 3 },
      ip: '192.0.2.9',
    });
    await recordAudit(t.db, {
      kind: 'api_key.created',
      organizationId: org,
      actor: { kind: 'user', userId: ids.admin ?? 0, email: 'admin@twofold.test' },
      summary: 'Created API key tf_12345678…',
    });
    const link = await call(
      t.app,
      'GET',
      `/api/organization/${org}/audit-events/csv-token?kind=template.changed`,
      {
        token: tokens.admin,
      },
    );
    expect(link.status).toBe(200);
    const file = await t.app.request(link.json.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(file.headers.get('content-disposition')).toContain(`audit-log-${org}-`);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await file.arrayBuffer());
    expect(text.startsWith('\uFEFF')).toBe(true);
    const rows = parse(text, { bom: true }) as string[][];
    expect(rows[0]).toEqual([
      'Time (UTC)',
      'Event',
      'Kind',
      'By',
      'About',
      'Summary',
      'Details',
      'IP Address',
    ]);
    expect(rows.slice(1)).toEqual([
      [
        expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
        'Email template changed',
        'template.changed',
        'writer@twofold.test',
        '',
        `'=HYPERLINK("http://evil.example","click")`,
        '{"template_id":3}',
        '192.0.2.9',
      ],
    ]);
    expect(await newest(org, 'export.audit')).toMatchObject({
      actor: { label: 'admin@twofold.test' },
      summary: 'Exported 1 audit log entry as CSV',
      details: { rows: 1, filters: { kind: 'template.changed' } },
    });
  });

  it('takes only its own links: a matches export link is refused, and its link opens no matches export', async () => {
    const org = demo.hopeHarbor;
    const matches = await call(t.app, 'GET', `/api/donation/${org}/csv-token`, { token: tokens.admin });
    const token = new URL(matches.json.url, 'http://x').searchParams.get('token') ?? '';
    const refused = await t.app.request(
      `/api/organization/${org}/audit-events/csv?token=${encodeURIComponent(token)}`,
    );
    expect(refused.status).toBe(401);
    const audit = await call(t.app, 'GET', `/api/organization/${org}/audit-events/csv-token`, {
      token: tokens.admin,
    });
    const auditToken = new URL(audit.json.url, 'http://x').searchParams.get('token') ?? '';
    const crossed = await t.app.request(`/api/donation/${org}/csv?token=${encodeURIComponent(auditToken)}`);
    expect(crossed.status).toBe(401);
  });

  it('refuses a bad filter when the link is asked for', async () => {
    const res = await call(
      t.app,
      'GET',
      `/api/organization/${demo.hopeHarbor}/audit-events/csv-token?from=2025-03-01&to=2025-01-01`,
      { token: tokens.admin },
    );
    expect(res.status).toBe(400);
    expect(res.json.message).toBe('from must be on or before to');
  });
});

describe('retention', () => {
  it('keeps entries older than a year: nothing deletes them', async () => {
    const old = new Date(Date.now() - 400 * 86_400_000);
    await t.db.insert(auditEvents).values({
      occurred_at: old,
      organization_id: demo.hopeHarbor,
      actor_kind: 'system',
      kind: 'webhook.removed',
      summary: 'from last year',
    });
    await expect(t.db.delete(auditEvents).where(isNull(auditEvents.actor_user_id))).rejects.toThrow();
    const kept = await all(demo.hopeHarbor, 'kind=webhook.removed');
    expect(kept.map((e) => e.summary)).toContain('from last year');
  });
});
