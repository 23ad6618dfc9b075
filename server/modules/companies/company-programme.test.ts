import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { categories } from '../../../src/contract/categories.ts';
import type { CompanyDetail, CompanyProgramme } from '../../../src/contract/company-admin.ts';
import { companies, companyChanges, companySuggestions } from '../../db/schema.ts';
import { call, signIn } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';

let t: TestContext;
const tokens: Record<'super' | 'admin' | 'reader', string> = { super: '', admin: '', reader: '' };
let harbor: CompanyDetail;

beforeAll(async () => {
  t = await createTestContext({ config: { logRequests: false } });
  for (const who of ['super', 'admin', 'reader'] as const)
    tokens[who] = await signIn(t.app, `${who}@twofold.test`);
  const list = await call(t.app, 'GET', '/api/companies?q=Harbor%20Analytics', { token: tokens.reader });
  harbor = list.json.companies[0];
});
afterAll(() => t.close());

const programmeOf = ({ id: _id, name: _name, ...rest }: CompanyDetail): CompanyProgramme => rest;

describe('GET /api/companies', () => {
  it('pages the whole catalogue for any signed-in staff member, 25 at a time, with the total', async () => {
    const first = await call(t.app, 'GET', '/api/companies', { token: tokens.reader });
    expect(first.status).toBe(200);
    expect(first.json.total).toBe(300);
    expect(first.json.companies).toHaveLength(25);
    const last = await call(t.app, 'GET', '/api/companies?page=12', { token: tokens.reader });
    expect(last.json).toMatchObject({ page: 12, per_page: 25 });
    expect(last.json.companies).toHaveLength(25);
    const past = await call(t.app, 'GET', '/api/companies?page=13', { token: tokens.reader });
    expect(past.json.companies).toHaveLength(0);
    const names = new Set(first.json.companies.map((c: CompanyDetail) => c.name));
    const second = await call(t.app, 'GET', '/api/companies?page=2', { token: tokens.reader });
    expect(second.json.companies.some((c: CompanyDetail) => names.has(c.name))).toBe(false);
  });

  it('searches names, the ones starting with the text first, and every company carries categories of the 42', async () => {
    const res = await call(t.app, 'GET', '/api/companies?q=harb', { token: tokens.reader });
    expect(res.json.companies[0].name).toBe('Harbor Analytics');
    expect(res.json.companies.every((c: CompanyDetail) => /harb/i.test(c.name))).toBe(true);
    const ids = new Set(categories.map((c) => c.id));
    expect(categories).toHaveLength(42);
    expect(res.json.companies.every((c: CompanyDetail) => c.categories.every((id) => ids.has(id)))).toBe(
      true,
    );
  });

  it('answers 401 to a visitor who is not signed in', async () => {
    expect((await call(t.app, 'GET', '/api/companies')).status).toBe(401);
  });
});

describe('saving a company', () => {
  it('is refused to everyone but super users, and a refusal changes nothing', async () => {
    const body = { ...programmeOf(harbor), match_ratio: 2.5 };
    for (const who of ['admin', 'reader'] as const) {
      const res = await call(t.app, 'PUT', `/api/companies/${harbor.id}`, { token: tokens[who], body });
      expect(res.status).toBe(403);
    }
    expect((await call(t.app, 'PUT', `/api/companies/${harbor.id}`, { body })).status).toBe(401);
    const [row] = await t.db.select().from(companies).where(eq(companies.id, harbor.id));
    expect(Number(row?.match_ratio)).toBe(harbor.match_ratio);
    expect(await t.db.select().from(companyChanges).where(eq(companyChanges.company_id, harbor.id))).toEqual(
      [],
    );
  });

  it("saves a super user's change and records who changed which fields from what to what", async () => {
    const body: CompanyProgramme = {
      ...programmeOf(harbor),
      match_ratio: 2,
      minimum_match_cents: 1000,
      maximum_match_cents: 300_000,
      categories: [44, 1],
    };
    const res = await call(t.app, 'PUT', `/api/companies/${harbor.id}`, { token: tokens.super, body });
    expect(res.status).toBe(200);
    expect(res.json.company).toMatchObject({
      match_ratio: 2,
      minimum_match_cents: 1000,
      categories: [1, 44],
    });
    const [entry] = res.json.history;
    expect(entry.user.email).toBe('super@twofold.test');
    const fields = entry.changes.map((c: { field: string }) => c.field).sort();
    const expected = ['categories', 'match_ratio', 'maximum_match_cents', 'minimum_match_cents'].filter(
      (f) =>
        JSON.stringify((harbor as Record<string, unknown>)[f]) !==
        JSON.stringify((body as Record<string, unknown>)[f]),
    );
    expect(fields).toEqual(expected.sort());
    expect(entry.changes.find((c: { field: string }) => c.field === 'match_ratio')).toEqual({
      field: 'match_ratio',
      from: harbor.match_ratio,
      to: 2,
    });
    // Any staff member reads the history in the dialog.
    const seen = await call(t.app, 'GET', `/api/companies/${harbor.id}`, { token: tokens.reader });
    expect(seen.json.history[0].changes).toEqual(entry.changes);
    harbor = res.json.company;
  });

  it('records nothing when nothing changed', async () => {
    const res = await call(t.app, 'PUT', `/api/companies/${harbor.id}`, {
      token: tokens.super,
      body: programmeOf(harbor),
    });
    expect(res.json.message).toBe('Nothing changed.');
    expect(
      await t.db.select().from(companyChanges).where(eq(companyChanges.company_id, harbor.id)),
    ).toHaveLength(1);
  });

  it('refuses a minimum above the maximum, a days rule without days, an unknown category, a bad ratio', async () => {
    const base = programmeOf(harbor);
    const cases: Array<[Partial<CompanyProgramme>, RegExp]> = [
      [{ minimum_match_cents: 5000, maximum_match_cents: 100 }, /minimum cannot be above the maximum/],
      [{ deadline_rule: 'days-after-gift', deadline_days: null }, /number of days/],
      [{ categories: [5] }, /Not a category/],
      [{ match_ratio: 0 }, /match ratio/],
      [{ url: 'javascript:alert(1)' }, /http/],
      [{ forms_email: 'not an address' }, /forms email/],
    ];
    for (const [change, message] of cases) {
      const res = await call(t.app, 'PUT', `/api/companies/${harbor.id}`, {
        token: tokens.super,
        body: { ...base, ...change },
      });
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(res.json.message).toMatch(message);
    }
    const missing = await call(t.app, 'PUT', '/api/companies/999999', { token: tokens.super, body: base });
    expect(missing.status).toBe(404);
    expect(missing.json.message).toBe('Company with id 999999 not found');
  });

  it('keeps where signed forms go: the forms email and the mailing address, with history', async () => {
    const body: CompanyProgramme = {
      ...programmeOf(harbor),
      forms_email: 'matching@harbor.example.com',
      forms_address: 'Matching Gifts\n1 Harbor Way\nPortland, ME 04101',
    };
    const res = await call(t.app, 'PUT', `/api/companies/${harbor.id}`, { token: tokens.super, body });
    expect(res.status).toBe(200);
    expect(res.json.company).toMatchObject({
      forms_email: 'matching@harbor.example.com',
      forms_address: 'Matching Gifts\n1 Harbor Way\nPortland, ME 04101',
    });
    const [row] = await t.db.select().from(companies).where(eq(companies.id, harbor.id));
    expect(row?.forms_email).toBe('matching@harbor.example.com');
    expect(res.json.history[0].changes.map((c: { field: string }) => c.field).sort()).toEqual(
      ['forms_address', 'forms_email'].filter(
        (f) => (harbor as Record<string, unknown>)[f] !== (body as Record<string, unknown>)[f],
      ),
    );
    harbor = res.json.company;
  });
});

describe('suggested corrections', () => {
  const suggest = (token: string, body: unknown) =>
    call(t.app, 'POST', `/api/companies/${harbor.id}/suggestions`, { token, body });

  it('are taken from any staff member, only with a real change, and only super users see the queue', async () => {
    const none = await suggest(tokens.reader, { proposed: { match_ratio: harbor.match_ratio } });
    expect(none.status).toBe(400);
    expect(none.json.message).toBe('Change at least one field to suggest a correction.');
    const res = await suggest(tokens.reader, {
      proposed: { match_ratio: 3, url: harbor.url },
      note: 'Their site says 3:1',
    });
    expect(res.status).toBe(201);
    expect((await call(t.app, 'GET', '/api/company-suggestions', { token: tokens.admin })).status).toBe(403);
    const queue = await call(t.app, 'GET', '/api/company-suggestions', { token: tokens.super });
    const mine = queue.json.suggestions.find((s: { id: number }) => s.id === res.json.suggestion_id);
    // Only the field that differs is proposed, shown beside today's value.
    expect(mine).toMatchObject({
      company: { id: harbor.id, name: 'Harbor Analytics' },
      user: { email: 'reader@twofold.test' },
      proposed: { match_ratio: 3 },
      current: { match_ratio: harbor.match_ratio },
      note: 'Their site says 3:1',
      status: 'pending',
    });
    expect(Object.keys(mine.proposed)).toEqual(['match_ratio']);
  });

  it('accepted by a super user are applied with history naming the suggestion, once', async () => {
    const { json } = await suggest(tokens.admin, { proposed: { deadline_rule: 'year-end' } });
    // The days of a days-after-gift rule mean nothing for another rule: they go with it.
    const dropped =
      harbor.deadline_days === null ? [] : [{ field: 'deadline_days', from: harbor.deadline_days, to: null }];
    const id = json.suggestion_id;
    expect(
      (await call(t.app, 'POST', `/api/company-suggestions/${id}/accept`, { token: tokens.admin })).status,
    ).toBe(403);
    const accepted = await call(t.app, 'POST', `/api/company-suggestions/${id}/accept`, {
      token: tokens.super,
    });
    expect(accepted.status).toBe(200);
    const seen = await call(t.app, 'GET', `/api/companies/${harbor.id}`, { token: tokens.reader });
    expect(seen.json.company.deadline_rule).toBe('year-end');
    expect(seen.json.history[0]).toMatchObject({
      suggestion_id: id,
      user: { email: 'super@twofold.test' },
      changes: [{ field: 'deadline_rule', from: harbor.deadline_rule, to: 'year-end' }, ...dropped],
    });
    const again = await call(t.app, 'POST', `/api/company-suggestions/${id}/accept`, { token: tokens.super });
    expect(again.status).toBe(409);
    expect(again.json.message).toBe('This suggestion has already been reviewed.');
    harbor = seen.json.company;
  });

  it("take a domain and an alias from the match dialog's form (issue #31); accepted, they identify the employer", async () => {
    const before = (await call(t.app, 'GET', `/api/companies/${harbor.id}`, { token: tokens.reader })).json
      .company;
    const domains = [...(before.domains ?? []), 'harbor-analytics-staff.example.net'];
    const aliases = [...(before.aliases ?? []), 'HA Group'];
    const res = await suggest(tokens.reader, { proposed: { domains, aliases }, note: 'From a match' });
    expect(res.status).toBe(201);
    const queue = await call(t.app, 'GET', '/api/company-suggestions', { token: tokens.super });
    const mine = queue.json.suggestions.find((s: { id: number }) => s.id === res.json.suggestion_id);
    expect(mine).toMatchObject({
      proposed: { domains, aliases },
      current: { domains: before.domains ?? [], aliases: before.aliases ?? [] },
    });
    const free = await suggest(tokens.reader, { proposed: { domains: ['not a domain'] } });
    expect(free.status).toBe(400);
    const accepted = await call(t.app, 'POST', `/api/company-suggestions/${res.json.suggestion_id}/accept`, {
      token: tokens.super,
    });
    expect(accepted.status).toBe(200);
    const after = (await call(t.app, 'GET', `/api/companies/${harbor.id}`, { token: tokens.reader })).json
      .company;
    expect([...after.domains].sort()).toEqual([...domains].sort());
    expect([...after.aliases].sort()).toEqual([...aliases].sort());
    const suggestion = await call(
      t.app,
      'GET',
      '/api/public/employer-suggestion?email=jo%40harbor-analytics-staff.example.net',
    );
    expect(suggestion.json.company).toEqual({ id: harbor.id, name: 'Harbor Analytics' });
    harbor = after;
  });

  it('rejected with a note leave the company as it was and leave the queue', async () => {
    const { json } = await suggest(tokens.reader, { proposed: { csr_vendor: 'Benevity' }, note: null });
    const id = json.suggestion_id;
    const before = await call(t.app, 'GET', `/api/companies/${harbor.id}`, { token: tokens.reader });
    const res = await call(t.app, 'POST', `/api/company-suggestions/${id}/reject`, {
      token: tokens.super,
      body: { note: 'Their portal is their own' },
    });
    expect(res.status).toBe(200);
    const after = await call(t.app, 'GET', `/api/companies/${harbor.id}`, { token: tokens.reader });
    expect(after.json).toEqual(before.json);
    const [row] = await t.db.select().from(companySuggestions).where(eq(companySuggestions.id, id));
    expect(row).toMatchObject({ status: 'rejected', review_note: 'Their portal is their own' });
    const queue = await call(t.app, 'GET', '/api/company-suggestions', { token: tokens.super });
    expect(queue.json.suggestions.some((s: { id: number }) => s.id === id)).toBe(false);
    const missing = await call(t.app, 'POST', '/api/company-suggestions/999999/reject', {
      token: tokens.super,
    });
    expect(missing.status).toBe(404);
  });
});

describe('GET /api/public/companies', () => {
  it('answers anyone, from any origin, with the public programme fields only', async () => {
    const res = await call(t.app, 'GET', '/api/public/companies?q=harbor%20ana', {
      headers: { origin: 'https://nonprofit.example' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const [first] = res.json.companies;
    expect(Object.keys(first).sort()).toEqual(
      [
        'deadline_days',
        'deadline_rule',
        'guide',
        'id',
        'match_method',
        'match_ratio',
        'maximum_match_cents',
        'minimum_match_cents',
        'name',
        'program',
        'url',
      ].sort(),
    );
    expect(first).toMatchObject({ id: harbor.id, name: 'Harbor Analytics', match_ratio: harbor.match_ratio });
  });

  it('answers one company by id with the same public fields, and 404 for a missing one', async () => {
    const res = await call(t.app, 'GET', `/api/public/companies/${harbor.id}`, {
      headers: { origin: 'https://nonprofit.example' },
    });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const listed = await call(t.app, 'GET', '/api/public/companies?q=harbor%20ana');
    expect(res.json).toEqual(listed.json.companies[0]);
    const missing = await call(t.app, 'GET', '/api/public/companies/999999');
    expect(missing.status).toBe(404);
  });

  it('refuses fewer than 3 characters, and the staff routes answer no other origin', async () => {
    const short = await call(t.app, 'GET', '/api/public/companies?q=ab');
    expect(short.status).toBe(400);
    expect(short.json.message).toBe('Type at least 3 characters to search companies.');
    const staff = await call(t.app, 'GET', '/api/companies', {
      token: tokens.reader,
      headers: { origin: 'https://nonprofit.example' },
    });
    expect(staff.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('the public lookup rate limit', () => {
  let limited: TestContext;
  beforeAll(async () => {
    limited = await createTestContext({
      config: { logRequests: false, rateLimit: { windowMs: 15 * 60_000, perIp: 1, perEmail: 100 } },
    });
  });
  afterAll(() => limited.close());

  it('allows 10 lookups per window per address, then answers 429', async () => {
    const send = () => call(limited.app, 'GET', '/api/public/companies?q=acme');
    for (let i = 0; i < 10; i++) expect((await send()).status).toBe(200);
    expect((await send()).status).toBe(429);
  });
});
