import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../app.ts';
import { outbox } from '../db/schema.ts';
import { seedDemo } from '../db/seed.ts';
import { memoryLogger } from '../http/logger.ts';
import type { MailMessage } from '../mail/templates.ts';
import type { MailTransport } from '../mail/transport.ts';
import { call } from '../test-helpers.ts';
import { createTestContext, createTestDatabase, type TestContext, testConfig } from '../testing.ts';
import { createMailWorker } from './mail-worker.ts';
import { enqueueMail } from './outbox.ts';

function recordingTransport(failures = 0): MailTransport & { sent: MailMessage[]; calls: number } {
  const transport = {
    kind: 'smtp' as const,
    sent: [] as MailMessage[],
    calls: 0,
    send: async (message: MailMessage) => {
      transport.calls++;
      if (transport.calls <= failures) throw new Error('connect ECONNREFUSED 127.0.0.1:25');
      transport.sent.push(message);
    },
  };
  return transport;
}

const message = (to: string): MailMessage => ({ to, subject: 'Hello', html: '<p>Hello</p>', text: 'Hello' });

describe('a crash between writing a mail and sending it', () => {
  it('loses nothing: after a restart the worker delivers it, once', async () => {
    const testDatabase = await createTestDatabase({ persistent: true });
    try {
      // First life: the request writes the token and its mail, then the process dies unsent.
      const first = await testDatabase.open();
      await first.migrate();
      await seedDemo(first.db);
      const { app } = createApp({ config: testConfig({ logRequests: false }), db: first.db });
      const res = await call(app, 'POST', '/api/auth/forgot', { body: { email: 'reader@twofold.test' } });
      expect(res.status).toBe(200);
      await first.close();

      // Second life: a fresh worker on the reopened database.
      const second = await testDatabase.open();
      const transport = recordingTransport();
      const worker = createMailWorker({ db: second.db, transport, logger: memoryLogger() });
      expect(await worker.runOnce()).toBe(1);
      expect(await worker.runOnce()).toBe(0);
      expect(transport.sent).toHaveLength(1);
      expect(transport.sent[0]?.to).toBe('reader@twofold.test');
      expect(transport.sent[0]?.text).toContain('http://portal.test/portal/reset-password?token=');
      const [row] = await second.db.select().from(outbox);
      expect(row?.status).toBe('sent');
      expect(row?.sent_at).toBeInstanceOf(Date);
      await second.close();
    } finally {
      await testDatabase.drop();
    }
  });
});

describe('the mail worker', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  const clear = () => t.db.delete(outbox);
  const makeDue = () => t.db.update(outbox).set({ next_attempt_at: sql`now() - interval '1 second'` });

  it('retries a failed delivery later, with a growing delay, then delivers', async () => {
    await clear();
    await enqueueMail(t.db, message('retry@example.org'));
    const transport = recordingTransport(2);
    const logger = memoryLogger();
    const worker = createMailWorker({ db: t.db, transport, logger, retryBaseMs: 60_000 });

    expect(await worker.runOnce()).toBe(1);
    let [row] = await t.db.select().from(outbox);
    expect(row).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_error: 'connect ECONNREFUSED 127.0.0.1:25',
    });
    const firstDelay = (row?.next_attempt_at.getTime() ?? 0) - Date.now();
    expect(firstDelay).toBeGreaterThan(50_000);
    expect(firstDelay).toBeLessThanOrEqual(60_000);
    // Not due yet: nothing is attempted.
    expect(await worker.runOnce()).toBe(0);

    await makeDue();
    await worker.runOnce();
    [row] = await t.db.select().from(outbox);
    const secondDelay = (row?.next_attempt_at.getTime() ?? 0) - Date.now();
    expect(secondDelay).toBeGreaterThan(110_000);
    expect(secondDelay).toBeLessThanOrEqual(120_000);

    await makeDue();
    await worker.runOnce();
    [row] = await t.db.select().from(outbox);
    expect(row).toMatchObject({ status: 'sent', attempts: 3, last_error: null });
    expect(transport.sent.map((m) => m.to)).toEqual(['retry@example.org']);
    expect(logger.lines.join('\n')).not.toContain('retry@example.org');
  });

  it('gives up after the last attempt and marks the mail failed', async () => {
    await clear();
    await enqueueMail(t.db, message('never@example.org'));
    const worker = createMailWorker({
      db: t.db,
      transport: recordingTransport(99),
      logger: memoryLogger(),
      maxAttempts: 3,
    });
    for (let i = 0; i < 3; i++) {
      await makeDue();
      await worker.runOnce();
    }
    const [row] = await t.db.select().from(outbox);
    expect(row).toMatchObject({ status: 'failed', attempts: 3 });
    await makeDue();
    expect(await worker.runOnce()).toBe(0);
  });

  it('never sends a message twice when two workers run at once', async () => {
    await clear();
    for (let i = 0; i < 8; i++) await enqueueMail(t.db, message(`person${i}@example.org`));
    const transport = recordingTransport();
    const a = createMailWorker({ db: t.db, transport, logger: memoryLogger(), batchSize: 3 });
    const b = createMailWorker({ db: t.db, transport, logger: memoryLogger(), batchSize: 3 });
    while ((await Promise.all([a.runOnce(), b.runOnce()])).some((n) => n > 0)) {}
    expect(transport.sent.map((m) => m.to).sort()).toEqual(
      Array.from({ length: 8 }, (_, i) => `person${i}@example.org`).sort(),
    );
    const pending = await t.db.select().from(outbox).where(eq(outbox.status, 'pending'));
    expect(pending).toEqual([]);
  });

  it('delivers on its own once started, and stops cleanly', async () => {
    await clear();
    const transport = recordingTransport();
    const worker = createMailWorker({ db: t.db, transport, logger: memoryLogger(), pollMs: 20 });
    worker.start();
    await enqueueMail(t.db, message('polled@example.org'));
    await vi.waitFor(() => expect(transport.sent.map((m) => m.to)).toEqual(['polled@example.org']), {
      timeout: 5000,
    });
    await worker.stop();
    await enqueueMail(t.db, message('after-stop@example.org'));
    const [late] = await t.db.select().from(outbox).where(eq(outbox.to, 'after-stop@example.org'));
    expect(late?.status).toBe('pending');
  });
});
