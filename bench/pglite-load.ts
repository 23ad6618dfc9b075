/**
 * The embedded default under load: the real server over HTTP on a PGlite data directory holding
 * `--matches` matches in ONE organization (Hope Harbor), measured with autocannon.
 *
 *   npm run bench:pglite-load -- [--matches 100000] [--duration 30] [--connections 50] [--runs 50]
 *
 * It creates a fresh data directory in the system's temporary folder (the demo seed, then the
 * matches with set-based SQL, the triggers' running counts kept as usual), starts the real server
 * (`server/main.ts` in its own process, on 127.0.0.1 and a free port), signs in as the demo admin and
 * prints, each beside its goal:
 *   (a) the donations list call alone: p50 over `--runs` sequential requests (goal ≤ 60 ms);
 *   (b) `--connections` connections for `--duration` s on the same call: errors, timeouts,
 *       p50/p99 latency and requests/s (goal: 0 errors, 0 timeouts, p99 ≤ 1.5 s).
 * PGlite is one connection: every request queues behind the others, so (b) shows how the
 * per-request SQL time adds up.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../server/config.ts';
import { openConfiguredDatabase } from '../server/db/client.ts';
import { queryRows } from '../server/db/rows.ts';
import { demoOrganizationNames, demoPassword, seedDemo } from '../server/db/seed.ts';
import { insertMatches } from './pglite-data.ts';
import { ms } from './shared.ts';

const { values } = parseArgs({
  options: {
    matches: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '30' },
    connections: { type: 'string', default: '50' },
    runs: { type: 'string', default: '50' },
    /** Seconds of the same load before (b) is measured (a fresh process's JIT and caches warm up). */
    warmup: { type: 'string', default: '10' },
    /** Extra query string for the list call (e.g. `page=400` or `sort_field=amount`). */
    query: { type: 'string', default: '' },
    /** Preload bench/pglite-load-probe.ts into the server: where its time goes, printed at exit. */
    probe: { type: 'boolean', default: false },
    /**
     * Keep the data directory here (made on the first run, reused as it is by the next ones with
     * the same --matches), to repeat a measurement without inserting the matches again.
     */
    keep: { type: 'string' },
  },
});
const whole = (name: keyof typeof values) => {
  const n = Number(values[name]);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`--${name} must be a positive whole number`);
  return n;
};
const matches = whole('matches');
const duration = whole('duration');
const connections = whole('connections');
const runs = whole('runs');
const warmup = Number(values.warmup);
if (!Number.isSafeInteger(warmup) || warmup < 0)
  throw new Error('--warmup must be a whole number of seconds');

const started = performance.now();
const step = (label: string) =>
  console.log(`${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s  ${label}`);
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

const kept = values.keep ? path.resolve(values.keep) : undefined;
const reuse = kept !== undefined && existsSync(path.join(kept, 'pglite', 'PG_VERSION'));
if (kept) mkdirSync(kept, { recursive: true });
const dataDir = kept ?? mkdtempSync(path.join(tmpdir(), 'twofold-pglite-load-'));
const port = await freePort();
const serverEnv = {
  DATA_DIR: dataDir,
  HOST: '127.0.0.1',
  PORT: String(port),
  JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256-signing',
  SEED_DEMO: 'false',
  // The sign-in limit is per address; one sign-in is all the bench does, but keep it out of the way.
  RATE_LIMIT_PER_IP: '1000',
};
const config = loadConfig(serverEnv);
const root = fileURLToPath(new URL('..', import.meta.url));

try {
  const database = await openConfiguredDatabase(config);
  await database.migrate();
  if (!reuse) {
    await seedDemo(database.db);
    step(`migrated and seeded the demo data in ${dataDir}/pglite (load ${load()})`);
  }
  const [org] = await queryRows<{ id: number }>(
    database.db,
    sql`select id from organizations where name = ${demoOrganizationNames.hopeHarbor}`,
  );
  if (!org) throw new Error('the demo seed has no Hope Harbor');
  if (reuse) {
    const [held] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from donations where organization_id = ${org.id}`,
    );
    if (held?.n !== matches)
      throw new Error(`--keep ${kept} holds ${held?.n} matches, not --matches ${matches}: remove it first`);
    step(`reusing ${dataDir}/pglite: ${matches.toLocaleString('en-US')} matches in Hope Harbor`);
  } else {
    await insertMatches(database, org.id, matches, step);
    await database.db.execute(sql`vacuum analyze`);
    step(`inserted ${matches.toLocaleString('en-US')} matches in Hope Harbor, vacuumed and analyzed`);
  }

  await database.close();

  // The real server in its own process (what `npm run server` runs), so the load generator does
  // not share its event loop with the server and PGlite.
  const probe = values.probe ? ['--import', path.join(root, 'bench', 'pglite-load-probe.ts')] : [];
  const server = spawn(
    process.execPath,
    ['--import', 'tsx', ...probe, path.join(root, 'server', 'main.ts')],
    {
      cwd: root,
      // PGlite and local files whatever this shell's environment says.
      // and React's production build, as `npm start` runs it.
      env: { ...process.env, DATABASE_URL: '', S3_BUCKET: '', NODE_ENV: 'production', ...serverEnv },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const base = `http://127.0.0.1:${port}`;
  try {
    await new Promise<void>((resolve, reject) => {
      let output = '';
      let started = false;
      // The request log keeps coming once it runs: read it (the pipe must not fill), keep none.
      server.stdout.on('data', (chunk: Buffer) => {
        if (started) return;
        output += chunk.toString();
        if (output.includes('Twofold is running')) {
          started = true;
          resolve();
        }
      });
      server.once('exit', (code) => reject(new Error(`the server exited (${code}):\n${output}`)));
    });
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@twofold.test', password: demoPassword }),
    });
    if (login.status !== 200) throw new Error(`sign-in failed (${login.status})`);
    const token = ((await login.json()) as { access_token: string }).access_token;
    const url = `${base}/api/organization/${org.id}/donation${values.query ? `?${values.query}` : ''}`;
    const headers = { authorization: `Bearer ${token}` };
    const check = await fetch(url, { headers });
    if (check.status !== 200)
      throw new Error(`the list call answered ${check.status}: ${await check.text()}`);
    const body = (await check.json()) as { total: number; donations: unknown[] };
    step(`server on ${base}; GET ${url.slice(base.length)} lists ${body.donations.length} of ${body.total}`);

    // (a) One request at a time, after a few warm-ups.
    await cannon({ url, headers, connections: 1, amount: 5 });
    const alone = await cannon({ url, headers, connections: 1, amount: runs });
    // (b) Many connections at once, after the same load unmeasured for --warmup seconds.
    if (warmup > 0) {
      await cannon({ url, headers, connections, duration: warmup });
      // Stopping the warmup abandons its last `connections` requests, which the server still
      // serves: one request more, answered after them, so (b) starts with `connections` requests
      // in flight and not twice as many.
      const settled = await fetch(url, { headers });
      if (settled.status !== 200)
        throw new Error(`the list call answered ${settled.status} after the warmup`);
      await settled.arrayBuffer();
    }
    const loadBefore = load();
    // The probe (if any) measures the loaded phase alone from here.
    if (values.probe) server.kill('SIGUSR2');
    const slow: Array<{ at: number; ms: number }> = [];
    const busyStarted = performance.now();
    const busy = await cannon({ url, headers, connections, duration }, (instance) => {
      if (!values.probe) return;
      const at = () => (performance.now() - busyStarted) / 1000;
      instance.on('response', (_client, _status, _bytes, responseTime: number) => {
        if (responseTime > 1500) slow.push({ at: at(), ms: responseTime });
      });
      instance.on('reqError', () => slow.push({ at: at(), ms: Number.NaN }));
    });
    if (values.probe)
      console.log(
        `\n[probe] client: ${slow.length} responses over 1.5 s or errors (s into (b): ms): ${slow
          .slice(0, 60)
          .map((s) => `${s.at.toFixed(1)}:${Number.isNaN(s.ms) ? 'error' : Math.round(s.ms)}`)
          .join(' ')}`,
      );

    console.log(`\nLoad average (1, 5, 15 min): ${loadBefore} before (b), ${load()} after.`);
    console.log(`\n(a) list call alone, ${runs} sequential requests`);
    row('p50', ms(alone.latency.p50), '≤ 60 ms', alone.latency.p50 <= 60);
    row('p99', ms(alone.latency.p99), '', undefined);
    row('errors / non-2xx', `${alone.errors} / ${alone.non2xx}`, '0', alone.errors + alone.non2xx === 0);
    console.log(`\n(b) ${connections} connections for ${duration} s (after ${warmup} s unmeasured)`);
    row('errors', String(busy.errors), '0', busy.errors === 0);
    row('timeouts', String(busy.timeouts), '0', busy.timeouts === 0);
    row('non-2xx', String(busy.non2xx), '0', busy.non2xx === 0);
    row('p50', ms(busy.latency.p50), '', undefined);
    row('p90', ms(busy.latency.p90), '', undefined);
    row('p97.5', ms(busy.latency.p97_5), '', undefined);
    row('p99', ms(busy.latency.p99), '≤ 1500 ms', busy.latency.p99 <= 1500);
    row('max', ms(busy.latency.max), '', undefined);
    row('requests/s', busy.requests.average.toFixed(1), '', undefined);
    row('requests', String(busy.requests.total), '', undefined);
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  }
} finally {
  if (!kept) rmSync(dataDir, { recursive: true, force: true });
}

function row(label: string, figure: string, goal: string, met: boolean | undefined) {
  const verdict = met === undefined ? '' : met ? 'met' : 'MISSED';
  console.log(`  ${label.padEnd(18)} ${figure.padStart(12)}   ${goal.padEnd(10)} ${verdict}`);
}

function cannon(
  options: autocannon.Options,
  watch?: (instance: autocannon.Instance) => void,
): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon({ timeout: 10, ...options }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
    watch?.(instance);
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject()));
    });
  });
}
