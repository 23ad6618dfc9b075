import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchMethods } from '../../../src/contract/companies.ts';
import { companies } from '../../db/schema.ts';
import { seedCompanies } from '../../db/seed-companies.ts';
import { call } from '../../test-helpers.ts';
import { createTestContext, type TestContext } from '../../testing.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ config: { logRequests: false } });
});
afterAll(() => t.close());

type Names = {
  names: Array<{ name: string; company: { id: number; name: string } | null; company_id: number | null }>;
};
const search = async (path: string) => {
  const res = await call(t.app, 'GET', path);
  return { status: res.status, body: res.json as Names & { message?: string } };
};

describe('the demo companies catalogue', () => {
  it('holds a few hundred companies covering every method and program, and seeding again adds none', async () => {
    const rows = await t.db.select().from(companies);
    expect(rows.length).toBe(300);
    expect(new Set(rows.map((r) => r.match_method))).toEqual(new Set([...matchMethods, null]));
    expect(new Set(rows.map((r) => r.program))).toEqual(
      new Set(['matching', 'none', 'incomplete', 'company-site-only']),
    );
    await seedCompanies(t.db);
    expect((await t.db.select().from(companies)).length).toBe(300);
  });
});

describe('GET /search/company-name/{text}', () => {
  it('answers anyone with names starting with the text first, then containing it, any case', async () => {
    const { status, body } = await search('/search/company-name/HARB?exclude=false&other=false');
    expect(status).toBe(200);
    const names = body.names.map((n) => n.name);
    expect(names[0]).toBe('Harbor Analytics');
    expect(names.every((n) => n.toLowerCase().includes('harb'))).toBe(true);
    expect(body.names[0]?.company_id).toBe(body.names[0]?.company?.id);
    const { body: inner } = await search('/search/company-name/tech?other=false');
    // 'Biotech' and 'Telecom' companies: none start with 'tech', all contain it.
    expect(inner.names.length).toBe(20);
    expect(inner.names.every((n) => /tech/i.test(n.name))).toBe(true);
  });

  it("appends the typed text as 'Other' with no company when other=true", async () => {
    const { body } = await search('/search/company-name/Zebra%20Widgets?exclude=false&other=true');
    expect(body.names).toEqual([{ name: 'Zebra Widgets', company: null, company_id: null }]);
  });

  it('leaves out companies without a program when exclude=true', async () => {
    const [all, kept] = await Promise.all([
      search('/search/company-name/Motors?exclude=false'),
      search('/search/company-name/Motors?exclude=true'),
    ]);
    expect(kept.body.names.length).toBeLessThan(all.body.names.length);
  });

  it('refuses fewer than 3 characters with a clear message, and treats % and _ literally', async () => {
    const short = await search('/search/company-name/ab');
    expect(short.status).toBe(400);
    expect(short.body.message).toBe('Type at least 3 characters to search companies.');
    expect((await search('/search/company-name/%25%25%25')).body.names).toEqual([]);
    expect((await search('/search/company-name/___')).body.names).toEqual([]);
  });
});

describe('the company search rate limit', () => {
  let limited: TestContext;
  beforeAll(async () => {
    limited = await createTestContext({
      config: { logRequests: false, rateLimit: { windowMs: 15 * 60_000, perIp: 1, perEmail: 100 } },
    });
  });
  afterAll(() => limited.close());

  it('allows a person typing 10 searches per window per address, then answers 429', async () => {
    const send = () => call(limited.app, 'GET', '/search/company-name/acme');
    for (let i = 0; i < 10; i++) expect((await send()).status).toBe(200);
    const blocked = await send();
    expect(blocked.status).toBe(429);
    expect(blocked.json).toEqual({ message: 'Too many attempts. Please wait a few minutes and try again.' });
  });
});
