/**
 * What a Prometheus scrape costs the database (issue #26), on PostgreSQL (a fresh database,
 * twofold_bench_metrics). The queue gauges are one statement run at every scrape
 * (server/observability/metrics.ts, queueStates); this fills the queues the way a busy hosted
 * service's tables look (a long history of sent mail and delivered webhooks, a backlog of due
 * items, retries waiting, given-up items) and prints the statement's time, p50 and p95, and its
 * plan's buffers, so it can be seen to follow the backlog and not the history.
 *
 *   npm run bench:metrics -- [--sent 1000000] [--due 10000] [--later 100000] [--scrapes 30]
 */
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase } from '../server/db/client.ts';
import { queryRows } from '../server/db/rows.ts';
import { seedDemo } from '../server/db/seed.ts';
import { queueStates } from '../server/observability/metrics.ts';
import { benchDatabaseUrl, ms, percentile, serverUrl } from './shared.ts';

const { values } = parseArgs({
  options: {
    sent: { type: 'string', default: '1000000' },
    due: { type: 'string', default: '10000' },
    later: { type: 'string', default: '100000' },
    scrapes: { type: 'string', default: '30' },
  },
});
const sent = Number(values.sent);
const due = Number(values.due);
const later = Number(values.later);
const scrapes = Number(values.scrapes);
const name = 'twofold_bench_metrics';

const admin = new pg.Client({ connectionString: `${serverUrl()}/postgres` });
await admin.connect();
await admin.query(`drop database if exists ${name} with (force)`);
await admin.query(`create database ${name}`);
await admin.end();
const database = await openDatabase({ databaseUrl: benchDatabaseUrl(name) });
await database.migrate();
await seedDemo(database.db);
const db = database.db;

const filled = performance.now();
// The outbox: its history (sent), the due backlog, retries and leases in the future, given up.
await db.execute(sql`
  insert into outbox ("to", subject, html, text, status, next_attempt_at, sent_at, created_at)
  select 'donor' || g || '@example.org', 'Subject', '<p>mail</p>', 'mail',
         case when g <= ${sent} then 'sent'
              when g <= ${sent + due} then 'pending'
              when g <= ${sent + due + later} then 'pending'
              else 'failed' end,
         case when g <= ${sent} then now() - interval '30 days'
              when g <= ${sent + due} then now() - (g % 600) * interval '1 second'
              else now() + (1 + g % 3600) * interval '1 second' end,
         case when g <= ${sent} then now() - interval '30 days' end,
         now() - interval '30 days'
    from generate_series(1, ${sent + due + later + 100}) g`);
// Webhooks: a history of deliveries a tenth of the mail's, the same shape of backlog.
await db.execute(sql`insert into webhooks (organization_id, url, event, token, secret)
  select id, 'example.org/hook', 'status', 't', 's' from organizations limit 1`);
await db.execute(sql`
  insert into webhook_deliveries (webhook_id, donation_id, event, message_id, payload, status, next_attempt_at, give_up_at, delivered_at)
  select (select min(id) from webhooks), g, 'status', 'msg_' || g, '{}'::jsonb,
         case when g <= ${sent / 10} then 'delivered' when g <= ${sent / 10 + due / 10} then 'pending' else 'pending' end,
         case when g <= ${sent / 10} then now() - interval '30 days'
              when g <= ${sent / 10 + due / 10} then now() - (g % 600) * interval '1 second'
              else now() + interval '10 minutes' end,
         now() + interval '1 day',
         case when g <= ${sent / 10} then now() - interval '30 days' end
    from generate_series(1, ${sent / 10 + due / 10 + later / 10}) g`);
// Scheduled reminders: a day's worth due, the next weeks' waiting.
await db.execute(sql`
  insert into scheduled_jobs (kind, key, run_at)
  select 'reminder', 'bench-' || g,
         case when g <= ${due} then now() - (g % 600) * interval '1 second' else now() + (1 + g % 30) * interval '1 day' end
    from generate_series(1, ${due + later}) g`);
await db.execute(sql`analyze`);
console.log(
  `Filled in ${((performance.now() - filled) / 1000).toFixed(1)} s: outbox ${sent.toLocaleString('en')} sent, ${due.toLocaleString('en')} due, ${later.toLocaleString('en')} later, 100 failed; webhook deliveries and scheduled jobs alike (webhooks a tenth).`,
);

const states = await queueStates(db);
for (const s of states)
  console.log(
    `  ${s.queue.padEnd(20)} depth ${String(s.due).padStart(7)}  oldest due ${s.oldestDueAgeSeconds.toFixed(0).padStart(5)} s  failed ${s.failed ?? '-'}`,
  );

const times: number[] = [];
for (let i = 0; i < scrapes; i += 1) {
  const started = performance.now();
  await queueStates(db);
  times.push(performance.now() - started);
}
console.log(
  `Queue gauges per scrape (${scrapes} scrapes): p50 ${ms(percentile(times, 50))}, p95 ${ms(percentile(times, 95))}`,
);

// The mail branch's plan: index-only reads of the due rows, not the history.
const plan = await queryRows<{ 'QUERY PLAN': string }>(
  db,
  sql`explain (analyze, buffers, costs off) select count(*), min(next_attempt_at) from outbox
       where status = 'pending' and next_attempt_at <= now()`,
);
console.log('Plan of the mail branch:');
for (const row of plan) console.log(`  ${row['QUERY PLAN']}`);
await database.close();
