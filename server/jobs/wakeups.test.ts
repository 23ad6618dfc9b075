import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { queryRows } from '../db/rows.ts';
import { donations, outbox, scheduledJobs, webhooks } from '../db/schema.ts';
import { memoryLogger } from '../http/logger.ts';
import type { MailMessage } from '../mail/templates.ts';
import type { MailTransport } from '../mail/transport.ts';
import * as webhookEvents from '../modules/integrations/webhook-events.ts';
import { newSigningSecret } from '../modules/integrations/webhooks.service.ts';
import { demoOrganizationIds } from '../test-helpers.ts';
import { createTestContext, type TestContext, testDb } from '../testing.ts';
import { createMailWorker } from './mail-worker.ts';
import { enqueueMail } from './outbox.ts';
import { postgresWakeups, wakeChannels } from './wakeups.ts';
import { createWebhookWorker } from './webhook-worker.ts';

/**
 * Every worker here polls once a minute, far beyond the test's timeout: a delivery that arrives
 * can only have been started by a wake-up (or, in the fallback tests, by a short poll).
 */
const never = 60_000;

function recordingTransport(): MailTransport & { sent: MailMessage[] } {
  const transport = {
    kind: 'smtp' as const,
    sent: [] as MailMessage[],
    send: async (message: MailMessage) => {
      transport.sent.push(message);
    },
  };
  return transport;
}

const message = (to: string): MailMessage => ({ to, subject: 'Wake', html: '<p>Wake</p>', text: 'Wake' });

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

describe('waking the workers when work is committed', () => {
  it('delivers a committed mail at once although the worker polls once a minute', async () => {
    const transport = recordingTransport();
    const worker = createMailWorker({ db: t.db, transport, logger: memoryLogger(), pollMs: never });
    worker.start();
    const stop = t.database.wakeups.subscribe(wakeChannels.mail, worker.wake);
    try {
      await t.database.wakeups.ready();
      await t.db.transaction((tx) => enqueueMail(tx, message('woken@example.org')));
      await vi.waitFor(() => expect(transport.sent.map((m) => m.to)).toEqual(['woken@example.org']), {
        timeout: 10_000,
      });
      // A second one, while the first round may just be ending: woken again.
      await enqueueMail(t.db, message('again@example.org'));
      await vi.waitFor(() => expect(transport.sent).toHaveLength(2), { timeout: 10_000 });
    } finally {
      stop();
      await worker.stop();
    }
  });

  it('notifies only on commit: a rolled-back enqueue wakes nobody, a committed one after it does', async () => {
    const heard: string[] = [];
    const stops = [
      t.database.wakeups.subscribe(wakeChannels.mail, () => heard.push('mail')),
      t.database.wakeups.subscribe(wakeChannels.webhooks, () => heard.push('webhooks')),
    ];
    try {
      await t.database.wakeups.ready();
      heard.length = 0;
      await t.db
        .transaction(async (tx) => {
          await enqueueMail(tx, message('rolled-back@example.org'));
          throw new Error('roll back');
        })
        .catch(() => undefined);
      // Notifications arrive in commit order: once the webhook channel's wake-up (committed after
      // the rollback) is heard, a mail wake-up from the rolled-back transaction would have been too.
      await t.db.execute(sql`select pg_notify(${wakeChannels.webhooks}, '')`);
      await vi.waitFor(() => expect(heard).toContain('webhooks'), { timeout: 10_000 });
      expect(heard).not.toContain('mail');
      await enqueueMail(t.db, message('committed@example.org'));
      await vi.waitFor(() => expect(heard).toContain('mail'), { timeout: 10_000 });
    } finally {
      for (const stop of stops) stop();
    }
  });

  it('wakes the scheduler for a job due now, not for one planned days ahead', async () => {
    const heard: string[] = [];
    const stops = [
      t.database.wakeups.subscribe(wakeChannels.jobs, () => heard.push('jobs')),
      t.database.wakeups.subscribe(wakeChannels.webhooks, () => heard.push('webhooks')),
    ];
    try {
      await t.database.wakeups.ready();
      heard.length = 0;
      await t.db.insert(scheduledJobs).values({
        kind: 'digest',
        key: 'wake-test:later',
        payload: {},
        run_at: new Date(Date.now() + 3 * 86_400_000),
      });
      await t.db.execute(sql`select pg_notify(${wakeChannels.webhooks}, '')`);
      await vi.waitFor(() => expect(heard).toContain('webhooks'), { timeout: 10_000 });
      expect(heard).not.toContain('jobs');
      await t.db
        .insert(scheduledJobs)
        .values({ kind: 'digest', key: 'wake-test:now', payload: {}, run_at: new Date(Date.now() - 1000) });
      await vi.waitFor(() => expect(heard).toContain('jobs'), { timeout: 10_000 });
    } finally {
      for (const stop of stops) stop();
      await t.db.delete(scheduledJobs).where(sql`${scheduledJobs.key} like 'wake-test:%'`);
    }
  });

  describe('a webhook delivery', () => {
    let receiver: Server;
    const arrived: number[] = [];
    beforeAll(async () => {
      receiver = createServer((req, res) => {
        let body = '';
        req.on('data', (chunk) => {
          body += chunk;
        });
        req.on('end', () => {
          arrived.push((JSON.parse(body) as { data: { donation: { id: number } } }).data.donation.id);
          res.writeHead(200).end('ok');
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    });
    afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

    it('goes out as soon as the status change commits, not at the next poll', async () => {
      const { hopeHarbor: hope } = await demoOrganizationIds(t.db);
      const port = (receiver.address() as AddressInfo).port;
      const [hook] = await t.db
        .insert(webhooks)
        .values({ organization_id: hope, url: `127.0.0.1:${port}/hook`, secret: newSigningSecret() })
        .returning();
      const [match] = await t.db
        .insert(donations)
        .values({ organization_id: hope, amount_cents: 5000, donated_at: new Date(), status_id: 23 })
        .returning({ id: donations.id });
      if (!hook || !match) throw new Error('setup failed');
      const worker = createWebhookWorker({
        db: t.db,
        logger: memoryLogger(),
        outbound: { allowPrivate: true },
        secret: t.config.jwtSecret,
        pollMs: never,
      });
      worker.start();
      const stop = t.database.wakeups.subscribe(wakeChannels.webhooks, worker.wake);
      try {
        await t.database.wakeups.ready();
        await t.db.transaction(async (tx) => {
          await tx.update(donations).set({ status_id: 4 }).where(eq(donations.id, match.id));
          await webhookEvents.statusChanged(tx, [match.id]);
        });
        await vi.waitFor(() => expect(arrived).toEqual([match.id]), { timeout: 10_000 });
      } finally {
        stop();
        await worker.stop();
        await t.db.delete(webhooks).where(eq(webhooks.id, hook.id));
      }
    });
  });
});

describe('when the listener is lost', () => {
  it('polling still delivers (no wake-up needed)', async () => {
    await t.db.delete(outbox);
    const transport = recordingTransport();
    // No subscription at all: the poll alone finds the mail.
    const worker = createMailWorker({ db: t.db, transport, logger: memoryLogger(), pollMs: 100 });
    worker.start();
    try {
      await enqueueMail(t.db, message('polled@example.org'));
      await vi.waitFor(() => expect(transport.sent.map((m) => m.to)).toEqual(['polled@example.org']), {
        timeout: 10_000,
      });
    } finally {
      await worker.stop();
    }
  });

  /** The test's own listener connections go by this name (the server's own is left alone). */
  const listenerName = 'twofold-wakeups-under-test';

  /** Ends the listener's backend, as a PostgreSQL restart or failover would. */
  async function killListener(url: string) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ killed: boolean }>(
        `select pg_terminate_backend(pid) as killed from pg_stat_activity
          where application_name = $1 and datname = current_database()`,
        [listenerName],
      );
      return rows.length;
    } finally {
      await admin.end();
    }
  }

  it.runIf(testDb === 'postgres')(
    'the worker falls back to polling while the listener is down, and wakes again once it is back',
    async () => {
      // This test file's own database, on the server DATABASE_URL names.
      const [row] = await queryRows<{ db: string }>(t.db, sql`select current_database() as db`);
      const target = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
      target.pathname = `/${row?.db}`;
      await t.db.delete(outbox);
      const drops: unknown[] = [];
      // Its own listener, so the test chooses how long it stays away after a drop.
      const wakeups = postgresWakeups({
        connectionString: target.toString(),
        retryMinMs: never,
        applicationName: listenerName,
        onDrop: (error) => drops.push(error),
      });
      const transport = recordingTransport();
      const worker = createMailWorker({ db: t.db, transport, logger: memoryLogger(), pollMs: 200 });
      const stop = wakeups.subscribe(wakeChannels.mail, worker.wake);
      try {
        await wakeups.ready();
        worker.start();
        expect(await killListener(target.toString())).toBe(1);
        await vi.waitFor(() => expect(drops).toHaveLength(1), { timeout: 10_000 });
        // The listener stays away (a minute): the poll delivers.
        await enqueueMail(t.db, message('while-down@example.org'));
        await vi.waitFor(() => expect(transport.sent.map((m) => m.to)).toContain('while-down@example.org'), {
          timeout: 10_000,
        });
      } finally {
        stop();
        await worker.stop();
        await wakeups.close();
      }

      // Reconnecting: a listener that comes back quickly wakes a worker that polls once a minute,
      // first for what was committed while it was away, then for new work.
      const back = postgresWakeups({
        connectionString: target.toString(),
        retryMinMs: 50,
        applicationName: listenerName,
      });
      const slow = recordingTransport();
      const sleeper = createMailWorker({ db: t.db, transport: slow, logger: memoryLogger(), pollMs: never });
      const stopBack = back.subscribe(wakeChannels.mail, sleeper.wake);
      try {
        await back.ready();
        sleeper.start();
        expect(await killListener(target.toString())).toBe(1);
        await enqueueMail(t.db, message('during-gap@example.org'));
        await vi.waitFor(() => expect(slow.sent.map((m) => m.to)).toContain('during-gap@example.org'), {
          timeout: 10_000,
        });
        await back.ready();
        await enqueueMail(t.db, message('after-reconnect@example.org'));
        await vi.waitFor(() => expect(slow.sent.map((m) => m.to)).toContain('after-reconnect@example.org'), {
          timeout: 10_000,
        });
      } finally {
        stopBack();
        await sleeper.stop();
        await back.close();
      }
    },
  );
});
