/**
 * A server process with tracing on (tracing.test.ts runs it under tsx, after
 * tracing-memory.fixture.ts): one request that queues a webhook delivery to a local receiver,
 * then every span recorded, as JSON on the last line of stdout.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { openDatabase } from '../db/client.ts';
import { seedDemo } from '../db/seed.ts';
import { memoryLogger } from '../http/logger.ts';
import { startServer } from '../serve.ts';
import { demoOrganizationIds } from '../test-helpers.ts';
import { testConfig } from '../testing.ts';
import { tracingStarted } from './tracing-state.ts';

const exporter = (globalThis as Record<symbol, unknown>)[
  Symbol.for('twofold.test.spans')
] as InMemorySpanExporter;
if (!exporter || !tracingStarted()) throw new Error('start this fixture after tracing-memory.fixture.ts');

let delivered = 0;
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    delivered += 1;
    res.writeHead(200).end('ok');
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverPort = (receiver.address() as AddressInfo).port;

const database = await openDatabase({ databaseUrl: process.env.FIXTURE_DATABASE_URL || undefined });
await database.migrate();
await seedDemo(database.db);
const running = await startServer({
  config: testConfig({ port: 0, host: '127.0.0.1', logRequests: false, webhookAllowPrivate: true }),
  database,
  logger: memoryLogger(),
});

/** A JSON call over the network, as a client makes it (through the HTTP instrumentation). */
function send(method: string, path: string, body?: unknown, token?: string) {
  return new Promise<{ status: number; json: Record<string, unknown>; requestId: string }>(
    (resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: running.port,
          method,
          path,
          headers: {
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk) => {
            text += chunk;
          });
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              json: text ? (JSON.parse(text) as Record<string, unknown>) : {},
              requestId: String(res.headers['x-request-id'] ?? ''),
            }),
          );
        },
      );
      req.on('error', reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    },
  );
}

const login = await send('POST', '/api/auth/login', {
  email: 'admin@twofold.test',
  password: 'twofold-demo',
});
const token = String(login.json.access_token);
const { hopeHarbor } = await demoOrganizationIds(database.db);
const created = await send('POST', `/api/organization/${hopeHarbor}/webhook`, undefined, token);
const hook = (created.json.webhooks as Array<{ id: number }>).at(-1);
await send(
  'PUT',
  `/api/webhook/${hook?.id}`,
  { event: 'status', url: `127.0.0.1:${receiverPort}/hook`, token: 'receiver' },
  token,
);

// The request under test: Send test event, whose delivery the webhook worker makes.
exporter.reset();
const probe = await send('POST', `/api/webhook/${hook?.id}/test`, undefined, token);
const deadline = Date.now() + 20_000;
while (delivered === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
// The delivery's span ends once its attempt is recorded.
await new Promise((resolve) => setTimeout(resolve, 500));

const spans = exporter.getFinishedSpans().map((s) => ({
  name: s.name,
  kind: s.kind,
  traceId: s.spanContext().traceId,
  spanId: s.spanContext().spanId,
  parentSpanId: s.parentSpanContext?.spanId,
  scope: s.instrumentationScope.name,
  attributes: s.attributes,
}));
await running.shutdown();
receiver.close();
process.stdout.write(
  `\n${JSON.stringify({ status: probe.status, requestId: probe.requestId, receiverPort, delivered, kind: database.kind, spans })}\n`,
);
process.exit(0);
