import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, donations, donors } from '../../db/schema.ts';
import { createTestContext, type TestContext } from '../../testing.ts';
import {
  correctEmail,
  employerCore,
  identifyEmployer,
  identifyEmployers,
  saysNoEmployer,
} from './identify.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ config: { logRequests: false } });
});
afterAll(() => t.close());

const idOf = async (name: string) => {
  const [row] = await t.db.select({ id: companies.id }).from(companies).where(eq(companies.name, name));
  if (!row) throw new Error(`no company ${name}`);
  return row.id;
};

describe('the typed employer', () => {
  it('ignores legal suffixes, punctuation, case and a leading The', async () => {
    const acme = await idOf('Acme Analytics');
    const answers = await identifyEmployers(t.db, [
      { employer: 'Acme Analytics, Inc.' },
      { employer: 'The Acme Analytics Company' },
      { employer: 'ACME ANALYTICS LLC' },
      { employer: 'acme analytics corp.' },
    ]);
    for (const a of answers) {
      expect(a.company_id).toBe(acme);
      expect(a.method).toBe('name');
      expect(a.confidence).toBeGreaterThanOrEqual(95);
    }
    expect(answers[0]?.reason).toBe("typed 'Acme Analytics, Inc.', the name of Acme Analytics");
  });

  it('tolerates a misspelling and says how close it is', async () => {
    const a = await identifyEmployer(t.db, { employer: 'Acme Analytcs' });
    expect(a.company_name).toBe('Acme Analytics');
    expect(a.reason).toBe("typed 'Acme Analytcs', close to Acme Analytics");
    expect(a.confidence).toBeGreaterThanOrEqual(80);
    expect(a.confidence).toBeLessThan(95);
  });

  it('drops office and department words', async () => {
    expect(employerCore('Acme Analytics - Seattle Office')).toBe('Acme Analytics');
    expect(employerCore('Acme Analytics, Finance Dept.')).toBe('Acme Analytics');
    expect(employerCore('Acme Analytics Seattle Office')).toBe('Acme Analytics');
    expect(employerCore('Acme Analytics (HR)')).toBe('Acme Analytics');
    const a = await identifyEmployer(t.db, { employer: 'Birch Bank - Downtown Branch' });
    expect(a.company_name).toBe('Birch Bank');
  });

  it('finds an alias', async () => {
    const a = await identifyEmployer(t.db, { employer: 'AB Bank' });
    expect(a.company_name).toBe('Acme Bank');
    expect(a.method).toBe('alias');
    expect(a.reason).toBe("alias 'AB Bank' of Acme Bank");
  });

  it("recognises 'Retired', 'Self-employed', 'N/A' and the like as no employer", async () => {
    for (const text of ['Retired', 'Self-Employed', 'N/A', 'Student', 'none', 'Unemployed', 'Homemaker', '-'])
      expect(saysNoEmployer(text), text).toBe(true);
    expect(saysNoEmployer('Acme Analytics')).toBe(false);
    const a = await identifyEmployer(t.db, { employer: 'Retired', email: 'jo@acme-analytics.example.com' });
    expect(a).toMatchObject({ company_id: null, no_employer: true, reason: "typed 'Retired': no employer" });
  });

  it('gives no answer when two companies are equally close, and none for an unknown company', async () => {
    const [ambiguous, unknown] = await identifyEmployers(t.db, [
      { employer: 'Acme' },
      { employer: 'Zephyr Robotics' },
    ]);
    expect(ambiguous?.company_id).toBeNull();
    expect(ambiguous?.reason).toMatch(/^typed 'Acme' is as close to Acme .+ as to Acme .+$/);
    expect(unknown).toMatchObject({
      company_id: null,
      reason: "typed 'Zephyr Robotics' names no catalogue company",
    });
  });
});

describe('the email domain', () => {
  it("identifies the company's domain and its subdomains", async () => {
    const [exact, sub] = await identifyEmployers(t.db, [
      { email: 'jane@acme-analytics.example.com' },
      { email: 'jane@eu.acme-analytics.example.com' },
    ]);
    expect(exact).toMatchObject({
      company_name: 'Acme Analytics',
      method: 'domain',
      confidence: 99,
      reason: 'email domain acme-analytics.example.com',
    });
    expect(sub).toMatchObject({
      company_name: 'Acme Analytics',
      method: 'domain',
      reason: 'email domain eu.acme-analytics.example.com, part of acme-analytics.example.com',
    });
  });

  it('never identifies by a free-mail or ISP domain', async () => {
    const [gmail, comcast] = await identifyEmployers(t.db, [
      { email: 'jane@gmail.com' },
      { email: 'jane@comcast.net' },
    ]);
    expect(gmail).toMatchObject({
      company_id: null,
      reason: 'gmail.com is a free-mail domain and no employer was typed',
    });
    expect(comcast?.company_id).toBeNull();
  });

  it('leaves a domain and a typed name that disagree below any threshold', async () => {
    const a = await identifyEmployer(t.db, {
      employer: 'Birch Bank',
      email: 'jo@acme-analytics.example.com',
    });
    expect(a.company_name).toBe('Acme Analytics');
    expect(a.confidence).toBeLessThan(80);
    expect(a.reason).toBe(
      "email domain acme-analytics.example.com, but typed 'Birch Bank', the name of Birch Bank",
    );
  });
});

describe('misspelt common domains', () => {
  it('corrects gmial.com, yaho.com and hotmial.com, and leaves real domains alone', () => {
    expect(correctEmail('jane@gmial.com')).toEqual({ from: 'jane@gmial.com', to: 'jane@gmail.com' });
    expect(correctEmail('jane@yaho.com')?.to).toBe('jane@yahoo.com');
    expect(correctEmail('jane@hotmial.com')?.to).toBe('jane@hotmail.com');
    expect(correctEmail('jane@gmail.com')).toBeNull();
    expect(correctEmail('jane@acme.com')).toBeNull();
    expect(correctEmail('jane@acme-analytics.example.com')).toBeNull();
  });

  it('corrects only when asked', async () => {
    const [on] = await identifyEmployers(t.db, [{ email: 'Jane@Gmial.com' }], { correctEmails: true });
    const [off] = await identifyEmployers(t.db, [{ email: 'jane@gmial.com' }]);
    expect(on).toMatchObject({
      email: 'jane@gmail.com',
      correction: { from: 'jane@gmial.com', to: 'jane@gmail.com' },
    });
    expect(off).toMatchObject({ email: 'jane@gmial.com', correction: null });
  });
});

describe('the parent company and the earlier gifts', () => {
  it('answers a subsidiary as its parent, whose program matches it', async () => {
    const parent = await idOf('Cobalt Energy');
    await t.db.update(companies).set({ parent_id: parent }).where(eq(companies.name, 'Cobalt Foods'));
    try {
      const a = await identifyEmployer(t.db, { employer: 'Cobalt Foods Inc' });
      expect(a.company_id).toBe(parent);
      expect(a.reason).toBe(
        "typed 'Cobalt Foods Inc', the name of Cobalt Foods (part of Cobalt Energy, whose program matches it)",
      );
    } finally {
      await t.db.update(companies).set({ parent_id: null }).where(eq(companies.name, 'Cobalt Foods'));
    }
  });

  it("reads the donor's earlier gifts at the organization when nothing else answers", async () => {
    const [org] = await t.db
      .execute<{ id: number }>(sql`select id from organizations order by id limit 1`)
      .then((r) => (r as unknown as { rows: { id: number }[] }).rows);
    if (!org) throw new Error('no organization');
    const company = await idOf('Granite Media');
    const [donor] = await t.db
      .insert(donors)
      .values({ organization_id: org.id, name: 'Earl Ier', email: 'earl@gmail.com' })
      .returning();
    if (!donor) throw new Error('no donor');
    await t.db.insert(donations).values({
      organization_id: org.id,
      donor_id: donor.id,
      company_id: company,
      company_name: 'Granite Media',
      amount_cents: 5000,
      donated_at: new Date('2026-01-05T00:00:00Z'),
      status_id: 3,
    });
    const [withOrg, withoutOrg] = [
      await identifyEmployer(t.db, { email: 'earl@gmail.com' }, { organizationId: org.id }),
      await identifyEmployer(t.db, { email: 'earl@gmail.com' }),
    ];
    expect(withOrg).toMatchObject({
      company_id: company,
      method: 'history',
      confidence: 90,
      reason: "the donor's earlier gift named Granite Media",
    });
    expect(withoutOrg.company_id).toBeNull();
  });
});

describe('a batch that repeats itself', () => {
  it('answers each record as it would alone, whatever the others typed (texts and domains judged once)', async () => {
    const records = [
      { employer: 'Acme Analytcs', email: 'ann@gmial.com' },
      { employer: 'Acme Analytcs', email: 'bo@gmial.com' },
      { employer: 'ACME ANALYTICS LLC', email: 'cy@acme-analytics.example.com' },
      { employer: 'Acme Analytcs', email: 'di@yaho.com' },
      { employer: 'Birch Bank - Downtown Branch', email: 'ed@gmial.com' },
      { employer: 'Acme Analytcs', email: 'fay@gmail.com' },
      { employer: 'Retired', email: 'gus@gmial.com' },
      { employer: '', email: 'hal@gmial.com' },
    ];
    const options = { correctEmails: true };
    const batch = await identifyEmployers(t.db, [...records, ...records], options);
    const alone = await Promise.all(records.map((r) => identifyEmployer(t.db, r, options)));
    expect(batch).toEqual([...alone, ...alone]);
    // Each record keeps its own address in its correction, not the first one's with that domain.
    const corrected = [
      'ann@gmail.com',
      'bo@gmail.com',
      null,
      'di@yahoo.com',
      'ed@gmail.com',
      null,
      'gus@gmail.com',
      'hal@gmail.com',
    ];
    expect(batch.map((a) => a.correction?.to ?? null)).toEqual([...corrected, ...corrected]);
  });
});
