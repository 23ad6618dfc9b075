import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { routes as apiRoutes } from './app.ts';
import type { Database } from './db/client.ts';
import { outbox } from './db/schema.ts';
import { memoryLogger } from './http/logger.ts';
import { defineRoute } from './http/route.ts';
import { enqueueMail } from './jobs/outbox.ts';
import type { MailTransport } from './mail/transport.ts';
import { startServer } from './serve.ts';
import { createTestDatabase, type TestDatabase, testConfig } from './testing.ts';

/** A promise and the function that settles it. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

const dropped: TestDatabase[] = [];
afterAll(async () => {
  for (const d of dropped) await d.drop();
});

async function migrated(): Promise<Database> {
  const testDatabase = await createTestDatabase();
  dropped.push(testDatabase);
  const database = await testDatabase.open();
  await database.migrate();
  return database;
}

describe('graceful shutdown', () => {
  it('turns unready at once, takes no new connection, and finishes the request and the mail round in progress', async () => {
    const database = await migrated();
    const request = gate();
    const requestStarted = gate();
    const mail = gate();
    const mailStarted = gate();
    const slow = defineRoute({
      method: 'get',
      path: '/api/test/slow',
      access: 'anonymous',
      summary: 'test: answers when the test lets it',
      handler: async () => {
        requestStarted.open();
        await request.opened;
        return { finished: true };
      },
    });
    const sent: string[] = [];
    const transport: MailTransport = {
      kind: 'smtp',
      send: async (message) => {
        mailStarted.open();
        await mail.opened;
        sent.push(message.to);
      },
    };
    // The shutdown closes the database last; the test keeps it open to read what was recorded.
    let closed = false;
    const running = await startServer({
      config: testConfig({
        port: 0,
        host: '127.0.0.1',
        logRequests: false,
        mail: { pollMs: 20, leaseMs: 60_000, concurrency: 4 },
      }),
      database: {
        ...database,
        close: async () => {
          closed = true;
        },
      },
      logger: memoryLogger(),
      transport,
      app: { routes: [...apiRoutes, slow] },
    });
    const base = `http://127.0.0.1:${running.port}`;
    expect((await fetch(`${base}/api/health/ready`)).status).toBe(200);

    const [message] = await database.db.transaction(async (tx) => [
      await enqueueMail(tx, { to: 'donor@example.org', subject: 'Hello', html: '<p>Hi</p>', text: 'Hi' }),
    ]);
    const inFlight = fetch(`${base}/api/test/slow`);
    await requestStarted.opened;
    await mailStarted.opened;

    let done = false;
    const stopping = running.shutdown().then((result) => {
      done = true;
      return result;
    });
    // Unready at once; the process is still alive; no new connection is accepted.
    expect(running.lifecycle.draining).toBe(true);
    const ready = await running.app.request('/api/health/ready');
    expect(ready.status).toBe(503);
    expect((await running.app.request('/api/health/live')).status).toBe(200);
    await expect(fetch(`${base}/api/health/live`)).rejects.toThrow();

    // Still waiting for the request and the mail round.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(done).toBe(false);
    request.open();
    const answered = await inFlight;
    expect(answered.status).toBe(200);
    expect(await answered.json()).toEqual({ finished: true });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(done).toBe(false);
    // The round finishes: the message is delivered and recorded before the database closes.
    mail.open();
    expect(await stopping).toEqual({ forced: false });
    expect(sent).toEqual(['donor@example.org']);
    expect(closed).toBe(true);
    const [row] = await database.db
      .select()
      .from(outbox)
      .where(eq(outbox.id, message ?? 0));
    expect(row?.status).toBe('sent');
    await database.close();
  });

  it('gives up on a request that never ends after the timeout, and says it was forced', async () => {
    const database = await migrated();
    const started = gate();
    const stuck = defineRoute({
      method: 'get',
      path: '/api/test/stuck',
      access: 'anonymous',
      summary: 'test: never answers',
      handler: async () => {
        started.open();
        await new Promise(() => {});
        return {};
      },
    });
    const logger = memoryLogger();
    const running = await startServer({
      config: testConfig({ port: 0, host: '127.0.0.1', logRequests: false }),
      database,
      logger,
      timeoutMs: 300,
      app: { routes: [...apiRoutes, stuck] },
    });
    const hanging = fetch(`http://127.0.0.1:${running.port}/api/test/stuck`).then(
      () => 'answered',
      () => 'cut',
    );
    await started.opened;
    expect(await running.shutdown()).toEqual({ forced: true });
    expect(await hanging).toBe('cut');
    expect(logger.lines.join('\n')).toContain('shutdown: still busy after 300 ms');
  });
});
