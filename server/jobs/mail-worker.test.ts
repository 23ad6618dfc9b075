import type { AddressInfo } from 'node:net';
import { asc, eq, sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../app.ts';
import { outbox } from '../db/schema.ts';
import { seedDemo } from '../db/seed.ts';
import { memoryLogger } from '../http/logger.ts';
import type { MailMessage } from '../mail/templates.ts';
import { type MailTransport, smtpTransport } from '../mail/transport.ts';
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

  it('in lanes, never more than `concurrency` messages claimed and unrecorded at once, and each sent once', async () => {
    await clear();
    for (let i = 0; i < 7; i++) await enqueueMail(t.db, message(`lane${i}@example.org`));
    const inFlight: (() => void)[] = [];
    const sent: string[] = [];
    const held: MailTransport = {
      kind: 'smtp',
      send: (mail) =>
        new Promise<void>((resolve) =>
          inFlight.push(() => {
            sent.push(mail.to);
            resolve();
          }),
        ),
    };
    const worker = createMailWorker({ db: t.db, transport: held, logger: memoryLogger(), concurrency: 3 });
    const round = worker.runOnce();
    await vi.waitFor(() => expect(inFlight).toHaveLength(3));
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Three lanes, three sends waiting: the other four not even claimed (a crash now leaves three in doubt).
    expect(inFlight).toHaveLength(3);
    const claimed = await t.db.select().from(outbox).where(eq(outbox.attempts, 1));
    expect(claimed).toHaveLength(3);
    // Answered one by one, each lane takes the next.
    while (sent.length < 7) {
      await vi.waitFor(() => expect(inFlight.length).toBeGreaterThan(0));
      inFlight.shift()?.();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(await round).toBe(7);
    expect(sent.sort()).toEqual(Array.from({ length: 7 }, (_, i) => `lane${i}@example.org`).sort());
    const rowsAfter = await t.db.select().from(outbox);
    expect(rowsAfter.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
  });

  it('never sends a message twice when a slow round outlasts the lease and a second worker runs meanwhile', async () => {
    await clear();
    for (let i = 0; i < 3; i++) await enqueueMail(t.db, message(`slow${i}@example.org`));
    const sent: string[] = [];
    // Each send takes 2 s against a 3 s lease: a round of three outlasts a lease taken at its start.
    const slow: MailTransport = {
      kind: 'smtp',
      send: async (mail) => {
        await new Promise((resolve) => setTimeout(resolve, 2000));
        sent.push(mail.to);
      },
    };
    const a = createMailWorker({ db: t.db, transport: slow, logger: memoryLogger(), leaseMs: 3000 });
    const b = createMailWorker({ db: t.db, transport: slow, logger: memoryLogger(), leaseMs: 3000 });
    const roundA = a.runOnce();
    await new Promise((resolve) => setTimeout(resolve, 3400));
    await Promise.all([roundA, b.runOnce()]);
    expect(sent.sort()).toEqual(['slow0@example.org', 'slow1@example.org', 'slow2@example.org']);
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

describe('delivery over SMTP (a real SMTP server in-process)', () => {
  let t: TestContext;
  let server: SMTPServer;
  let smtpUrl = '';
  /** Each message as the SMTP server received it (headers and body). */
  let received: string[] = [];
  /** When set, the server takes a message's data and never answers it (a stalled server). */
  let stall = false;
  /** Connections the server has accepted. */
  let connections = 0;
  beforeAll(async () => {
    t = await createTestContext();
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      disableReverseLookup: true,
      logger: false,
      onConnect(_session, callback) {
        connections++;
        callback();
      },
      onData(stream, _session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          if (stall) return;
          received.push(Buffer.concat(chunks).toString('utf8'));
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    smtpUrl = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await t.close();
  });

  const from = 'Twofold <noreply@twofold.test>';
  const header = (raw: string, name: string) => new RegExp(`^${name}: *(.*)$`, 'im').exec(raw)?.[1]?.trim();
  const rows = () => t.db.select().from(outbox).orderBy(asc(outbox.id));
  /** What the Message-ID of an outbox row must be: made from its id and creation time. */
  const expectedId = (row: { id: number; created_at: Date }) =>
    `<outbox-${row.id}-${row.created_at.getTime()}@twofold.test>`;

  it('a retry after a send whose answer was lost carries the same Message-ID, made from the outbox row', async () => {
    await t.db.delete(outbox);
    received = [];
    await enqueueMail(t.db, message('twice@example.org'));
    await enqueueMail(t.db, message('other@example.org'));
    const smtp = smtpTransport(smtpUrl, from);
    let calls = 0;
    // The server accepts the first message, but the worker never learns it (the reply is lost).
    const lossy: MailTransport = {
      kind: 'smtp',
      send: async (mail, ref) => {
        calls++;
        await smtp.send(mail, ref);
        if (calls === 1) throw new Error('Connection closed before the 250 reply');
      },
    };
    const worker = createMailWorker({ db: t.db, transport: lossy, logger: memoryLogger() });
    expect(await worker.runOnce()).toBe(2);
    await t.db.update(outbox).set({ next_attempt_at: sql`now() - interval '1 second'` });
    expect(await worker.runOnce()).toBe(1);
    smtp.close?.();

    const [twice, other] = await rows();
    expect(twice).toMatchObject({ status: 'sent', attempts: 2 });
    expect(other).toMatchObject({ status: 'sent', attempts: 1 });
    const ids = received.map((raw) => [header(raw, 'To'), header(raw, 'Message-ID')]);
    expect(ids).toEqual([
      ['twice@example.org', expectedId(twice as NonNullable<typeof twice>)],
      ['other@example.org', expectedId(other as NonNullable<typeof other>)],
      ['twice@example.org', expectedId(twice as NonNullable<typeof twice>)],
    ]);
    expect(expectedId(twice as NonNullable<typeof twice>)).not.toBe(
      expectedId(other as NonNullable<typeof other>),
    );
  });

  it('a kill right after the SMTP server accepted the 3rd message of a round leaves the 2 before it marked sent, the rest untouched and due, and only the 3rd sent twice, recognisably', async () => {
    await t.db.delete(outbox);
    received = [];
    for (let i = 0; i < 5; i++) await enqueueMail(t.db, message(`kill${i}@example.org`));
    const smtp = smtpTransport(smtpUrl, from);
    let calls = 0;
    // The process dies after the 3rd message is accepted: nothing after that send runs.
    const dying: MailTransport = {
      kind: 'smtp',
      send: async (mail, ref) => {
        calls++;
        await smtp.send(mail, ref);
        if (calls === 3) await new Promise(() => {});
      },
    };
    const first = createMailWorker({ db: t.db, transport: dying, logger: memoryLogger(), batchSize: 10 });
    void first.runOnce();
    await vi.waitFor(() => expect(received).toHaveLength(3), { timeout: 10_000 });
    // Let the first worker run on as far as it can: it is stuck in the 3rd send for good.
    await new Promise((resolve) => setTimeout(resolve, 200));

    const atKill = await rows();
    expect(atKill.map((r) => [r.to, r.status, r.attempts])).toEqual([
      ['kill0@example.org', 'sent', 1],
      ['kill1@example.org', 'sent', 1],
      ['kill2@example.org', 'pending', 1],
      ['kill3@example.org', 'pending', 0],
      ['kill4@example.org', 'pending', 0],
    ]);
    // Only the message in flight waits for its lease; the others are due at once.
    expect(atKill[2]?.next_attempt_at.getTime()).toBeGreaterThan(Date.now() + 60_000);
    for (const r of atKill.slice(3)) expect(r.next_attempt_at.getTime()).toBeLessThanOrEqual(Date.now());

    // The restarted process sends the rest now, and the one in doubt when its lease is over.
    const second = createMailWorker({ db: t.db, transport: smtp, logger: memoryLogger() });
    expect(await second.runOnce()).toBe(2);
    await t.db
      .update(outbox)
      .set({ next_attempt_at: sql`now() - interval '1 second'` })
      .where(eq(outbox.status, 'pending'));
    expect(await second.runOnce()).toBe(1);
    smtp.close?.();

    const after = await rows();
    expect(after.every((r) => r.status === 'sent')).toBe(true);
    const deliveries = received.map((raw) => header(raw, 'Message-ID'));
    expect(deliveries).toHaveLength(6);
    for (const row of after)
      expect(
        deliveries.filter((id) => id === expectedId(row)),
        row.to,
      ).toHaveLength(row.to === 'kill2@example.org' ? 2 : 1);
  });

  it('sends in lanes over kept-open connections: 24 messages, 4 at once, over 4 connections, each once', async () => {
    await t.db.delete(outbox);
    received = [];
    for (let i = 0; i < 24; i++) await enqueueMail(t.db, message(`pooled${i}@example.org`));
    const before = connections;
    const smtp = smtpTransport(smtpUrl, from, 60_000, undefined, 4);
    const worker = createMailWorker({ db: t.db, transport: smtp, logger: memoryLogger(), concurrency: 4 });
    while ((await worker.runOnce()) > 0) {}
    smtp.close?.();
    const after = await rows();
    expect(after.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
    expect(received.map((raw) => header(raw, 'To')).sort()).toEqual(
      Array.from({ length: 24 }, (_, i) => `pooled${i}@example.org`).sort(),
    );
    expect(new Set(received.map((raw) => header(raw, 'Message-ID'))).size).toBe(24);
    // Not a connection per message (24 before pooling): the four lanes' four.
    expect(connections - before).toBeLessThanOrEqual(4);
    expect(connections - before).toBeGreaterThanOrEqual(1);
  });

  it('a send to a stalled server gives up by itself, its waits bounded by the lease, and is retried later', async () => {
    await t.db.delete(outbox);
    received = [];
    stall = true;
    try {
      await enqueueMail(t.db, message('stalled@example.org'));
      const leaseMs = 8000;
      const smtp = smtpTransport(smtpUrl, from, leaseMs);
      const worker = createMailWorker({ db: t.db, transport: smtp, logger: memoryLogger(), leaseMs });
      // nodemailer's own 10 minutes of silence would hold the round (and outlast the lease).
      expect(await worker.runOnce()).toBe(1);
      smtp.close?.();
      const [row] = await rows();
      expect(row).toMatchObject({ status: 'pending', attempts: 1 });
      expect(row?.last_error).toMatch(/timeout/i);
    } finally {
      stall = false;
    }
  }, 30_000);
});
