import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { PGlite } from '@electric-sql/pglite';
import { and, inArray, type SQL, sql } from 'drizzle-orm';
import { createApp } from '../server/app.ts';
import { openDatabase } from '../server/db/client.ts';
import { queryRows } from '../server/db/rows.ts';
import { donations } from '../server/db/schema.ts';
import { demoOrganizationNames, demoPassword, seedDemo } from '../server/db/seed.ts';
import { memoryLogger } from '../server/http/logger.ts';
import { afterCommitSettled } from '../server/jobs/after-commit.ts';
import { donationFilterConditions } from '../server/modules/donations/donations.service.ts';
import { forgetImportFiles } from '../server/modules/donations/import-files.ts';
import { type StatusGroup, statusGroupIds, statusGroups } from '../src/contract/statuses.ts';
import { insertMatches } from './pglite-data.ts';
import {
  benchConfig,
  benchDatabaseUrl,
  type CapturedStatement,
  mib,
  ms,
  openBenchApp,
  percentile,
} from './shared.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '30' },
    database: { type: 'string', default: 'twofold_bench' },
    /** Which parts to run: list, export, pglite-export, import (comma-separated; all by default). */
    parts: { type: 'string', default: 'list,export,pglite-export,import' },
    /** Matches in the PGlite data directory of the pglite-export part. */
    'pglite-matches': { type: 'string', default: '100000' },
  },
});
const parts = new Set(values.parts.split(','));
const runs = Number(values.runs);
const { pool, db, app, capture } = await openBenchApp(values.database);

async function request(method: string, url: string, token: string, body?: BodyInit) {
  const response = await app.request(url, {
    method,
    headers: { authorization: `Bearer ${token}` },
    ...(body ? { body } : {}),
  });
  return response;
}

const login = await app.request('/api/auth/login', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: 'admin@twofold.test', password: 'twofold-demo' }),
});
if (login.status !== 200) throw new Error(`sign-in failed (${login.status}): run bench/generate.ts first`);
const token = ((await login.json()) as { access_token: string }).access_token;

const orgRow = await pool.query<{ id: number }>('select id from organizations where name = $1', [
  demoOrganizationNames.hopeHarbor,
]);
const orgId = orgRow.rows[0]?.id;
if (!orgId) throw new Error('Hope Harbor is missing: run bench/generate.ts first');
const sizes = await pool.query<{ total: string; family: string }>(
  `select (select count(*) from donations) as total,
          (select count(*) from donations d join organizations o on o.id = d.organization_id
            where o.id = $1 or o.parent_id = $1) as family`,
  [orgId],
);
const companyWord = (
  await pool.query<{ word: string }>(
    `select lower(split_part(company_name, ' ', 1)) as word from donations
      where organization_id = $1 and company_name is not null limit 1`,
    [orgId],
  )
).rows[0]?.word;

console.log(
  `Database ${values.database}: ${Number(sizes.rows[0]?.total).toLocaleString('en-US')} matches; Hope Harbor and its chapters hold ${Number(sizes.rows[0]?.family).toLocaleString('en-US')}.`,
);
console.log(
  `Each figure: ${runs} runs after 3 warm-ups, one at a time, in-process app.request (no socket).\n`,
);

const scenarios: Array<[string, string]> = [
  ['default (page 1, donated_at desc)', ''],
  ['page 400', 'page=400'],
  ['sort amount ascending', 'sort_field=amount&ascending=true'],
  ['donor name contains "garcia"', 'filters[donor]=garcia'],
  [`company contains "${companyWord}"`, `filters[company]=${encodeURIComponent(companyWord ?? 'a')}`],
  ['last 90 days, min $100', `filters[dateFrom]=${daysAgo(90)}&filters[minAmount]=100`],
  ['tile npo_verify', 'filters[status_group]=npo_verify'],
  [
    'all filters together',
    `filters[dateFrom]=${daysAgo(365)}&filters[donor]=chen&filters[minAmount]=50&filters[status_group]=donor_contacted`,
  ],
];

function daysAgo(days: number) {
  return new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
}

async function timeApi(query: string) {
  const url = `/api/organization/${orgId}/donation${query ? `?${query}` : ''}`;
  const samples: number[] = [];
  let statements: CapturedStatement[] = [];
  for (let i = 0; i < runs + 3; i++) {
    capture.statements.length = 0;
    capture.on = true;
    const started = performance.now();
    const response = await request('GET', url, token);
    const body = await response.text();
    const elapsed = performance.now() - started;
    capture.on = false;
    if (response.status !== 200) throw new Error(`${url}: ${response.status} ${body}`);
    if (i >= 3) samples.push(elapsed);
    statements = [...capture.statements];
  }
  return { samples, statements };
}

/** The list's own two statements (the page of rows; the total and tile counts), run the way the service runs them: together. */
async function timeRaw(statements: CapturedStatement[]) {
  const list = statements.slice(-2);
  const samples: number[] = [];
  for (let i = 0; i < runs + 3; i++) {
    const started = performance.now();
    await Promise.all(list.map((s) => pool.query(s.query, s.params)));
    if (i >= 3) samples.push(performance.now() - started);
  }
  return samples;
}

/**
 * The indexes this change added for the contains filters; hidden (dropped inside a transaction
 * that is rolled back) to time the list as it was before them.
 */
const containsIndexes = [
  // Global in 0022, scoped to the organization since 0043: the same role.
  'donors_org_name_trgm_idx',
  'donors_org_email_trgm_idx',
  'donations_org_company_trgm_idx',
  'donations_donor_status_idx',
];

/**
 * The list as it was before the contains-filter work: the same page statement, and the counts
 * read by one scan of the matching gifts (count(*) filter per tile), without the trigram and
 * covering indexes. Each run times the page and the counts one after the other on one connection
 * and keeps the slower of the two (what running them side by side, as the service did, costs at
 * best).
 */
async function timeTodaysPlan(query: string, statements: CapturedStatement[]) {
  const filters = Object.fromEntries(new URLSearchParams(query)) as Record<string, string>;
  const { base } = await donationFilterConditions(db, orgId as number, filters);
  const counts = db
    .select({
      all: sql<number>`count(*)::int`,
      ...(Object.fromEntries(
        statusGroupIds.map((g) => [
          g,
          sql<number>`count(*) filter (where ${inArray(donations.status_id, [...statusGroups[g].statuses])})::int`,
        ]),
      ) as Record<StatusGroup, SQL<number>>),
    })
    .from(donations)
    .where(and(...base))
    .toSQL();
  const page = statements.at(-2);
  if (!page) throw new Error('the list sent no page statement');
  const client = await pool.connect();
  const samples: number[] = [];
  try {
    await client.query('begin');
    for (const index of containsIndexes) await client.query(`drop index if exists ${index}`);
    for (let i = 0; i < runs + 3; i++) {
      let started = performance.now();
      await client.query(page.query, page.params);
      const pageMs = performance.now() - started;
      started = performance.now();
      await client.query(counts.sql, counts.params);
      const countsMs = performance.now() - started;
      if (i >= 3) samples.push(Math.max(pageMs, countsMs));
    }
  } finally {
    await client.query('rollback');
    client.release();
  }
  return samples;
}

const containsLimitMs = 60;
const header = [
  'query',
  'API p50',
  'API p95',
  'SQL p50',
  'SQL p95',
  'ratio p50',
  'statements',
  "today's plan p50",
  'limit',
];
const rows: string[][] = [];
for (const [label, query] of parts.has('list') ? scenarios : []) {
  const api = await timeApi(query);
  const raw = await timeRaw(api.statements);
  const apiP50 = percentile(api.samples, 50);
  const rawP50 = percentile(raw, 50);
  const isContains = label.includes('contains');
  const before = isContains ? percentile(await timeTodaysPlan(query, api.statements), 50) : undefined;
  rows.push([
    label,
    ms(apiP50),
    ms(percentile(api.samples, 95)),
    ms(rawP50),
    ms(percentile(raw, 95)),
    `${(apiP50 / rawP50).toFixed(2)}×`,
    String(api.statements.length),
    before === undefined ? '' : ms(before),
    isContains ? `≤ ${containsLimitMs} ms ${apiP50 <= containsLimitMs ? 'met' : 'MISSED'}` : '',
  ]);
}
if (rows.length > 0) printTable(header, rows);
console.log(
  "\nstatements: everything the call sent (token user, permission, chapters, then the list’s page and its counts); the SQL columns replay those last two. today's plan: the same page with the counts as one scan of the matching gifts, without the trigram and covering indexes (hidden in a rolled-back transaction); the slower of the two per run.\n",
);

const defaultList = (await (await request('GET', `/api/organization/${orgId}/donation`, token)).json()) as {
  total: number;
  counts: Record<string, number>;
};
console.log(
  `Tile counts for Hope Harbor (all dates): ${JSON.stringify(defaultList.counts)}; total ${defaultList.total}\n`,
);

const exportRounds = Math.min(5, runs);
if (parts.has('export')) await benchExport();
if (parts.has('pglite-export')) await benchPgliteExport();
if (parts.has('import')) await benchImport();
await pool.end();

/** What one export download cost: rows, bytes, seconds, and memory over the start. */
type Download = {
  rows: number;
  bytes: number;
  ms: number;
  /** The highest RSS while it ran, and how far above its start. */
  rss: number;
  peakRss: number;
  peakHeap: number;
};

/**
 * The CSV export as the portal runs it (the token call, then the link), read to the end in-process;
 * memory is sampled every 25 ms.
 */
async function download(
  on: { request: (url: string, init?: RequestInit) => Response | Promise<Response> },
  bearer: string,
  organization: number,
): Promise<Download> {
  const tokenResponse = await on.request(`/api/donation/${organization}/csv-token`, {
    headers: { authorization: `Bearer ${bearer}` },
  });
  if (tokenResponse.status !== 200)
    throw new Error(`CSV token: ${tokenResponse.status} ${await tokenResponse.text()}`);
  const { url } = (await tokenResponse.json()) as { url: string };
  global.gc?.();
  const baseline = process.memoryUsage();
  let peakRss = baseline.rss;
  let peakHeap = baseline.heapUsed;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  }, 25);
  const started = performance.now();
  const response = await on.request(url.replace(/^https?:\/\/[^/]+/, ''));
  if (response.status !== 200 || !response.body) throw new Error(`CSV download: ${response.status}`);
  let bytes = 0;
  let lines = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    // Counted natively (a byte-by-byte loop in JavaScript cost the export about 0.5 s of its time).
    for (let at = value.indexOf(10); at !== -1; at = value.indexOf(10, at + 1)) lines++;
  }
  const elapsed = performance.now() - started;
  clearInterval(sampler);
  return {
    rows: lines - 1,
    bytes,
    ms: elapsed,
    rss: peakRss,
    peakRss: peakRss - baseline.rss,
    peakHeap: peakHeap - baseline.heapUsed,
  };
}

/**
 * The database's own limit for the export: COPY of the same join (the export's columns, the
 * family's rows, newest first).
 */
function copyQuery(family: number[]) {
  return `select d.id, d.transaction_id, d.donated_at, d.amount_cents, d.matched_cents, dn.name, dn.email,
      d.company_name, c.name, o.name, d.status_id, d.eligible_bill_id, d.processed_bill_id, d.silenced, d.created_at
    from donations d join organizations o on o.id = d.organization_id
    left join donors dn on dn.id = d.donor_id left join companies c on c.id = d.company_id
    where d.organization_id in (${family.join(', ')}) order by d.id desc`;
}

/**
 * The export beside the database's COPY of the same rows, alternating, `rounds` times in one run.
 * Prints each round, then the verdict against the goal.
 */
async function exportBesideCopy(
  label: string,
  rounds: number,
  exportOnce: () => Promise<Download>,
  copyOnce: () => Promise<number>,
  copyLabel: string,
  /** In-process databases (PGlite): also compare this process's CPU time, which other load disturbs less than the clock. */
  inProcess = false,
) {
  const exports: Download[] = [];
  const copies: number[] = [];
  const cpuMs = (since: NodeJS.CpuUsage) => {
    const used = process.cpuUsage(since);
    return (used.user + used.system) / 1000;
  };
  for (let round = 1; round <= rounds; round++) {
    const loadAtStart = loadavg()[0]?.toFixed(2);
    let cpu = process.cpuUsage();
    const d = await exportOnce();
    const exportCpu = cpuMs(cpu);
    cpu = process.cpuUsage();
    const copyMs = await copyOnce();
    const copyCpu = cpuMs(cpu);
    exports.push(d);
    copies.push(copyMs);
    const cpuNote = inProcess
      ? ` (CPU time: export ${exportCpu.toFixed(0)} ms, COPY ${copyCpu.toFixed(0)} ms: ${(copyCpu / exportCpu).toFixed(2)}×)`
      : '';
    console.log(
      `  round ${round} (load ${loadAtStart}): export ${d.rows.toLocaleString('en-US')} rows, ${mib(d.bytes)} in ${(d.ms / 1000).toFixed(2)} s (${rate(d.rows, d.ms)} rows/s), peak RSS ${mib(d.rss)} (+${mib(d.peakRss)}), peak heap +${mib(d.peakHeap)}; ${copyLabel} ${(copyMs / 1000).toFixed(2)} s (${rate(d.rows, copyMs)} rows/s): ${(copyMs / d.ms).toFixed(2)}×${cpuNote}`,
    );
  }
  const rows = exports[0]?.rows ?? 0;
  const exportMs = percentile(
    exports.map((d) => d.ms),
    50,
  );
  const copyMs = percentile(copies, 50);
  // Each round pairs the export with a COPY run right after it, under about the same load: the
  // verdict takes the median of those paired ratios.
  const ratio = percentile(
    exports.map((d, i) => (copies[i] ?? Number.NaN) / d.ms),
    50,
  );
  console.log(
    `${label}: the export runs at ${ratio.toFixed(2)}× of COPY, the median of the rounds' ratios (goal ≥ 0.50×: ${ratio >= 0.5 ? 'met' : 'MISSED'}); median export ${rate(rows, exportMs)} rows/s, median ${copyLabel} ${rate(rows, copyMs)} rows/s (${(copyMs / exportMs).toFixed(2)}× between the medians); highest peak RSS +${mib(Math.max(...exports.map((d) => d.peakRss)))} over the start of its download, heap +${mib(Math.max(...exports.map((d) => d.peakHeap)))}\n`,
  );
}

function rate(rows: number, ms: number) {
  return Math.round((rows / ms) * 1000).toLocaleString('en-US');
}

async function benchExport() {
  const family = (
    await pool.query<{ id: number }>('select id from organizations where id = $1 or parent_id = $1', [orgId])
  ).rows.map((r) => Number(r.id));
  console.log(
    `CSV export of Hope Harbor and its chapters on PostgreSQL (${values.database}), beside COPY (the same rows and columns, newest first) TO STDOUT through psql, which throws the bytes away:`,
  );
  await exportBesideCopy(
    'PostgreSQL',
    exportRounds,
    () => download(app, token, orgId as number),
    () => timePsqlCopy(copyQuery(family)),
    'COPY',
  );
}

/** COPY (query) TO STDOUT as CSV to psql, which throws the bytes away; milliseconds. */
async function timePsqlCopy(query: string): Promise<number> {
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const child = spawn(
      'psql',
      ['-X', '-q', benchDatabaseUrl(values.database), '-c', `COPY (${query}) TO STDOUT WITH (FORMAT csv)`],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`psql exited with ${code}`))));
  });
  return performance.now() - started;
}

/**
 * The same on PGlite: a fresh data directory with `--pglite-matches` matches in Hope Harbor (the
 * demo seed, then bench/pglite-data.ts), the app on it, and PGlite's own COPY of the same query
 * TO '/dev/blob' (the whole file in memory: the database's limit, not a way to serve it).
 */
async function benchPgliteExport() {
  const matches = Number(values['pglite-matches']);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'twofold-export-bench-'));
  try {
    const database = await openDatabase({ pgliteDir: dataDir });
    await database.migrate();
    await seedDemo(database.db);
    const [org] = await queryRows<{ id: number }>(
      database.db,
      sql`select id from organizations where name = ${demoOrganizationNames.hopeHarbor}`,
    );
    if (!org) throw new Error('the demo seed has no Hope Harbor');
    await insertMatches(database, org.id, matches);
    await database.db.execute(sql`vacuum analyze`);
    const family = (
      await queryRows<{ id: number }>(
        database.db,
        sql`select id from organizations where id = ${org.id} or parent_id = ${org.id}`,
      )
    ).map((r) => r.id);
    const { app: pgliteApp } = createApp({ config: benchConfig(), db: database.db, logger: memoryLogger() });
    const login = await pgliteApp.request('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@twofold.test', password: demoPassword }),
    });
    if (login.status !== 200) throw new Error(`PGlite sign-in failed (${login.status})`);
    const pgliteToken = ((await login.json()) as { access_token: string }).access_token;
    const client = (database.db as unknown as { $client: PGlite }).$client;
    console.log(
      `CSV export of Hope Harbor on PGlite (${matches.toLocaleString('en-US')} matches, data directory on disk), beside PGlite's COPY (the same rows and columns, newest first) TO '/dev/blob':`,
    );
    await exportBesideCopy(
      'PGlite',
      exportRounds,
      () => download(pgliteApp, pgliteToken, org.id),
      async () => {
        const started = performance.now();
        const result = await client.query(`COPY (${copyQuery(family)}) TO '/dev/blob' WITH (FORMAT csv)`);
        const elapsed = performance.now() - started;
        if (!result.blob || result.blob.size === 0) throw new Error("PGlite's COPY wrote nothing");
        return elapsed;
      },
      "PGlite's COPY",
      true,
    );
    await database.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Uploads of a 4000-row file, `runs` times (at least one), each with its own transaction ids and
 * donor emails so every run creates 4000 matches and emails their donors, as a first upload does.
 * Each Upload follows its Test, as in the import dialog (the Upload reuses the Test's read of the
 * file: server/modules/donations/import-files.ts); then as many Uploads whose read was forgotten
 * first (a client that uploads without testing), reported beside them.
 */
async function benchImport() {
  const figures: Record<'tested' | 'cold', number[]> = { tested: [], cold: [] };
  let summary = '';
  for (const kind of ['tested', 'cold'] as const)
    for (let run = 0; run < Math.max(1, runs); run++) {
      const outcome = await importOnce(`${Date.now().toString(36)}${kind[0]}${run}`, kind === 'cold');
      if (!outcome) return;
      figures[kind].push(outcome.uploadMs);
      summary = outcome.summary;
      console.log(
        `  upload ${run + 1}${kind === 'cold' ? ' (read again)' : ''}: ${ms(outcome.uploadMs)} (${outcome.summary})`,
      );
    }
  const p50 = percentile(figures.tested, 50);
  const cold = percentile(figures.cold, 50);
  console.log(
    `Import of 4000 rows, ${figures.tested.length} uploads after their Test: Upload p50 ${ms(p50)}, max ${ms(Math.max(...figures.tested))} (${summary}); goal ≤ 500 ms p50: ${p50 <= 500 ? 'met' : 'MISSED'}; issue #17 measured 2.0 s. Uploads that read the file again (no Test before): p50 ${ms(cold)}, max ${ms(Math.max(...figures.cold))}\n`,
  );
}

async function importOnce(run: string, forget: boolean) {
  const lines = ['Donor Name,Donor Email,Gift Amount,Donation Date,Employer,Transaction ID,Organization'];
  const chapter = demoOrganizationNames.northShore;
  for (let i = 1; i <= 4000; i++) {
    lines.push(
      `"Import Donor ${i}",import${i}-${run}@example.org,"$${(25 + (i % 400)).toLocaleString('en-US')}.00",${i % 2 ? '2025-03-01' : '03/15/2025'},${i % 3 ? 'Acme Analytics' : 'Globex Logistics'},imp-${run}-${i},"${i % 2 ? demoOrganizationNames.hopeHarbor : chapter}"`,
    );
  }
  const file = new File([`\uFEFF${lines.join('\r\n')}\r\n`], 'donations.csv', { type: 'text/csv' });
  const testForm = new FormData();
  testForm.set('donations', file);
  const testStarted = performance.now();
  const test = await request('POST', `/api/organization/${orgId}/donation/import-file/Test`, token, testForm);
  const testElapsed = performance.now() - testStarted;
  if (test.status !== 200) {
    console.log(`Import: not available (${test.status} ${await test.text()})`);
    return null;
  }
  const proposal = (await test.json()) as { map: Record<string, string>; ready: number; errors: unknown[] };
  const uploadForm = new FormData();
  uploadForm.set('donations', file);
  uploadForm.set('type', 'Upload');
  uploadForm.set('opt_in', 'false');
  uploadForm.set('no_company', 'false');
  uploadForm.set('map', JSON.stringify(proposal.map));
  if (forget) forgetImportFiles();
  capture.statements.length = 0;
  capture.on = true;
  const uploadStarted = performance.now();
  const upload = await request(
    'POST',
    `/api/organization/${orgId}/donation/import-file/Upload`,
    token,
    uploadForm,
  );
  const uploadMs = performance.now() - uploadStarted;
  capture.on = false;
  // The donor emails it recorded are rendered into the outbox after it commits (not its time).
  const renderStarted = performance.now();
  await afterCommitSettled(db);
  const renderMs = performance.now() - renderStarted;
  const result = (await upload.json()) as { created?: number; message?: string };
  if (upload.status !== 200) throw new Error(`Upload: ${upload.status} ${JSON.stringify(result)}`);
  const emails = await pool.query<{ n: string }>(`select count(*) as n from outbox where "to" like $1`, [
    `import%-${run}@example.org`,
  ]);
  return {
    uploadMs,
    summary: `Test ${ms(testElapsed)} with ${proposal.ready} ready and ${proposal.errors.length} unreadable; ${result.created} created in one transaction with ${capture.statements.length} SQL statements, ${Number(emails.rows[0]?.n)} donor emails rendered into the outbox ${ms(renderMs)} after it answered`,
  };
}

function printTable(head: string[], body: string[][]) {
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of body) console.log(line(r));
}
