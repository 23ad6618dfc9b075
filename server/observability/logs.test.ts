import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import type { Database } from '../db/client.ts';
import { companies, outbox, webhookDeliveries } from '../db/schema.ts';
import { demoOrganizationNames, seedDemo } from '../db/seed.ts';
import { createLogger } from '../http/logger.ts';
import { type AnyRoute, defineRoute } from '../http/route.ts';
import { afterCommitSettled } from '../jobs/after-commit.ts';
import { createMailWorker } from '../jobs/mail-worker.ts';
import { createWebhookWorker } from '../jobs/webhook-worker.ts';
import { transportFor } from '../mail/transport.ts';
import { routes } from '../routes.ts';
import { call, demoOrganizationIds, lastMailTo, linkIn, readyForMatching, signIn } from '../test-helpers.ts';
import { createTestDatabase, type TestDatabase, testConfig } from '../testing.ts';

/**
 * The log as an operator reads it: JSON lines from pino, each request's lines and the lines of the
 * jobs it caused carrying its X-Request-Id, and no password, token, key or donor address anywhere.
 * The app, the mail worker (over a real SMTP server) and the webhook worker (to a real local
 * receiver) all write into one captured log.
 */

type Line = Record<string, unknown> & { msg: string; level: string };
const written: string[] = [];
const logger = createLogger({ format: 'json', write: (line) => written.push(line) });
const hopeName = demoOrganizationNames.hopeHarbor;
const lines = (): Line[] => written.map((l) => JSON.parse(l) as Line);

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A route that fails (as a bug would), to see the error line carry the request's id. */
const failing = defineRoute({
  method: 'get',
  path: '/api/test/fails',
  access: 'anonymous',
  summary: 'fails',
  handler: async ({ deps }) => {
    deps.logger.info('about to fail');
    throw new Error('this route always fails');
  },
});

let testDatabase: TestDatabase;
let database: Database;
let app: ReturnType<typeof createApp>['app'];
let untrusting: ReturnType<typeof createApp>['app'];
let smtp: SMTPServer;
let smtpUrl = '';
/** Recipients the SMTP server refuses, quoting the address back (as real servers do). */
const refused = new Set<string>();
let receiver: Server;
let receiverPort = 0;
let received: string[] = [];

beforeAll(async () => {
  testDatabase = await createTestDatabase();
  database = await testDatabase.open();
  await database.migrate();
  await seedDemo(database.db);
  // The employer of the matches below: its donors are emailed (status Donor to Send Mail).
  await database.db.insert(companies).values({ name: 'Logline Mail Co', match_method: 'mail' });
  const config = testConfig({ trustProxy: ['loopback'], webhookAllowPrivate: true });
  app = createApp({ config, db: database.db, logger, routes: [...routes, failing as AnyRoute] }).app;
  untrusting = createApp({ config: testConfig({ trustProxy: false }), db: database.db, logger }).app;
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    disableReverseLookup: true,
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refused.has(address.address))
        return callback(
          Object.assign(new Error(`<${address.address}>: mailbox unavailable`), { responseCode: 550 }),
        );
      callback();
    },
    onData(stream, _session, callback) {
      stream.on('data', () => {});
      stream.on('end', () => callback());
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push(body);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverPort = (receiver.address() as AddressInfo).port;
});

afterAll(async () => {
  await afterCommitSettled(database.db);
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  await database.close();
  await testDatabase.drop();
});

const mailWorker = () =>
  createMailWorker({
    db: database.db,
    logger,
    transport: transportFor({
      smtpUrl,
      mailFrom: 'Twofold <no-reply@twofold.test>',
      mail: { leaseMs: 60_000 },
    }),
    retryBaseMs: 1000,
  });
const webhookWorker = () =>
  createWebhookWorker({
    db: database.db,
    logger,
    outbound: { allowPrivate: true, timeoutMs: 5000 },
    secret: testConfig().jwtSecret,
  });

/** Sends everything due: mail over SMTP, webhooks to the receiver. */
async function runWorkers() {
  await afterCommitSettled(database.db);
  const mail = mailWorker();
  while ((await mail.runOnce()) > 0) {}
  const hooks = webhookWorker();
  while ((await hooks.runOnce()) > 0) {}
}

describe('request ids', () => {
  it('every response carries X-Request-Id, also a 404, a refused host and a 500', async () => {
    const live = await call(app, 'GET', '/api/health/live');
    const missing = await call(app, 'GET', '/api/no-such-thing');
    const misdirected = await call(app, 'GET', '/api/health/live', { headers: { host: 'evil.example' } });
    const failed = await call(app, 'GET', '/api/test/fails');
    expect([live.status, missing.status, misdirected.status, failed.status]).toEqual([200, 404, 421, 500]);
    const ids = [live, missing, misdirected, failed].map((r) => r.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(uuid);
    expect(new Set(ids).size).toBe(4);
  });

  it("repeats a trusted proxy's well-formed id, and replaces a malformed one or an untrusted peer's", async () => {
    const fromProxy = await call(app, 'GET', '/api/health/live', {
      headers: { 'x-request-id': 'nginx-5f2b9c0e71d4' },
    });
    expect(fromProxy.headers.get('x-request-id')).toBe('nginx-5f2b9c0e71d4');
    const malformed = await call(app, 'GET', '/api/health/live', {
      headers: { 'x-request-id': 'two words<script>' },
    });
    expect(malformed.headers.get('x-request-id')).toMatch(uuid);
    const tooLong = await call(app, 'GET', '/api/health/live', {
      headers: { 'x-request-id': 'a'.repeat(129) },
    });
    expect(tooLong.headers.get('x-request-id')).toMatch(uuid);
    // TRUST_PROXY=false: whoever sends the header is the client, who does not choose our ids.
    const untrusted = await call(untrusting, 'GET', '/api/health/live', {
      headers: { 'x-request-id': 'nginx-5f2b9c0e71d4' },
    });
    expect(untrusted.headers.get('x-request-id')).toMatch(uuid);
  });

  it('every line written while a request is handled carries its id: the request line, a handler line, the error', async () => {
    written.length = 0;
    const failed = await call(app, 'GET', '/api/test/fails', {
      headers: { 'x-request-id': 'req-failing-1' },
    });
    expect(failed.status).toBe(500);
    const mine = lines().filter((l) => l.request_id === 'req-failing-1');
    expect(mine.map((l) => l.msg)).toEqual([
      'about to fail',
      'GET /api/test/fails failed',
      expect.stringMatching(/^GET \/api\/test\/fails 500 \d+ms$/),
    ]);
    const requestLine = mine.at(-1);
    expect(requestLine).toMatchObject({
      level: 'info',
      route: '/api/test/fails',
      status: 500,
      service: 'twofold',
    });
    expect(mine[1]).toMatchObject({ level: 'error', err: { message: 'this route always fails' } });
    expect(typeof requestLine?.time).toBe('string');
  });

  it("a mail the request queues keeps its id, and the mail worker's line about it repeats it", async () => {
    const forgot = await call(app, 'POST', '/api/auth/forgot', { body: { email: 'reader@twofold.test' } });
    expect(forgot.status).toBe(200);
    const id = forgot.headers.get('x-request-id');
    const mail = await lastMailTo(database.db, 'reader@twofold.test');
    expect(mail?.request_id).toBe(id);
    written.length = 0;
    await runWorkers();
    const sent = lines().find((l) => l.msg === `mail ${mail?.id} sent`);
    expect(sent).toMatchObject({ request_id: id, job: 'mail', job_id: mail?.id });
  });

  it("a webhook delivery and the import's donor emails keep the request's id into the workers' lines", async () => {
    const demo = await demoOrganizationIds(database.db);
    await readyForMatching(database.db, [demo.hopeHarbor]);
    const admin = await signIn(app, 'admin@twofold.test');
    const created = await call(app, 'POST', `/api/organization/${demo.hopeHarbor}/webhook`, { token: admin });
    const hook = created.json.webhooks.at(-1);
    await call(app, 'PUT', `/api/webhook/${hook.id}`, {
      token: admin,
      body: { event: 'status', url: `127.0.0.1:${receiverPort}/hook`, token: 'receiver-token-0123456789' },
    });
    const form = new FormData();
    form.set(
      'donations',
      new File(
        [
          `Donor Name,Email,Amount,Date,Company,Organization\nIda Import,ida.import@example.org,50,2025-03-01,Logline Mail Co,"${hopeName}"\n`,
        ],
        'gifts.csv',
        { type: 'text/csv' },
      ),
    );
    form.set('type', 'Upload');
    form.set(
      'map',
      JSON.stringify({
        donor_name: 'donor.name',
        email: 'donor.email',
        amount: 'amount',
        date: 'donated_at',
        company: 'company.name',
        organization: 'organization_name',
      }),
    );
    const upload = await app.request(`/api/organization/${demo.hopeHarbor}/donation/import-file/Upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}` },
      body: form,
    });
    expect(upload.status, await upload.clone().text()).toBe(200);
    const id = upload.headers.get('x-request-id');
    await afterCommitSettled(database.db);
    const [delivery] = await database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhook_id, hook.id));
    expect(delivery?.request_id).toBe(id);
    const donorMail = await lastMailTo(database.db, 'ida.import@example.org');
    expect(donorMail?.request_id).toBe(id);
    written.length = 0;
    received = [];
    await runWorkers();
    expect(received).toHaveLength(1);
    expect(lines().find((l) => l.msg === `mail ${donorMail?.id} sent`)).toMatchObject({ request_id: id });
    expect(lines().find((l) => String(l.msg).includes(`delivery ${delivery?.id} delivered`))).toMatchObject({
      request_id: id,
      job: 'webhook',
      job_id: delivery?.id,
    });
  });
});

describe('no secrets in the log', () => {
  it('a realistic run (sign-in, magic link, reset, import, webhook, API key) logs no password, token, key or donor email', async () => {
    written.length = 0;
    const secrets: string[] = ['twofold-demo'];
    const demo = await demoOrganizationIds(database.db);
    await readyForMatching(database.db, [demo.hopeHarbor]);

    // Password sign-in, and a wrong password (its failure is logged as a 401 line only).
    const admin = await signIn(app, 'admin@twofold.test');
    secrets.push(admin);
    expect(
      (
        await call(app, 'POST', '/api/auth/login', {
          body: { email: 'admin@twofold.test', password: 'wrong-guess-123' },
        })
      ).status,
    ).toBe(401);
    secrets.push('wrong-guess-123');

    // Magic link: asked for (also in a query string), opened.
    await call(app, 'POST', '/api/auth/otp', { body: { email: 'writer@twofold.test' } });
    await call(app, 'GET', '/api/auth/otp?email=writer%40twofold.test');
    const magic = await lastMailTo(database.db, 'writer@twofold.test');
    const magicToken = /[A-Za-z0-9_-]{40,}/.exec(magic?.text ?? '')?.[0] ?? '';
    expect(magicToken).not.toBe('');
    secrets.push(magicToken);
    const verified = await call(app, 'POST', '/api/auth/otp/verify', { body: { token: magicToken } });
    expect(verified.status).toBe(200);
    secrets.push(verified.json.access_token);

    // Password reset: asked for, link opened, new password set.
    await call(app, 'POST', '/api/auth/forgot', { body: { email: 'reader@twofold.test' } });
    const reset = await lastMailTo(database.db, 'reader@twofold.test');
    const resetToken = linkIn(reset?.text ?? '', 'http://portal.test/').searchParams.get('token') ?? '';
    expect(resetToken.length).toBeGreaterThan(20);
    secrets.push(resetToken);
    const newPassword = 'a-brand-new-password-4711';
    secrets.push(newPassword);
    expect(
      (await call(app, 'POST', '/api/auth/reset', { body: { token: resetToken, password: newPassword } }))
        .status,
    ).toBe(200);
    secrets.push(await signIn(app, 'reader@twofold.test', newPassword));

    // A webhook: its signing secret and receiver token are shown once; deliveries are signed with them.
    const created = await call(app, 'POST', `/api/organization/${demo.hopeHarbor}/webhook`, { token: admin });
    const hook = created.json.webhooks.at(-1);
    const receiverToken = 'receiver-bearer-9f8e7d6c5b4a';
    const updated = await call(app, 'PUT', `/api/webhook/${hook.id}`, {
      token: admin,
      body: { event: 'status', url: `127.0.0.1:${receiverPort}/hook`, token: receiverToken },
    });
    const stored = updated.json.webhooks.find((w: { id: number }) => w.id === hook.id);
    secrets.push(receiverToken, stored.secret);
    expect(stored.secret).toMatch(/^whsec_/);

    // An API key, used to list and create matches with donors' emails.
    const key = await call(app, 'POST', `/api/organization/${demo.hopeHarbor}/api-key`, { token: admin });
    const apiKey = key.json.api_key.secret as string;
    secrets.push(apiKey);
    const donorEmails = [
      'api.donor@example.org',
      'bounce.donor@example.org',
      'csv.donor1@example.org',
      'csv.donor2@example.org',
    ];
    refused.add('bounce.donor@example.org');
    for (const email of donorEmails.slice(0, 2)) {
      const made = await call(app, 'POST', '/api/v1/matches', {
        token: apiKey,
        body: {
          donated_at: '2025-03-01 12:00:00',
          amount: 75,
          donor: { name: 'Api Donor', email },
          company_name: 'Logline Mail Co',
        },
      });
      expect(made.status, made.text).toBe(201);
    }
    expect((await call(app, 'GET', '/api/v1/matches', { token: apiKey })).status).toBe(200);
    // A wrong key is refused (and logged as a 401 line, without the key).
    const wrongKey = `tf_${'Z'.repeat(43)}`;
    secrets.push(wrongKey);
    expect((await call(app, 'GET', '/api/v1/matches', { token: wrongKey })).status).toBe(401);

    // An import of donors with their emails.
    const form = new FormData();
    form.set(
      'donations',
      new File(
        [
          `Donor Name,Email,Amount,Date,Company,Organization\nCsv One,${donorEmails[2]},50,2025-03-01,Logline Mail Co,"${hopeName}"\nCsv Two,${donorEmails[3]},60,2025-03-02,Logline Mail Co,"${hopeName}"\n`,
        ],
        'gifts.csv',
        { type: 'text/csv' },
      ),
    );
    form.set('type', 'Upload');
    form.set(
      'map',
      JSON.stringify({
        donor_name: 'donor.name',
        email: 'donor.email',
        amount: 'amount',
        date: 'donated_at',
        company: 'company.name',
        organization: 'organization_name',
      }),
    );
    const upload = await app.request(`/api/organization/${demo.hopeHarbor}/donation/import-file/Upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}` },
      body: form,
    });
    expect(upload.status, await upload.clone().text()).toBe(200);

    // Everything goes out: mail over SMTP (one recipient refused, the refusal quoting the address),
    // and the webhook deliveries carrying the receiver's token.
    received = [];
    await runWorkers();
    expect(received.length).toBeGreaterThan(0);
    expect(received.join('\n')).toContain(receiverToken);
    const bounced = await lastMailTo(database.db, 'bounce.donor@example.org');
    expect(bounced?.last_error).toContain('bounce.donor@example.org');
    const [sentDonorMail] = await database.db
      .select()
      .from(outbox)
      .where(eq(outbox.to, 'api.donor@example.org'));
    expect(sentDonorMail?.status).toBe('sent');

    const log = written.join('');
    // The run was logged (requests, deliveries, the refusal) ...
    expect(log).toContain('"msg":"POST /api/auth/login 200');
    expect(log).toContain('delivered');
    expect(log).toMatch(/"msg":"mail \d+: attempt 1 failed/);
    expect(written.length).toBeGreaterThan(20);
    // ... and none of it is in the log.
    for (const secret of [...secrets, ...donorEmails]) {
      expect(secret.length).toBeGreaterThan(8);
      expect(log.includes(secret), `the log contains ${secret.slice(0, 12)}…`).toBe(false);
    }
    // Staff addresses are not written either (only the start-up banner names the demo sign-ins).
    expect(log).not.toMatch(/[a-z]+@twofold\.test/);
  });
});
