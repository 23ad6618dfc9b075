/**
 * Several server processes on one PostgreSQL: two real `server/main.ts` processes share a fresh
 * database and an SMTP sink. Work goes through both, one is killed with SIGKILL mid-way (several
 * trials), and afterwards every outbox message is delivered, none lost, none delivered twice
 * except a message whose sending process died between the SMTP server's acceptance and recording
 * it (delivery is at least once; its Message-ID is the same on the retry, so the receiving side
 * recognises it), bills are issued once, and a rate limit holds across the processes.
 *
 * PostgreSQL only (TEST_DB=postgres, as CI runs the server project): PGlite is one process's
 * embedded database and cannot be shared.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './db/client.ts';
import { bills, outbox } from './db/schema.ts';
import { demoUsers, seedDemo } from './db/seed.ts';
import { demoOrganizationIds } from './test-helpers.ts';
import { createTestDatabase, type TestDatabase, testDb } from './testing.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const trials = 5;
/** Messages a process sends at once (MAIL_CONCURRENCY): what one kill can leave sent but unrecorded. */
const mailConcurrency = 4;
const requestsPerTrial = 24;
const perIpLimit = 10;
// About 30 s on an idle 2-core machine; the timeout leaves room for a CI run of the whole server
// project beside it (process starts are what a busy machine slows down).

/** A minimal SMTP server that accepts everything and records each message's Message-ID. */
function smtpSink(delayMs: number) {
  const received: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buffer = '';
    let inData = false;
    let message = '';
    const reply = (line: string) => {
      if (!socket.destroyed) socket.write(`${line}\r\n`);
    };
    reply('220 sink ESMTP');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          message += buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          const id = /^message-id:\s*(<[^>]+>)/im.exec(message)?.[1] ?? '(none)';
          message = '';
          // Accepting takes a moment, so a kill can land between acceptance and the sender's record.
          setTimeout(() => {
            received.push(id);
            reply('250 queued');
          }, delayMs);
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') reply('250 sink');
        else if (verb === 'DATA') {
          inData = true;
          reply('354 go ahead');
        } else if (verb === 'QUIT') {
          reply('221 bye');
          socket.end();
        } else reply('250 ok');
      }
    });
  });
  return {
    received,
    listen: () =>
      new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve(portOf(server)))),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function portOf(server: Server): number {
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  return address.port;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = portOf(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

type Proc = { child: ChildProcess; port: number; output: string[]; exited: Promise<void> };

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.skipIf(testDb !== 'postgres')(
  'two server processes on one PostgreSQL (TEST_DB=postgres only: PGlite is one process’s embedded database)',
  () => {
    let testDatabase: TestDatabase;
    let database: Database;
    const sink = smtpSink(15);
    let smtpPort = 0;
    const dataDir = mkdtempSync(path.join(tmpdir(), 'twofold-multi-'));
    const all: Proc[] = [];

    function start(): Proc {
      const output: string[] = [];
      const port = ports.shift() ?? 0;
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server', 'main.ts')], {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          DATABASE_URL: testDatabase.url,
          PORT: String(port),
          HOST: '127.0.0.1',
          PUBLIC_URL: `http://127.0.0.1:${port}`,
          DATA_DIR: dataDir,
          JWT_SECRET: 'multi-process-test-secret-long-enough-for-hs256',
          SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
          SEED_DEMO: 'true',
          LOG_REQUESTS: 'false',
          TRUST_PROXY: 'loopback',
          RATE_LIMIT_PER_IP: String(perIpLimit),
          RATE_LIMIT_PER_EMAIL: '100000',
          MAIL_POLL_MS: '100',
          MAIL_LEASE_MS: '5000',
          MAIL_CONCURRENCY: String(mailConcurrency),
        },
      });
      child.stdout?.on('data', (d: Buffer) => output.push(d.toString('utf8')));
      child.stderr?.on('data', (d: Buffer) => output.push(d.toString('utf8')));
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      const proc = { child, port, output, exited };
      all.push(proc);
      return proc;
    }

    const ports: number[] = [];
    const ready = (p: Proc) =>
      waitFor(
        async () => (await fetch(`http://127.0.0.1:${p.port}/api/health/ready`)).status === 200,
        `process on ${p.port} to be ready (output: ${p.output.join('').slice(-500)})`,
        40_000,
      );

    beforeAll(async () => {
      testDatabase = await createTestDatabase();
      database = await testDatabase.open();
      await database.migrate();
      await seedDemo(database.db);
      smtpPort = await sink.listen();
      for (let i = 0; i < trials + 2; i++) ports.push(await freePort());
    }, 60_000);

    afterAll(async () => {
      for (const p of all)
        if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
      await Promise.all(all.map((p) => p.exited));
      await sink.close();
      await database?.close();
      await testDatabase?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }, 30_000);

    it('does every piece of work exactly once while processes are killed mid-way', async () => {
      const { hopeHarbor } = await demoOrganizationIds(database.db);
      // Twelve finished months' bills: both processes' issuers start together; one issues them.
      await database.db.insert(bills).values(
        Array.from({ length: 12 }, (_, m) => ({
          organization_id: hopeHarbor,
          plan: 'elig_5',
          period_start: new Date(Date.UTC(2020, m, 1)),
          period_end: new Date(Date.UTC(2020, m + 1, 1)),
        })),
      );

      const procs = [start(), start()];
      await Promise.all(procs.map(ready));

      // A rate limit holds across processes: one address, alternating between them.
      const limited: number[] = [];
      for (let i = 0; i < perIpLimit + 4; i++) {
        const p = procs[i % 2] as Proc;
        const res = await fetch(`http://127.0.0.1:${p.port}/api/auth/forgot`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.77' },
          body: JSON.stringify({ email: `nobody${i}@example.org` }),
        });
        limited.push(res.status);
      }
      expect(limited).toEqual([...Array(perIpLimit).fill(200), ...Array(4).fill(429)]);

      let answered = 0;
      let cut = 0;
      let sent = 0;
      const killedAt: number[] = [];
      for (let trial = 0; trial < trials; trial++) {
        const victim = trial % 2;
        const deliveredBefore = sink.received.length;
        // The process that takes the victim's place starts now (a third process on the database for
        // a while), so its start overlaps the trial; it runs the bill issuer at its start too.
        const standby = start();
        const send = (i: number) => {
          const p = procs[i % 2] as Proc;
          const user = demoUsers[i % demoUsers.length];
          sent++;
          return fetch(`http://127.0.0.1:${p.port}/api/auth/otp`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'x-forwarded-for': `203.0.113.${trial * requestsPerTrial + i + 1}`,
            },
            body: JSON.stringify({ email: user?.email }),
          }).then(
            (r) => r.status,
            () => 0,
          );
        };
        const half = requestsPerTrial / 2;
        const requests = Array.from({ length: half }, (_, i) => send(i));
        // Once this trial's mail is going out, a second wave, and the kill while it is arriving:
        // the victim dies mid-round and mid-request.
        await waitFor(async () => sink.received.length >= deliveredBefore + 3, 'mail to go out', 20_000);
        requests.push(...Array.from({ length: half }, (_, i) => send(half + i)));
        await new Promise((resolve) => setTimeout(resolve, 5));
        const dead = procs[victim] as Proc;
        dead.child.kill('SIGKILL');
        await dead.exited;
        killedAt.push(sink.received.length - deliveredBefore);
        const statuses = await Promise.all(requests);
        answered += statuses.filter((s) => s === 200).length;
        cut += statuses.filter((s) => s === 0).length;
        expect(statuses.every((s) => s === 200 || s === 0)).toBe(true);
        procs[victim] = standby;
        await ready(standby);
      }

      // Messages claimed by a killed process wait out their lease, then a live process sends them.
      await waitFor(
        async () =>
          (await database.db.select({ id: outbox.id }).from(outbox).where(eq(outbox.status, 'pending')))
            .length === 0,
        'the outbox to drain',
        30_000,
      );
      const rows = await database.db
        .select({
          id: outbox.id,
          status: outbox.status,
          attempts: outbox.attempts,
          created_at: outbox.created_at,
        })
        .from(outbox);
      const deliveries = new Map<string, number>();
      for (const id of sink.received) deliveries.set(id, (deliveries.get(id) ?? 0) + 1);
      const idOf = (r: (typeof rows)[number]) => `<outbox-${r.id}-${r.created_at.getTime()}@twofold.test>`;

      const lost = rows.filter((r) => !deliveries.has(idOf(r)));
      const twice = rows.filter((r) => (deliveries.get(idOf(r)) ?? 0) > 1);
      const unknown = [...deliveries.keys()].filter((id) => !rows.some((r) => idOf(r) === id));
      console.info(
        `two-process test: ${trials} SIGKILL trials (mail out at each kill: ${killedAt.join(', ')}), ` +
          `${sent} magic-link requests, ${answered} answered 200, ${cut} cut by a kill, ${rows.length} outbox messages, ` +
          `${sink.received.length} SMTP deliveries; lost ${lost.length}, delivered twice ${twice.length} ` +
          `(sender killed after the SMTP server accepted), rate limit: ${limited.filter((s) => s === 429).length} of ${limited.length} refused`,
      );

      // Nothing lost: every request answered 200 wrote its message, and every message went out.
      expect(rows.length).toBeGreaterThanOrEqual(answered);
      expect(rows.length).toBeLessThanOrEqual(sent);
      expect(rows.every((r) => r.status === 'sent')).toBe(true);
      expect(lost).toEqual([]);
      expect(unknown).toEqual([]);
      // Twice only for a message a killed process had claimed (so it was claimed again), and at
      // most as many per kill as it sends at once (the SMTP server had accepted them, the kill
      // came before they were marked sent): a live process never sends what another one is sending.
      expect(twice.every((r) => r.attempts >= 2)).toBe(true);
      expect(twice.length).toBeLessThanOrEqual(trials * mailConcurrency);
      expect([...deliveries.values()].every((n) => n <= 2)).toBe(true);

      // Bills: every finished month issued, and by one process only (the issued counts add up).
      const finished = sql`${bills.period_end} <= now()`;
      const unissued = await database.db
        .select({ id: bills.id })
        .from(bills)
        .where(and(isNull(bills.issued_at), finished));
      expect(unissued).toEqual([]);
      const logged = all
        .flatMap((p) => [...p.output.join('').matchAll(/bills issued: (\d+)/g)])
        .reduce((sum, m) => sum + Number(m[1]), 0);
      const [count] = await database.db.select({ n: sql<number>`count(*)::int` }).from(bills).where(finished);
      expect(logged).toBe(count?.n);
    }, 240_000);
  },
);
