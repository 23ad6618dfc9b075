import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase, testDb } from '../testing.ts';

/**
 * Traces, as a real process records them: tracing.fixture.ts runs under tsx with tracing started
 * by a preload (--import, as `npm run server` does), so the ESM imports of `pg` and `node:http` are
 * instrumented the way production's are, into an in-memory exporter. One request (Send test event)
 * and the webhook delivery it queues are checked span by span.
 */

type Span = {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  scope: string;
  attributes: Record<string, unknown>;
};
type Run = {
  status: number;
  requestId: string;
  receiverPort: number;
  delivered: number;
  kind: string;
  spans: Span[];
};

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const SERVER = 1;
const CLIENT = 2;
const CONSUMER = 4;

let testDatabase: TestDatabase;
let run: Run;

function runFixture(databaseUrl: string | undefined): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--import',
        path.join(here, 'tracing-memory.fixture.ts'),
        path.join(here, 'tracing.fixture.ts'),
      ],
      {
        cwd: root,
        env: { ...process.env, FIXTURE_DATABASE_URL: databaseUrl ?? '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      err += chunk;
    });
    child.on('exit', (code) => {
      const last = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0) return reject(new Error(`fixture exited ${code}: ${err.slice(-2000)}`));
      resolve(JSON.parse(last) as Run);
    });
  });
}

beforeAll(async () => {
  testDatabase = await createTestDatabase({ empty: true });
  run = await runFixture(testDatabase.url);
}, 240_000);
afterAll(async () => {
  await testDatabase.drop();
});

/** Whether `span` descends from `ancestor` (same trace, parent links leading to it). */
function descendsFrom(span: Span, ancestor: Span, spans: Span[]): boolean {
  if (span.traceId !== ancestor.traceId) return false;
  let parent = span.parentSpanId;
  for (let hops = 0; parent && hops < 20; hops += 1) {
    if (parent === ancestor.spanId) return true;
    parent = spans.find((s) => s.spanId === parent)?.parentSpanId;
  }
  return false;
}

describe('a request traced end to end', () => {
  it('records the HTTP server span named by its route template, with the request id', () => {
    expect(run.status).toBe(202);
    const server = run.spans.filter(
      (s) => s.kind === SERVER && s.attributes['http.route'] === '/api/webhook/:id/test',
    );
    expect(server).toHaveLength(1);
    expect(server[0]?.name).toBe('POST /api/webhook/:id/test');
    expect(server[0]?.attributes['twofold.request_id']).toBe(run.requestId);
    expect(server[0]?.scope).toBe('@opentelemetry/instrumentation-http');
  });

  it(
    testDb === 'postgres'
      ? 'records its PostgreSQL statements as child spans of the request (the ESM import of pg is instrumented)'
      : 'on PGlite records no database spans: the embedded database is not reached through pg',
    () => {
      const server = run.spans.find(
        (s) => s.kind === SERVER && s.attributes['http.route'] === '/api/webhook/:id/test',
      );
      const pgSpans = run.spans.filter((s) => s.scope === '@opentelemetry/instrumentation-pg');
      if (testDb !== 'postgres') {
        expect(run.kind).toBe('pglite');
        expect(pgSpans).toEqual([]);
        return;
      }
      expect(run.kind).toBe('postgres');
      const queries = pgSpans.filter(
        (s) => server && s.name.startsWith('pg.query') && descendsFrom(s, server, run.spans),
      );
      expect(queries.map((s) => s.name)).toContainEqual(expect.stringMatching(/^pg\.query:INSERT/));
      for (const query of queries) {
        expect(query.kind).toBe(CLIENT);
        expect(query.attributes['db.system.name']).toBe('postgresql');
        // Statement text only: drizzle sends values as parameters, which are never recorded.
        expect(JSON.stringify(query.attributes)).not.toContain('receiver');
      }
    },
  );

  it('records the delivery it caused as a span carrying the request id, whose outgoing call to the receiver is its child', () => {
    expect(run.delivered).toBe(1);
    const deliveries = run.spans.filter((s) => s.name === 'webhook delivery');
    expect(deliveries).toHaveLength(1);
    const delivery = deliveries[0] as Span;
    expect(delivery.kind).toBe(CONSUMER);
    expect(delivery.attributes['twofold.request_id']).toBe(run.requestId);
    expect(delivery.attributes['twofold.job']).toBe('webhook');
    const outgoing = run.spans.filter(
      (s) =>
        s.kind === CLIENT &&
        s.scope === '@opentelemetry/instrumentation-http' &&
        s.attributes['server.port'] === run.receiverPort,
    );
    expect(outgoing).toHaveLength(1);
    expect(outgoing[0]?.parentSpanId).toBe(delivery.spanId);
    expect(outgoing[0]?.attributes['url.full']).toBe(`http://127.0.0.1:${run.receiverPort}/hook`);
  });
});

describe('the tracing preload', () => {
  /** Runs tracing-otlp.fixture.ts under the real preload with this environment. */
  function runPreloaded(env: Record<string, string>): Promise<{ started: boolean }> {
    return new Promise((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          '--import',
          path.join(here, 'tracing.ts'),
          path.join(here, 'tracing-otlp.fixture.ts'),
        ],
        {
          cwd: root,
          env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: '', ...env },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
      });
      child.stderr.on('data', (chunk) => {
        err += chunk;
      });
      child.on('exit', (code) =>
        code === 0
          ? resolve(JSON.parse(out.trim().split('\n').at(-1) ?? '') as { started: boolean })
          : reject(new Error(`exited ${code}: ${err.slice(-2000)}`)),
      );
    });
  }

  it('starts nothing without OTEL_EXPORTER_OTLP_ENDPOINT', async () => {
    expect(await runPreloaded({})).toEqual({ started: false });
  }, 120_000);

  it('with it, exports the spans over OTLP/HTTP to <endpoint>/v1/traces', async () => {
    const posts: Array<{ path: string; type: string; body: string }> = [];
    const collector = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        posts.push({ path: req.url ?? '', type: String(req.headers['content-type']), body });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    // This file's ports: E2E_PORT 9500's range.
    await new Promise<void>((resolve) => collector.listen(9533, '127.0.0.1', resolve));
    try {
      const result = await runPreloaded({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9533',
        OTEL_SERVICE_NAME: 'twofold-preload-test',
      });
      expect(result).toEqual({ started: true });
      const traces = posts.filter((p) => p.path === '/v1/traces');
      expect(traces.length).toBeGreaterThan(0);
      expect(traces[0]?.type).toContain('application/json');
      const sent = traces.map((p) => p.body).join('\n');
      expect(sent).toContain('twofold-preload-test');
      expect(sent).toContain('/probe');
    } finally {
      await new Promise((resolve) => collector.close(resolve));
    }
  }, 120_000);
});
