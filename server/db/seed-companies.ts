import { sql } from 'drizzle-orm';
import { categories } from '../../src/contract/categories.ts';
import {
  type DeadlineRule,
  deadlineRules,
  type MatchMethod,
  matchMethods,
  type ProgramState,
  verifyMethods,
} from '../../src/contract/companies.ts';
import type { Db, Tx } from './client.ts';
import { arrayParam } from './rows.ts';
import { companies, companyAliases, companyDomains } from './schema.ts';

const firstParts = [
  'Acme',
  'Birch',
  'Cobalt',
  'Driftwood',
  'Evergreen',
  'Falcon',
  'Granite',
  'Harbor',
  'Ironwood',
  'Juniper',
  'Keystone',
  'Lakeside',
  'Meridian',
  'Northwind',
  'Oakridge',
  'Pinecrest',
  'Quartz',
  'Redwood',
  'Summit',
  'Tidewater',
];
const secondParts = [
  'Analytics',
  'Bank',
  'Biotech',
  'Consulting',
  'Energy',
  'Foods',
  'Health',
  'Insurance',
  'Logistics',
  'Media',
  'Motors',
  'Pharma',
  'Retail',
  'Software',
  'Telecom',
];
const csrVendors = ['Benevity', 'YourCause', 'CyberGrants', 'Bright Funds'];

/**
 * The demo catalogue: 300 fictional companies (every first part with every second part), their
 * properties derived from the position so every run gives the same catalogue, covering every
 * match method, verify method, program state, deadline rule, minimum, maximum and ratio.
 */
export function demoCompanies() {
  const rows: Array<typeof companies.$inferInsert> = [];
  let i = 0;
  for (const first of firstParts) {
    for (const second of secondParts) {
      const name = `${first} ${second}`;
      const method = matchMethods[i % matchMethods.length] as MatchMethod;
      // Most companies match; every 7th has no program, every 11th an incomplete policy, every 13th site-only.
      const program: ProgramState =
        i % 7 === 3 ? 'none' : i % 11 === 5 ? 'incomplete' : i % 13 === 8 ? 'company-site-only' : 'matching';
      const deadline = deadlineRules[i % deadlineRules.length] as DeadlineRule;
      const slug = name.toLowerCase().replace(/\s+/g, '-');
      rows.push({
        name,
        match_method: program === 'incomplete' && i % 2 === 0 ? null : method,
        guide: `Ask ${name}'s HR or giving team for the matching gift form; include the receipt from the nonprofit.`,
        url: `https://${slug}.example.com/giving`,
        verify: verifyMethods[i % verifyMethods.length] ?? 'both',
        program,
        minimum_match_cents: [null, 2500, 5000, 10_000][i % 4] ?? null,
        maximum_match_cents: [null, 100_000, 500_000, 1_000_000, 2_500_000][i % 5] ?? null,
        match_ratio: ['1', '2', '0.5', '1', '3'][i % 5] ?? '1',
        deadline_rule: deadline,
        deadline_days: deadline === 'days-after-gift' ? ([90, 180, 365][i % 3] ?? 365) : null,
        csr_vendor: method === 'csr' ? (csrVendors[i % csrVendors.length] ?? null) : null,
        // Signed forms (issue #16): e-sign companies take them by email, paper and mail ones by post.
        forms_email: method === 'esign' ? `matching-gifts@${slug}.example.com` : null,
        forms_address:
          method === 'paper' || method === 'mail'
            ? `${name}\nAttn: Matching Gift Program\n${100 + i} Commerce Way\nSpringfield, IL 62701`
            : null,
        excluded_organization_types: i % 9 === 4 ? ['edu-pto'] : i % 17 === 6 ? ['chapter'] : [],
        // A few categories of the catalogue per company, none for a company without a program.
        categories:
          program === 'none'
            ? []
            : [0, 7, 19]
                .map((step) => categories[(i + step) % categories.length]?.id ?? 1)
                .sort((a, b) => a - b),
      });
      i++;
    }
  }
  return rows;
}

/** A demo company's alias: its initials and its last word ('AB Bank' for Acme Bank). */
export const initialsAlias = (name: string) => {
  const words = name.split(' ');
  return `${words.map((w) => w[0] ?? '').join('')} ${words[words.length - 1] ?? ''}`;
};

/**
 * How the demo companies are written besides their names (issue #31): each company's email domain
 * is the host of its url ('acme-analytics.example.com'), and its alias an
 * abbreviation: the initials and the last word ('AB Bank' for Acme Bank).
 */
export function demoCompanyWritings() {
  return demoCompanies().map((c) => ({
    name: c.name,
    domain: new URL(c.url ?? '').hostname,
    alias: initialsAlias(c.name),
  }));
}

/**
 * Seeds the demo catalogue. Idempotent: companies that exist (by name, any case) are left alone,
 * and so are domains and aliases already there.
 */
export async function seedCompanies(db: Db | Tx): Promise<void> {
  await db.insert(companies).values(demoCompanies()).onConflictDoNothing();
  const writings = demoCompanyWritings();
  const names = arrayParam(
    writings.map((w) => w.name.toLowerCase()),
    'text',
  );
  await db.execute(
    sql`insert into ${companyDomains} (company_id, domain)
        select c.id, v.domain from unnest(${names}, ${arrayParam(
          writings.map((w) => w.domain),
          'text',
        )}) as v(name, domain)
        join ${companies} c on lower(c.name) = v.name
        on conflict do nothing`,
  );
  await db.execute(
    sql`insert into ${companyAliases} (company_id, alias)
        select c.id, v.alias from unnest(${names}, ${arrayParam(
          writings.map((w) => w.alias),
          'text',
        )}) as v(name, alias)
        join ${companies} c on lower(c.name) = v.name
        on conflict do nothing`,
  );
}
