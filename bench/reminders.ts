/**
 * The day's reminders, on PostgreSQL: N open matches (default 100,000) at 7 Donor to Submit in
 * Company Portal whose initial email went out a week ago, each with its 1st reminder due, spread
 * over `--organizations` nonprofits (default 1,000, each with its own template; 1 = Hope Harbor
 * alone). One
 * scheduler round (what a server process runs: reminders in batches, issue #26) writes them all
 * into the outbox; it prints the time, reminders per second and the SQL statements per email,
 * beside the figure of one job at a time before issue #26. The database twofold_bench_reminders
 * is made afresh. Sending the outbox to SMTP is the mail worker's, at the transport's rate.
 *
 *   npx tsx bench/reminders.ts [--matches 100000] [--organizations 1000] [--batch 1000] [--one-at-a-time]
 */
import { parseArgs } from 'node:util';
import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { manualClock } from '../server/clock.ts';
import { type Db, migrationsFolder } from '../server/db/client.ts';
import * as schema from '../server/db/schema.ts';
import { seedDemo } from '../server/db/seed.ts';
import { memoryLogger } from '../server/http/logger.ts';
import { createScheduler } from '../server/jobs/scheduler.ts';
import { workflowBatchHandlers, workflowHandlers } from '../server/modules/templates/workflow.ts';
import { benchDatabaseUrl, ms } from './shared.ts';

const { values } = parseArgs({
  options: {
    matches: { type: 'string', default: '100000' },
    batch: { type: 'string', default: '1000' },
    organizations: { type: 'string', default: '1000' },
    /** The round as before issue #26, one job at a time (to compare on the same machine and load). */
    'one-at-a-time': { type: 'boolean', default: false },
  },
});
const matches = Number(values.matches);
const name = 'twofold_bench_reminders';

const admin = new pg.Client({ connectionString: benchDatabaseUrl('postgres') });
await admin.connect();
await admin.query(`drop database if exists ${name} with (force)`);
await admin.query(`create database ${name}`);
await admin.end();

const pool = new pg.Pool({ connectionString: benchDatabaseUrl(name), max: 10 });
let statements = 0;
const db = drizzle(pool, {
  schema,
  logger: {
    logQuery: () => {
      statements += 1;
    },
  },
}) as unknown as Db;
await migrate(db as unknown as Parameters<typeof migrate>[0], { migrationsFolder });
await seedDemo(db);

const now = new Date('2026-03-09T09:00:00Z');
const weekAgo = new Date(now.getTime() - 7 * 24 * 3600 * 1000);
const [org] = await db
  .select({ id: schema.organizations.id })
  .from(schema.organizations)
  .where(eq(schema.organizations.name, 'Hope Harbor Foundation'));
if (!org) throw new Error('the demo seed has no Hope Harbor Foundation');
const [company] = await db
  .insert(schema.companies)
  .values({ name: 'Bench Portal Co', match_method: 'csr', csr_vendor: 'Benevity' })
  .returning();
const orgCount = Math.max(1, Number(values.organizations));
// Hope Harbor and orgCount - 1 copies of it (its settings, its own name and EIN).
if (orgCount > 1)
  await db.execute(sql`
    insert into organizations (name, type, ein, complete, is_premium, needed)
    select 'Reminder Nonprofit ' || g, type, lpad((30000000 + g)::text, 9, '0'), complete, is_premium, needed
    from organizations, generate_series(1, ${orgCount - 1}) g where id = ${org.id}`);
await db.execute(sql`
  create temporary table bench_orgs as
  select row_number() over (order by id) - 1 as n, id from organizations
  where id = ${org.id} or name like 'Reminder Nonprofit %'`);
await db.execute(sql`
  insert into email_templates (organization_id, status_id, version, live)
  select id, 7, 0, true from bench_orgs`);
await db.execute(sql`
  create temporary table bench_templates as
  select o.n, o.id as organization_id, t.id as template_id from bench_orgs o
  join email_templates t on t.organization_id = o.id and t.status_id = 7 and t.live`);
// Match g belongs to organization g % orgCount.

const fill = performance.now();
await db.execute(sql`
  insert into donors (id, organization_id, name, email)
  select g, o.organization_id, 'Donor ' || g, 'donor' || g || '@bench.example'
  from generate_series(1, ${matches}::int) g join bench_templates o on o.n = g % ${orgCount}`);
await db.execute(sql`select setval(pg_get_serial_sequence('donors', 'id'), ${matches}::int)`);
await db.execute(sql`
  insert into donations (id, organization_id, donor_id, company_id, amount_cents, donated_at, status_id)
  select g, o.organization_id, g, ${company?.id}::int, 10000, ${weekAgo.toISOString()}::timestamptz - interval '1 day', 7
  from generate_series(1, ${matches}::int) g join bench_templates o on o.n = g % ${orgCount}`);
await db.execute(sql`select setval(pg_get_serial_sequence('donations', 'id'), ${matches}::int)`);
await db.execute(sql`
  insert into donation_notifications (id, donation_id, organization_id, status_id, to_email, subject, html, text,
    open_token_hash, template_id, stage, kind, created_at)
  select g, g, o.organization_id, 7, 'donor' || g || '@bench.example', 'Initial', '', '', 'bench-' || g, o.template_id, 1,
    'initial', ${weekAgo.toISOString()}::timestamptz
  from generate_series(1, ${matches}::int) g join bench_templates o on o.n = g % ${orgCount}`);
await db.execute(sql`select setval(pg_get_serial_sequence('donation_notifications', 'id'), ${matches}::int)`);
await db.execute(sql`
  insert into scheduled_jobs (kind, key, donation_id, organization_id, payload, run_at)
  select 'reminder', 'reminder:' || g || ':7:' || g, g, o.organization_id,
    jsonb_build_object('notification_id', g, 'initial_id', g, 'stage', 2), ${now.toISOString()}::timestamptz
  from generate_series(1, ${matches}::int) g join bench_templates o on o.n = g % ${orgCount}`);
await db.execute(sql`analyze`);
console.log(
  `${matches} open matches with a reminder due, across ${orgCount} organizations (filled in ${ms(performance.now() - fill)})`,
);

const links = {
  publicUrl: 'http://portal.bench',
  supportEmail: 'support@twofold.test',
  jwtSecret: 'bench-secret-that-is-long-enough-for-hs256-signing',
};
const scheduler = createScheduler({
  db,
  clock: manualClock(now),
  logger: memoryLogger(),
  handlers: workflowHandlers(links),
  ...(values['one-at-a-time']
    ? {}
    : { batchHandlers: workflowBatchHandlers(links), batchJobs: Number(values.batch) }),
});
statements = 0;
const started = performance.now();
const ran = await scheduler.runDue();
const elapsed = performance.now() - started;
const [sent] = (
  await pool.query<{ n: string }>(`select count(*) as n from outbox where subject like 'Reminder:%'`)
).rows;
console.log(
  values['one-at-a-time'] ? 'one job at a time (as before issue #26)' : `in batches of ${values.batch}`,
);
const [orgsSent] = (
  await pool.query<{ n: string }>(
    `select count(distinct organization_id) as n from outbox where subject like 'Reminder:%'`,
  )
).rows;
console.log(`reminders in the outbox: ${sent?.n}, from ${orgsSent?.n} organizations (jobs run: ${ran})`);
console.log(
  `time: ${ms(elapsed)}; ${((ran / elapsed) * 1000).toFixed(0)} emails/s; ${ms(elapsed / ran)} per email`,
);
console.log(`SQL statements: ${statements}; ${(statements / ran).toFixed(2)} per email`);
console.log('before issue #26 (one job at a time): 82 emails/s, 18 SQL statements per email');
await pool.end();
