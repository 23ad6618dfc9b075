/**
 * Fills a PostgreSQL database with a realistic load for the donations benchmarks: the demo seed
 * (users, the company catalogue, Hope Harbor and its chapters), 200 more organizations, and
 * 1,000,000 matches spread with a skew like real customers' (a third of them in Hope Harbor and
 * its two chapters, the rest across the others), with donors, companies, statuses, amounts and
 * dates drawn the way real data looks.
 *
 *   npx tsx bench/generate.ts [--matches 1000000] [--database twofold_bench]
 *
 * With `--shape hosted` (issue #26, `npm run bench:scale`) it makes a hosted service instead:
 * `--organizations` nonprofits (default one per thousand matches: 10,000 at 10,000,000), of which
 * `--large` (default 3) share 30% of the matches (a million each at 10,000,000) and the others
 * share the rest, a few hundred each (the same few hundred at any total, so a small
 * organization's data stays the same size as the service grows). Each donor gives about three
 * times, to one organization; companies, statuses, amounts and dates as above. Inserted with
 * generate_series in steps of a million rows (each its own transaction), with the two big tables'
 * secondary indexes dropped during the load and built once at the end.
 *
 *   npx tsx bench/generate.ts --shape hosted --matches 10000000 --database twofold_scale_10m
 *
 * It connects to BENCH_DATABASE_URL's server (default postgres://postgres@127.0.0.1:5432),
 * drops and recreates the named database, migrates it with the server's migrations and inserts
 * everything with set-based SQL (about a minute for a million rows on two cores).
 */
import { parseArgs } from 'node:util';
import { type SQL, sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase } from '../server/db/client.ts';
import { queryRows } from '../server/db/rows.ts';
import { seedDemo } from '../server/db/seed.ts';
import { benchDatabaseUrl, serverUrl } from './shared.ts';

const { values } = parseArgs({
  options: {
    matches: { type: 'string', default: '1000000' },
    database: { type: 'string', default: 'twofold_bench' },
    shape: { type: 'string', default: 'demo' },
    organizations: { type: 'string' },
    large: { type: 'string', default: '3' },
  },
});
if (values.shape !== 'demo' && values.shape !== 'hosted') throw new Error('--shape must be demo or hosted');
const matches = Number(values.matches);
if (!Number.isSafeInteger(matches) || matches < 1)
  throw new Error('--matches must be a positive whole number');
const database = values.database;
if (!/^[a-z_][a-z0-9_]*$/.test(database)) throw new Error('--database must be a plain identifier');

const started = performance.now();
const step = (label: string) =>
  console.log(`${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s  ${label}`);

const admin = new pg.Client({ connectionString: `${serverUrl()}/postgres` });
await admin.connect();
await admin.query(`drop database if exists ${database} with (force)`);
await admin.query(`create database ${database}`);
await admin.end();
step(`created database ${database}`);

const { db, migrate, close } = await openDatabase({ databaseUrl: benchDatabaseUrl(database) });
await migrate();
await seedDemo(db);
step('migrated and seeded the demo data');

if (values.shape === 'hosted') await hosted();
else await demoShape();

// What autovacuum would do on a live database: statistics, and the visibility map index-only scans need.
await db.execute(sql`vacuum analyze`);
step('vacuumed and analyzed');

const summary = await queryRows<{ name: string; n: number }>(
  db,
  sql`
  select o.name, count(*)::int as n from donations d join organizations o on o.id = d.organization_id
  group by o.name order by n desc limit 5`,
);
for (const row of summary) console.log(`         ${String(row.n).padStart(8)}  ${row.name}`);
await close();

async function demoShape() {
  const orgCount = 200;
  const donorCount = Math.max(1000, Math.round(matches / 4));

  await db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into organizations (name, type, ein, complete, is_premium, needed)
      select 'Bench Nonprofit ' || g, 'non-profit', lpad((10000000 + g)::text, 9, '0'), true, 'true', '[]'::jsonb
      from generate_series(1, ${orgCount}) g`);
    // Every organization that can hold matches, Hope Harbor's family first.
    await tx.execute(sql`
      create temporary table bench_orgs on commit drop as
      select row_number() over (order by (name like 'Bench%'), id) as n, id
      from organizations`);
    await tx.execute(sql`
      create temporary table bench_org_count on commit drop as select count(*)::int as total from bench_orgs`);
    // Donors: each belongs to one organization; the first quarter to Hope Harbor's family.
    await tx.execute(sql`
      insert into donors (organization_id, name, email)
      select o.id,
             (array['Ava','Ben','Chloe','Diego','Emma','Farah','Gus','Hana','Ivan','Jade','Kofi','Lena','Mateo','Nia','Omar','Priya'])[1 + g % 16]
               || ' ' ||
             (array['Smith','Garcia','Chen','Okafor','Novak','Patel','Kim','Rossi','Dubois','Silva','Haddad','Berg'])[1 + (g / 16) % 12]
               || ' ' || g,
             'donor' || g || '@example.org'
      from generate_series(1, ${donorCount}) g
      join bench_orgs o on o.n = case
        when g % 3 = 0 then 1 + (g / 3) % 3
        else 4 + g % ((select total from bench_org_count) - 3) end`);
    step(`inserted ${orgCount} organizations and ${donorCount} donors`);

    await tx.execute(sql`
      create temporary table bench_companies on commit drop as
      select row_number() over (order by id) as n, id, name from companies`);
    await tx.execute(sql`
      create temporary table bench_donors on commit drop as
      select row_number() over (order by id) as n, id, organization_id from donors`);
    await tx.execute(sql`
      create temporary table bench_statuses on commit drop as
      select row_number() over () as n, s as status_id
      from unnest(array[1,2,3,4,4,4,5,6,7,7,7,8,8,9,10,11,13,16,19,20,20,21,22,23,24,25,28,28]) s`);
    await tx.execute(sql`
      insert into donations (organization_id, donor_id, company_id, company_name, amount_cents,
                             matched_cents, donated_at, transaction_id, status_id, custom)
      select d.organization_id, d.id,
             case when g % 11 = 0 then null else c.id end,
             case when g % 11 = 0 then 'Employer ' || (g % 997) else c.name end,
             amount, amount, ts, 'bench-' || g, s.status_id,
             case when g % 5 = 0 then jsonb_build_object('campaign', 'Spring ' || (g % 4)) else '{}'::jsonb end
      from (
        select g,
               -- Gift sizes: mostly small, a long tail of large ones.
               (500 + (g * 7919) % 20000 + case when g % 50 = 0 then 250000 else 0 end)::int as amount,
               now() - ((g * 104729) % (3 * 365 * 86400)) * interval '1 second' as ts,
               1 + (g * 31) % (select count(*) from bench_donors) as donor_n,
               1 + (g * 17) % (select count(*) from bench_companies) as company_n,
               1 + (g * 13) % (select count(*) from bench_statuses) as status_n
        from generate_series(1::bigint, ${matches}) g
      ) x
      join bench_donors d on d.n = x.donor_n
      join bench_companies c on c.n = x.company_n
      join bench_statuses s on s.n = x.status_n`);
  });
  step(`inserted ${matches} matches`);
}

/** The hosted service's shape (see the top of the file). */
async function hosted() {
  const orgTotal = Number(values.organizations ?? Math.max(10, Math.round(matches / 1000)));
  const large = Number(values.large);
  if (!Number.isSafeInteger(orgTotal) || !Number.isSafeInteger(large) || large < 1 || large >= orgTotal)
    throw new Error('--organizations must be a whole number above --large');
  await db.execute(sql`
    insert into organizations (name, type, ein, complete, is_premium, needed)
    select case when g <= ${large} then 'Scale Large Nonprofit ' || g else 'Scale Nonprofit ' || g end,
           'non-profit', lpad((20000000 + g)::text, 9, '0'), true, 'true', '[]'::jsonb
    from generate_series(1, ${orgTotal}) g`);
  await db.execute(sql`
    create table bench_scale_orgs as
    select row_number() over (order by id) as n, id from organizations where name like 'Scale %'`);
  await db.execute(sql`
    create table bench_scale_companies as
    select row_number() over (order by id) as n, id, name from companies`);
  step(`inserted ${orgTotal} organizations (${large} large)`);
  // A bulk load: the secondary indexes of the two big tables are built once at the end (sorted,
  // in parallel workers) rather than kept up row by row, which at ten million rows is most of the
  // time. Only indexes no constraint owns: the primary keys stay (the foreign keys need them).
  const indexes = await queryRows<{ name: string; def: string }>(
    db,
    sql`select i.indexname as name, i.indexdef as def from pg_indexes i
        where i.schemaname = 'public' and i.tablename in ('donors', 'donations')
          and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
  );
  for (const index of indexes) await db.execute(sql.raw(`drop index ${index.name}`));
  step(`dropped ${indexes.length} secondary indexes for the load`);
  // Donor d gives matches 3d, 3d+1, 3d+2, all to its organization: 30% of donors (d % 10 < 3)
  // belong to the large organizations, the rest spread over the small ones.
  const orgOf = (d: SQL) => sql`case when ${d} % 10 < 3 then 1 + ${d} % ${large}
      else ${large} + 1 + (${d} * 7919) % ${orgTotal - large} end`;
  const donorTotal = Math.ceil(matches / 3);
  const chunk = 1_000_000;
  for (let from = 0; from < donorTotal; from += chunk) {
    const to = Math.min(donorTotal, from + chunk) - 1;
    await db.execute(sql`
      insert into donors (id, organization_id, name, email)
      select 100000000 + d, o.id,
             (array['Ava','Ben','Chloe','Diego','Emma','Farah','Gus','Hana','Ivan','Jade','Kofi','Lena','Mateo','Nia','Omar','Priya'])[1 + d % 16]
               || ' ' ||
             (array['Smith','Garcia','Chen','Okafor','Novak','Patel','Kim','Rossi','Dubois','Silva','Haddad','Berg'])[1 + (d / 16) % 12]
               || ' ' || d,
             'donor' || d || '@scale.example.org'
      from generate_series(${from}::bigint, ${to}::bigint) d
      join bench_scale_orgs o on o.n = ${orgOf(sql`d`)}`);
  }
  step(`inserted ${donorTotal} donors`);
  for (let from = 0; from < matches; from += chunk) {
    const to = Math.min(matches, from + chunk) - 1;
    await db.execute(sql`
      insert into donations (organization_id, donor_id, company_id, company_name, amount_cents,
                             matched_cents, donated_at, transaction_id, status_id, custom)
      select o.id, 100000000 + g / 3,
             case when g % 11 = 0 then null else c.id end,
             case when g % 11 = 0 then 'Employer ' || (g % 997) else c.name end,
             amount, amount, ts, 'scale-' || g,
             (array[1,2,3,4,4,4,5,6,7,7,7,8,8,9,10,11,13,16,19,20,20,21,22,23,24,25,28,28])[1 + (g * 13) % 28],
             case when g % 5 = 0 then jsonb_build_object('campaign', 'Spring ' || (g % 4)) else '{}'::jsonb end
      from (
        select g,
               (500 + (g * 7919) % 20000 + case when g % 50 = 0 then 250000 else 0 end)::int as amount,
               now() - ((g * 104729) % (3 * 365 * 86400)) * interval '1 second' as ts,
               1 + (g * 17) % (select count(*) from bench_scale_companies) as company_n
        from generate_series(${from}::bigint, ${to}::bigint) g
      ) x
      join bench_scale_orgs o on o.n = ${orgOf(sql`(g / 3)`)}
      join bench_scale_companies c on c.n = x.company_n`);
    step(`inserted ${to + 1} matches`);
  }
  await db.execute(sql`select setval(pg_get_serial_sequence('donors', 'id'), (select max(id) from donors))`);
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local maintenance_work_mem = '1GB'`);
    await tx.execute(sql`set local max_parallel_maintenance_workers = 2`);
    for (const index of indexes) await tx.execute(sql.raw(index.def));
  });
  step(`built ${indexes.length} secondary indexes`);
  await db.execute(sql`drop table bench_scale_orgs`);
  await db.execute(sql`drop table bench_scale_companies`);
}
