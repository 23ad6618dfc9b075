import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/rows.ts';
import { seedDemo } from '../../db/seed.ts';
import { memoryLogger } from '../../http/logger.ts';
import { createScheduler } from '../../jobs/scheduler.ts';
import { demoOrganizationIds, readyForMatching } from '../../test-helpers.ts';
import { createTestDatabase, testConfig } from '../../testing.ts';
import { mailParts } from './donor-mail.ts';
import { workflowBatchHandlers, workflowHandlers } from './workflow.ts';

const now = new Date('2026-03-09T09:00:00Z');
const weekAgo = new Date(now.getTime() - 7 * 86_400_000);
const links = testConfig();

/**
 * `count` open matches at 7 (Donor to Submit in Company Portal) whose initial email went out a
 * week ago, each with its 1st reminder due now, and (with `variety`) the cases a reminder round
 * must tell apart: a donor who confirmed, one who unsubscribed, a silenced match, a match that
 * moved on, an initial email without a template version, two reminders of one match due
 * together, a 2nd reminder, and a match emailed an hour ago. Returns the number of jobs.
 */
async function plantReminders(db: Db, count: number, variety: boolean) {
  const { hopeHarbor: org } = await demoOrganizationIds(db);
  await readyForMatching(db, [org]);
  const [company] = await queryRows<{ id: number }>(
    db,
    sql`insert into companies (name, match_method, csr_vendor) values ('Reminder Batch Co', 'csr', 'Benevity') returning id`,
  );
  const [template] = await queryRows<{ id: number }>(
    db,
    sql`insert into email_templates (organization_id, status_id, version, live) values (${org}, 7, 0, true)
        on conflict do nothing returning id`,
  );
  const templateId =
    template?.id ??
    (
      await queryRows<{ id: number }>(
        db,
        sql`select id from email_templates where organization_id = ${org} and status_id = 7 and version = 0`,
      )
    )[0]?.id;
  await db.execute(sql`
    with d as (
      insert into donors (organization_id, name, email)
      select ${org}, 'Donor ' || g, 'donor' || g || '@reminders.test' from generate_series(1, ${count}::int) g
      returning id)
    insert into donations (organization_id, donor_id, company_id, amount_cents, donated_at, status_id)
    select ${org}, d.id, ${company?.id}::int, 10000 + d.id, ${weekAgo.toISOString()}::timestamptz - interval '1 day', 7
    from d order by d.id`);
  await db.execute(sql`
    insert into donation_notifications (donation_id, organization_id, status_id, to_email, subject, html, text,
      open_token_hash, template_id, stage, kind, created_at)
    select dn.id, ${org}, 7, r.email, 'Initial', '', '', 'planted-' || dn.id, ${templateId}::int, 1, 'initial',
      ${weekAgo.toISOString()}::timestamptz
    from donations dn join donors r on r.id = dn.donor_id
    where r.email like '%@reminders.test' order by dn.id`);
  await db.execute(sql`
    insert into scheduled_jobs (kind, key, donation_id, organization_id, payload, run_at)
    select 'reminder', 'reminder:' || n.donation_id || ':7:' || n.id, n.donation_id, ${org},
      jsonb_build_object('notification_id', n.id, 'initial_id', n.id, 'stage', 2), ${now.toISOString()}::timestamptz
    from donation_notifications n where n.open_token_hash like 'planted-%' order by n.id`);
  if (!variety) return count;
  const donor = (i: number) => sql`(select dn.id from donations dn join donors r on r.id = dn.donor_id
    where r.email = ${`donor${i}@reminders.test`})`;
  await db.execute(
    sql`update donation_notifications set confirm_clicked_at = ${new Date(weekAgo.getTime() + 3_600_000).toISOString()}::timestamptz where donation_id = ${donor(1)}`,
  );
  await db.execute(
    sql`insert into email_unsubscribes (organization_id, email, created_at) values (${org}, 'donor2@reminders.test', now())`,
  );
  await db.execute(sql`update donations set silenced = true where id = ${donor(3)}`);
  await db.execute(sql`update donations set status_id = 8 where id = ${donor(4)}`);
  await db.execute(sql`update donation_notifications set template_id = null where donation_id = ${donor(5)}`);
  await db.execute(sql`
    insert into scheduled_jobs (kind, key, donation_id, organization_id, payload, run_at)
    select 'reminder', 'reminder:again:' || n.donation_id, n.donation_id, ${org},
      jsonb_build_object('notification_id', n.id, 'initial_id', n.id, 'stage', 3), ${now.toISOString()}::timestamptz
    from donation_notifications n where n.donation_id = ${donor(6)}`);
  await db.execute(
    sql`update scheduled_jobs set payload = jsonb_set(payload, '{stage}', '3') where donation_id = ${donor(8)}`,
  );
  await db.execute(sql`
    insert into donation_notifications (donation_id, organization_id, status_id, to_email, subject, html, text,
      open_token_hash, template_id, stage, kind, created_at)
    select ${donor(9)}, ${org}, 7, 'donor9@reminders.test', 'Recent', '', '', 'recent-9', null, 1, 'link',
      ${new Date(now.getTime() - 3_600_000).toISOString()}::timestamptz`);
  // A webhook listening for reminder_sent: each reminder sent queues a delivery.
  await db.execute(
    sql`insert into webhooks (organization_id, url, secret, event) values (${org}, 'hooks.example.org/reminders', 'whsec_test', 'reminder_sent')`,
  );
  return count + 1;
}

/** What a reminder round leaves behind, without what only says how it ran (leases, attempts). */
type Row = Record<string, unknown>;
async function outcome(db: Db) {
  return {
    outbox: await queryRows<Row>(
      db,
      sql`select id, "to", subject, html, text, headers, reply_to, created_at from outbox order by id`,
    ),
    notifications: await queryRows<Row>(
      db,
      sql`select id, donation_id, organization_id, status_id, to_email, subject, html, text, outbox_id, queued,
            open_token_hash, template_id, stage, kind, created_at from donation_notifications order by id`,
    ),
    jobs: await queryRows<Row>(
      db,
      sql`select id, kind, key, donation_id, payload, run_at, status, done_at from scheduled_jobs order by id`,
    ),
    deliveries: await queryRows<Row>(
      db,
      sql`select webhook_id, donation_id, event, payload - 'data' as meta, payload -> 'data' -> 'donation' as donation
          from webhook_deliveries order by id`,
    ),
  };
}

function scheduler(db: Db, batched: boolean, batchJobs = 7, batchLanes = 2) {
  return createScheduler({
    db,
    clock: manualClock(now),
    logger: memoryLogger(),
    handlers: workflowHandlers(links),
    ...(batched ? { batchHandlers: workflowBatchHandlers(links), batchJobs, batchLanes } : {}),
  });
}

/**
 * An outcome without its row ids, in a stable order: what two lanes side by side must leave (their
 * batches take ids in whichever order they commit, and the ids are in the signed links).
 */
async function outcomeWithoutIds(db: Db) {
  const sorted = (rows: Row[]) => rows.map((r) => JSON.stringify(r)).sort();
  return {
    outbox: sorted(await queryRows<Row>(db, sql`select "to", subject, reply_to from outbox`)),
    notifications: sorted(
      await queryRows<Row>(
        db,
        sql`select n.donation_id, n.status_id, n.to_email, n.subject, n.template_id, n.stage, n.kind,
              n.queued, (o.id is not null) as sent
            from donation_notifications n left join outbox o on o.id = n.outbox_id`,
      ),
    ),
    jobs: sorted(
      await queryRows<Row>(
        db,
        sql`select kind, donation_id, payload -> 'stage' as stage, run_at, status from scheduled_jobs`,
      ),
    ),
    deliveries: sorted(
      await queryRows<Row>(db, sql`select webhook_id, donation_id, event from webhook_deliveries`),
    ),
  };
}

async function freshDatabase() {
  const testDatabase = await createTestDatabase();
  const database = await testDatabase.open();
  await database.migrate();
  if (testDatabase.kind === 'postgres') await seedDemo(database.db);
  return {
    db: database.db,
    close: async () => {
      await database.close();
      await testDatabase.drop();
    },
  };
}

describe('the day’s reminders in batches', () => {
  it('write the same emails, notifications, follow-up jobs and webhook events as one job at a time', async () => {
    const one = await freshDatabase();
    const batched = await freshDatabase();
    const lanes = await freshDatabase();
    try {
      const jobs = await plantReminders(one.db, 30, true);
      await plantReminders(batched.db, 30, true);
      await plantReminders(lanes.db, 30, true);
      expect(await scheduler(one.db, false).runDue()).toBe(jobs);
      // Batches of 7: the variety spreads over several batches, and the tail is a short one; each
      // batch's emails are stored in parts of 3 (an import's 4,000 in parts of 500). One lane, so
      // the rows take their ids in the same order as one job at a time; then two lanes (what the
      // server runs), whose batches take ids in whichever order they commit.
      mailParts.rows = 3;
      try {
        expect(await scheduler(batched.db, true, 7, 1).runDue()).toBe(jobs);
        expect(await scheduler(lanes.db, true, 7, 2).runDue()).toBe(jobs);
      } finally {
        mailParts.rows = 500;
      }
      expect(await outcomeWithoutIds(lanes.db)).toEqual(await outcomeWithoutIds(one.db));
      const expected = await outcome(one.db);
      const got = await outcome(batched.db);
      // What the round is expected to have done (so equal outcomes are not two empty ones): 30
      // matches less the confirmed, unsubscribed, silenced and moved-on ones and the one emailed
      // an hour ago get a reminder; the match with two reminders due gets one, the other waits a day.
      expect(expected.outbox).toHaveLength(30 - 5);
      expect(expected.outbox.every((m) => /^(Reminder|Last chance)/.test(String(m.subject)))).toBe(true);
      // Held back a day (not the next steps, planned a week ahead): the second reminder of one match,
      // and the match emailed an hour ago.
      const heldBack = expected.jobs.filter(
        (j) =>
          j.status === 'pending' && new Date(j.run_at as string).getTime() < now.getTime() + 2 * 86_400_000,
      );
      expect(heldBack).toHaveLength(2);
      expect(expected.deliveries).toHaveLength(30 - 5);
      expect(got).toEqual(expected);
    } finally {
      await one.close();
      await batched.close();
      await lanes.close();
    }
  }, 120_000);

  it('a round killed in the middle resumes, and no match is reminded twice', async () => {
    const testDatabase = await createTestDatabase({ persistent: true });
    try {
      const first = await testDatabase.open();
      await first.migrate();
      await seedDemo(first.db);
      const jobs = await plantReminders(first.db, 60, false);
      await first.close();

      // A child process runs the round in batches of 10 and is killed inside its 3rd batch's
      // transaction (emails rendered and inserted, not committed).
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          path.join(path.dirname(fileURLToPath(import.meta.url)), 'reminder-round-child.ts'),
          testDatabase.url ?? testDatabase.dir ?? '',
          now.toISOString(),
          '10',
          '2',
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let output = '';
      const killed = new Promise<NodeJS.Signals | null>((resolve) =>
        child.on('exit', (_code, signal) => resolve(signal)),
      );
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('hanging')) resolve();
        });
        child.on('exit', () => reject(new Error(`the round ended before it was killed: ${output}`)));
      });
      child.kill('SIGKILL');
      expect(await killed).toBe('SIGKILL');

      const second = await testDatabase.open();
      try {
        const countRows = async () =>
          (
            await queryRows<{ n: number }>(
              second.db,
              sql`select count(*)::int as n from outbox where subject like 'Reminder:%'`,
            )
          )[0]?.n;
        // Two whole batches were committed; the third died with its process.
        expect(await countRows()).toBe(20);
        expect(await scheduler(second.db, true, 10).runDue()).toBe(jobs - 20);
        const perMatch = await queryRows<{ donation_id: number; n: number }>(
          second.db,
          sql`select n.donation_id, count(o.id)::int as n from donation_notifications n
              left join outbox o on o.id = n.outbox_id
              where n.kind = 'reminder' group by n.donation_id`,
        );
        expect(perMatch).toHaveLength(jobs);
        expect(perMatch.every((r) => r.n === 1)).toBe(true);
        expect(await countRows()).toBe(jobs);
        const [pending] = await queryRows<{ n: number }>(
          second.db,
          sql`select count(*)::int as n from scheduled_jobs where kind = 'reminder' and status = 'pending'
                and run_at <= ${now.toISOString()}::timestamptz`,
        );
        expect(pending?.n).toBe(0);
      } finally {
        await second.close();
      }
    } finally {
      await testDatabase.drop();
    }
  }, 180_000);
});
