/**
 * `npm run test:cluster` (as root): a small Twofold cluster on this machine, built from Linux
 * network namespaces — two app hosts behind nginx, PostgreSQL and an S3-compatible store on a
 * host of their own, an SMTP sink and a webhook receiver on the driver's address — and the
 * checks docs/deploy.md describes: migrations from both hosts at once, mixed signed-in traffic
 * through the load balancer while one host is killed (SIGKILL) mid-import, mid-mail burst and
 * mid-webhook burst, the survivor finishing the dead host's claimed work after its lease, and a
 * rolling graceful restart with zero failed requests. Prints what it checked and its counts;
 * exits 1 when a check fails.
 *
 *   npm run test:cluster            run the checks, then take the cluster down
 *   npm run test:cluster -- --keep  leave it running (nginx at http://10.231.0.10) until Ctrl-C
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { driverAddress, type Host, hosts, setupNetwork, teardownNetwork } from './network.ts';
import { checkCounts, runScenarios } from './scenarios.ts';
import {
  cleanWorkDir,
  databaseUrl,
  type Proc,
  reloadNginx,
  s3,
  smtpSink,
  startNginx,
  startPostgres,
  startProcess,
  startS3,
  systemdUnit,
  waitFor,
  webhookReceiver,
  workDir,
} from './services.ts';

const { values } = parseArgs({ options: { keep: { type: 'boolean', default: false } } });

if (process.getuid?.() !== 0) {
  console.error('test:cluster builds network namespaces and needs root (run it with sudo).');
  process.exit(2);
}

ensurePackages();

const appPort = 8080;
const smtpPort = 2525;
const receiverPort = 9090;
const jwtSecret = 'cluster-test-secret-shared-by-every-app-host';
const database = 'twofold';
export const lbUrl = `http://${hosts.lb.address}`;

const procs: Proc[] = [];
let sink: ReturnType<typeof smtpSink> | undefined;
let receiver: ReturnType<typeof webhookReceiver> | undefined;

async function shutdown(code: number): Promise<never> {
  for (const p of procs) if (p.alive()) p.child.kill('SIGKILL');
  await Promise.all(procs.map((p) => p.exited));
  await sink?.close();
  await receiver?.close();
  teardownNetwork();
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(130));
process.on('SIGTERM', () => void shutdown(143));

/** The environment of an app host: everything over the cluster's addresses, nothing on loopback. */
export function appEnv(host: Host): NodeJS.ProcessEnv {
  const dataDir = path.join(workDir, `${host.name}-data`);
  mkdirSync(dataDir, { recursive: true });
  return {
    HOST: host.address,
    PORT: String(appPort),
    PUBLIC_URL: lbUrl,
    DATABASE_URL: databaseUrl(database),
    DATA_DIR: dataDir,
    JWT_SECRET: jwtSecret,
    SMTP_URL: `smtp://${driverAddress}:${smtpPort}`,
    S3_BUCKET: s3.bucket,
    S3_ENDPOINT: `http://${hosts.db.address}:${s3.port}`,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
    // The demo accounts drive the traffic; asked for explicitly, as an exposed host requires.
    SEED_DEMO: 'true',
    TRUST_PROXY: hosts.lb.address,
    WEBHOOK_ALLOW_PRIVATE: 'true',
    RATE_LIMIT_PER_IP: '100000',
    RATE_LIMIT_PER_EMAIL: '100000',
    API_RATE_LIMIT_PER_MINUTE: '100000',
    // Short leases and polls, so the survivor takes over a dead host's work within the run.
    MAIL_POLL_MS: '100',
    MAIL_LEASE_MS: '8000',
    SHUTDOWN_TIMEOUT_MS: '20000',
  };
}

const unit = systemdUnit();

/** An app host's process as deploy/twofold.service starts it, inside the host's namespace. */
export function startApp(host: Host): Proc {
  const p = startProcess(host.name, host, unit.argv, { ...unit.env, ...appEnv(host) });
  procs.push(p);
  return p;
}

export async function appReady(host: Host, p: Proc): Promise<void> {
  await waitFor(
    async () => (await fetch(`http://${host.address}:${appPort}/api/health/ready`)).status === 200,
    `${host.name} to be ready (last output: ${p.output.join('').slice(-800)})`,
    120_000,
  );
}

function ensurePackages(): void {
  const missing = [
    ['ip', 'iproute2'],
    ['nginx', 'nginx-light'],
  ].filter(([bin]) => !commandExists(bin as string));
  if (missing.length === 0) return;
  const packages = missing.map(([, pkg]) => pkg as string);
  console.log(`Installing ${packages.join(', ')} from Debian's packages…`);
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', ...packages], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

function commandExists(bin: string): boolean {
  return ['/usr/sbin', '/usr/bin', '/sbin', '/bin'].some((dir) => existsSync(path.join(dir, bin)));
}

try {
  const started = Date.now();
  cleanWorkDir();
  setupNetwork();
  const postgres = startPostgres();
  procs.push(postgres);
  await waitFor(
    async () => {
      const c = new pg.Client({ connectionString: databaseUrl('postgres') });
      await c.connect();
      await c.query(`create database ${database}`);
      await c.end();
      return true;
    },
    `PostgreSQL at ${hosts.db.address} (output: ${postgres.output.join('').slice(-400)})`,
  );
  procs.push(startS3());
  sink = smtpSink(smtpPort);
  receiver = webhookReceiver(receiverPort);
  await sink.listen();
  await receiver.listen();
  procs.push(startNginx([hosts.app1, hosts.app2], appPort));
  console.log(
    `Cluster up in ${((Date.now() - started) / 1000).toFixed(1)} s: nginx ${hosts.lb.address}, app hosts ${hosts.app1.address} and ${hosts.app2.address}, ` +
      `PostgreSQL and S3 on ${hosts.db.address}, SMTP sink and webhook receiver on ${driverAddress}`,
  );
  const failures = await runScenarios({
    postgres,
    keep: values.keep ?? false,
    lbUrl,
    databaseUrl: databaseUrl(database),
    sink,
    receiver,
    receiverUrl: `http://${driverAddress}:${receiverPort}/hook`,
    startApp,
    appReady,
    drain: (host) => reloadNginx([hosts.app1, hosts.app2], appPort, host ? [host] : []),
  });
  const counts = checkCounts();
  console.log(
    `\ntest:cluster: ${counts.passed} checks passed, ${counts.failed} failed in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  await shutdown(failures === 0 ? 0 : 1);
} catch (error) {
  console.error(error);
  for (const p of procs) console.error(`--- ${p.name} (last output)\n${p.output.join('').slice(-1500)}`);
  await shutdown(1);
}
