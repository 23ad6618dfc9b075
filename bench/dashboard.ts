/**
 * The dashboard and reports benchmark, on PostgreSQL, against the database bench/generate.ts
 * fills (1,000,000 matches by default). It prints:
 *
 * - the Matching Overview call (GET /api/organization/{id}/statistics) p50/p95 for Hope Harbor
 *   with its chapters (a third of all matches) over several ranges, beside the same SQL replayed
 *   directly, and the overhead ratio;
 * - the figures below the tiles (GET .../statistics/insights) p50/p95 over the same ranges;
 * - a full report download (csv-token?report_id= then the streamed file) sorted by id and by
 *   donor name: time, rows, bytes and peak memory.
 *
 *   npx tsx bench/generate.ts --database twofold_bench      # once
 *   npx tsx bench/dashboard.ts [--runs 30] [--database twofold_bench]
 */
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { createApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { type Db, migrationsFolder } from '../server/db/client.ts';
import * as schema from '../server/db/schema.ts';
import { demoOrganizationNames } from '../server/db/seed.ts';
import { memoryLogger } from '../server/http/logger.ts';
import { benchDatabaseUrl, mib, ms, percentile } from './shared.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '30' },
    database: { type: 'string', default: 'twofold_bench' },
  },
});
const runs = Number(values.runs);
const pool = new pg.Pool({ connectionString: benchDatabaseUrl(values.database), max: 10 });

let recording = false;
const captured: Array<{ query: string; params: unknown[] }> = [];
const db = drizzle(pool, {
  schema,
  logger: {
    logQuery(query, params) {
      if (recording) captured.push({ query, params });
    },
  },
}) as unknown as Db;

const config = loadConfig({
  JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256-signing',
  DATA_DIR: path.join(tmpdir(), 'twofold-bench-data'),
  PUBLIC_URL: 'http://portal.bench',
  RATE_LIMIT_PER_IP: '1000000',
  RATE_LIMIT_PER_EMAIL: '1000000',
});
await migrate(db as unknown as Parameters<typeof migrate>[0], { migrationsFolder });
const { app } = createApp({ config, db, logger: memoryLogger() });

const login = await app.request('/api/auth/login', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: 'admin@twofold.test', password: 'twofold-demo' }),
});
if (login.status !== 200) throw new Error(`sign-in failed (${login.status}): run bench/generate.ts first`);
const token = ((await login.json()) as { access_token: string }).access_token;
const headers = { authorization: `Bearer ${token}` };

const orgId = (
  await pool.query<{ id: number }>('select id from organizations where name = $1', [
    demoOrganizationNames.hopeHarbor,
  ])
).rows[0]?.id;
if (!orgId) throw new Error('Hope Harbor is missing: run bench/generate.ts first');
const sizes = await pool.query<{ total: string; family: string }>(
  `select (select count(*) from donations) as total,
          (select count(*) from donations d join organizations o on o.id = d.organization_id
            where o.id = $1 or o.parent_id = $1) as family`,
  [orgId],
);
console.log(
  `Database ${values.database}: ${Number(sizes.rows[0]?.total).toLocaleString('en-US')} matches; Hope Harbor and its chapters hold ${Number(sizes.rows[0]?.family).toLocaleString('en-US')}.`,
);
console.log(
  `Each figure: ${runs} runs after 3 warm-ups, one at a time, in-process app.request (no socket).\n`,
);

const day = (d: Date) => d.toISOString().slice(0, 10);
const today = new Date();
const daysAgo = (n: number) => day(new Date(today.getTime() - n * 86_400_000));
const ranges: Array<[string, string, string]> = [
  ['year to date', `${today.getUTCFullYear()}-01-01`, day(today)],
  ['last 90 days', daysAgo(90), day(today)],
  ['last 7 days', daysAgo(7), day(today)],
  ['all time (2000 to today)', '2000-01-01', day(today)],
];

async function time(fn: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 3; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
  }
  return samples;
}

console.log('Matching Overview: GET /api/organization/{id}/statistics (Hope Harbor with its chapters)');
console.log('range                         api p50    api p95    sql p50    ratio');
for (const [label, from, to] of ranges) {
  const url = `/api/organization/${orgId}/statistics?from=${from}&to=${to}&report=by_status`;
  captured.length = 0;
  recording = true;
  const check = await app.request(url, { headers });
  recording = false;
  if (check.status !== 200) throw new Error(`${label}: ${check.status} ${await check.text()}`);
  const statements = [...captured];
  const api = await time(async () => (await app.request(url, { headers })).text());
  const direct = await time(() => Promise.all(statements.map((s) => pool.query(s.query, s.params))));
  const p50 = percentile(api, 50);
  console.log(
    `${label.padEnd(28)} ${ms(p50).padStart(9)} ${ms(percentile(api, 95)).padStart(10)} ${ms(percentile(direct, 50)).padStart(10)} ${(p50 / percentile(direct, 50)).toFixed(2).padStart(8)}`,
  );
}

console.log(
  '\nBelow the tiles: GET /api/organization/{id}/statistics/insights (trend, ageing, top companies)',
);
console.log('range                         api p50    api p95');
for (const [label, from, to] of ranges) {
  const url = `/api/organization/${orgId}/statistics/insights?from=${from}&to=${to}`;
  const check = await app.request(url, { headers });
  if (check.status !== 200) throw new Error(`${label}: ${check.status} ${await check.text()}`);
  const api = await time(async () => (await app.request(url, { headers })).text());
  console.log(
    `${label.padEnd(28)} ${ms(percentile(api, 50)).padStart(9)} ${ms(percentile(api, 95)).padStart(10)}`,
  );
}

console.log(
  '\nReport download: csv-token?report_id= then the streamed CSV (every match of the family, full_org)',
);
for (const [label, sort_field, ascending] of [
  ['sorted by id', 'donations.id', true],
  ['sorted by donor name, descending', 'users.name', false],
] as const) {
  const saved = await app.request(`/api/organization/${orgId}/reports`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: `Bench ${label}`,
      scope: 'full_org',
      columns: {
        'donations.id': 'ID',
        'donations.donated_at': 'Donated',
        'donations.amount': 'Amount',
        'users.name': 'Donor',
        'users.email': 'Email',
        'companies.name': 'Company',
        'statuses.name': 'Status',
        'organizations.name': 'Organization',
      },
      filters: { include_inert: true },
      sort_field,
      ascending,
    }),
  });
  const reportId = ((await saved.json()) as { report: { id: number } }).report.id;
  const started = performance.now();
  const link = (await (
    await app.request(`/api/donation/${orgId}/csv-token?report_id=${reportId}`, { headers })
  ).json()) as {
    url: string;
  };
  const response = await app.request(link.url);
  const reader = response.body?.getReader();
  let bytes = 0;
  let rows = 0;
  let firstByte = 0;
  let peak = process.memoryUsage().rss;
  for (;;) {
    const chunk = await reader?.read();
    if (!chunk || chunk.done) break;
    if (!firstByte) firstByte = performance.now() - started;
    bytes += chunk.value.byteLength;
    for (const b of chunk.value) if (b === 10) rows++;
    peak = Math.max(peak, process.memoryUsage().rss);
  }
  const total = performance.now() - started;
  console.log(
    `${label.padEnd(34)} ${(rows - 1).toLocaleString('en-US')} rows, ${mib(bytes)}, first byte ${ms(firstByte)}, total ${(total / 1000).toFixed(1)} s, peak RSS ${mib(peak)}`,
  );
  await pool.query('delete from reports where id = $1', [reportId]);
}
await pool.end();
