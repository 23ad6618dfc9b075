/** Bench data for PGlite: many matches in one organization, made with set-based SQL. */
import { sql } from 'drizzle-orm';
import type { Database } from '../server/db/client.ts';

/**
 * The matches, with set-based SQL: donors (one per four gifts), companies from the catalogue
 * (one gift in eleven with a free-text employer), statuses, amounts and dates drawn like
 * bench/generate.ts draws them. In batches, so PGlite's memory stays small.
 */
export async function insertMatches(
  database: Database,
  orgId: number,
  count: number,
  step: (label: string) => void = () => {},
) {
  const donorCount = Math.max(100, Math.round(count / 4));
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into donors (organization_id, name, email)
      select ${orgId},
             (array['Ava','Ben','Chloe','Diego','Emma','Farah','Gus','Hana','Ivan','Jade','Kofi','Lena','Mateo','Nia','Omar','Priya'])[1 + g % 16]
               || ' ' ||
             (array['Smith','Garcia','Chen','Okafor','Novak','Patel','Kim','Rossi','Dubois','Silva','Haddad','Berg'])[1 + (g / 16) % 12]
               || ' ' || g,
             'bench-donor' || g || '@example.org'
      from generate_series(1, ${donorCount}) g`);
  });
  // Numbered lookups for the set-based insert (temporary: this session only).
  await database.db.execute(sql`
    create temporary table bench_donors as
    select row_number() over (order by id) - 1 as n, id from donors
    where organization_id = ${orgId} and email like 'bench-donor%'`);
  await database.db.execute(sql`
    create temporary table bench_companies as
    select row_number() over (order by id) - 1 as n, id, name from companies`);
  await database.db.execute(sql`create index on bench_donors (n)`);
  await database.db.execute(sql`create index on bench_companies (n)`);
  await database.db.execute(sql`analyze bench_donors`);
  await database.db.execute(sql`analyze bench_companies`);
  const batch = 20_000;
  for (let first = 1; first <= count; first += batch) {
    const last = Math.min(count, first + batch - 1);
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`
        insert into donations (organization_id, donor_id, company_id, company_name, amount_cents,
                               matched_cents, donated_at, transaction_id, status_id, custom)
        select ${orgId}, d.id,
               case when g % 11 = 0 then null else c.id end,
               case when g % 11 = 0 then 'Employer ' || (g % 997) else c.name end,
               amount, amount, ts, 'bench-' || g, s.status_id,
               case when g % 5 = 0 then jsonb_build_object('campaign', 'Spring ' || (g % 4)) else '{}'::jsonb end
        from (
          select g,
                 (500 + (g * 7919) % 20000 + case when g % 50 = 0 then 250000 else 0 end)::int as amount,
                 now() - ((g * 104729) % (3 * 365 * 86400)) * interval '1 second' as ts,
                 (g * 31) % ${donorCount} as donor_n,
                 (g * 17) % (select count(*) from bench_companies) as company_n,
                 1 + (g * 13) % 28 as status_n
          from generate_series(${first}::bigint, ${last}::bigint) g
        ) x
        join bench_donors d on d.n = x.donor_n
        join bench_companies c on c.n = x.company_n
        join (select row_number() over () as n, s as status_id
              from unnest(array[1,2,3,4,4,4,5,6,7,7,7,8,8,9,10,11,13,16,19,20,20,21,22,23,24,25,28,28]) s) s
          on s.n = x.status_n`);
    });
    step(`  ${last.toLocaleString('en-US')} matches`);
  }
}
