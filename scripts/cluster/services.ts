import { type ChildProcess, spawn } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { driverAddress, type Host, hosts, inHost, run } from './network.ts';

export const workDir = '/tmp/twofold-cluster';
export const root = path.resolve(import.meta.dirname, '../..');

/** A process of the cluster: its output kept (the last lines are shown when something fails). */
export type Proc = {
  name: string;
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
  alive: () => boolean;
};

export function startProcess(
  name: string,
  host: Host | null,
  argv: string[],
  env: NodeJS.ProcessEnv = {},
): Proc {
  const [command, args] = host ? inHost(host, argv) : [argv[0] as string, argv.slice(1)];
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const keep = (d: Buffer) => {
    output.push(d.toString('utf8'));
    if (output.length > 400) output.splice(0, output.length - 400);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { name, child, output, exited, alive: () => child.exitCode === null && child.signalCode === null };
}

export async function waitFor(
  check: () => Promise<boolean>,
  what: string,
  timeoutMs = 60_000,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

// PostgreSQL: its own cluster in the database host's namespace, listening on that address only.

const pgBin = (() => {
  const base = '/usr/lib/postgresql';
  const version = existsSync(base) ? readdirSync(base).sort().at(-1) : undefined;
  return version ? path.join(base, version, 'bin') : '';
})();

export function startPostgres(): Proc {
  if (!pgBin) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql');
  const dataDir = path.join(workDir, 'pg');
  const socketDir = path.join(workDir, 'pg-socket');
  mkdirSync(dataDir, { recursive: true });
  mkdirSync(socketDir, { recursive: true });
  chownSync(dataDir, uid('postgres'), gid('postgres'));
  chownSync(socketDir, uid('postgres'), gid('postgres'));
  chmodSync(dataDir, 0o700);
  run('runuser', [
    '-u',
    'postgres',
    '--',
    path.join(pgBin, 'initdb'),
    '-D',
    dataDir,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
  ]);
  appendFileSync(
    path.join(dataDir, 'pg_hba.conf'),
    `host all all ${hosts.db.address.replace(/\.\d+$/, '.0')}/24 trust\n`,
  );
  return startProcess('postgres', hosts.db, [
    'runuser',
    '-u',
    'postgres',
    '--',
    path.join(pgBin, 'postgres'),
    '-D',
    dataDir,
    '-c',
    `listen_addresses=${hosts.db.address}`,
    '-c',
    `unix_socket_directories=${socketDir}`,
    '-c',
    'max_connections=200',
  ]);
}

function uid(user: string): number {
  return Number(run('id', ['-u', user]).trim());
}
function gid(user: string): number {
  return Number(run('id', ['-g', user]).trim());
}

export const databaseUrl = (name: string) => `postgres://postgres@${hosts.db.address}:5432/${name}`;

// S3: s3rver on the database host (another process, another port, the same network hop).

export const s3 = { port: 4569, bucket: 'twofold' };
export function startS3(): Proc {
  const directory = path.join(workDir, 's3');
  mkdirSync(directory, { recursive: true });
  return startProcess('s3rver', hosts.db, [
    process.execPath,
    '--import',
    'tsx',
    path.join(root, 'scripts/cluster/s3.ts'),
    hosts.db.address,
    String(s3.port),
    directory,
    s3.bucket,
  ]);
}

// nginx: the load balancer host.

const nginxDir = path.join(workDir, 'nginx');

export function startNginx(appHosts: Host[], appPort: number): Proc {
  mkdirSync(nginxDir, { recursive: true });
  const config = path.join(nginxDir, 'nginx.conf');
  writeFileSync(config, nginxConfig(appHosts, appPort, nginxDir));
  return startProcess('nginx', hosts.lb, ['nginx', '-c', config, '-p', nginxDir]);
}

/**
 * Takes hosts out of the load balancer (or puts them back) the way an operator does before a
 * restart: the configuration marks them `down`, and a reload (SIGHUP) starts new workers with it
 * while the old ones finish the requests they hold. Resolves once the reload has taken effect.
 */
export async function reloadNginx(appHosts: Host[], appPort: number, drained: Host[]): Promise<void> {
  writeFileSync(path.join(nginxDir, 'nginx.conf'), nginxConfig(appHosts, appPort, nginxDir, drained));
  const pid = Number(readFileSync(path.join(nginxDir, 'nginx.pid'), 'utf8').trim());
  const generation = readFileSync(path.join(nginxDir, 'error.log'), 'utf8').split('\n').length;
  process.kill(pid, 'SIGHUP');
  await waitFor(
    async () =>
      readFileSync(path.join(nginxDir, 'error.log'), 'utf8')
        .split('\n')
        .slice(generation - 1)
        .some((line) => line.includes('gracefully shutting down')),
    'nginx to reload',
    10_000,
  );
}

/**
 * The load balancer's configuration: `deploy/nginx.conf` (the file docs/deploy.md shows), with
 * the cluster's addresses in place of its example ones, this run's pid and log files, and
 * `down` on the hosts taken out for a restart.
 */
export function nginxConfig(appHosts: Host[], appPort: number, dir: string, drained: Host[] = []): string {
  const template = readFileSync(path.join(root, 'deploy/nginx.conf'), 'utf8');
  const servers = appHosts
    .map(
      (h) =>
        `    server ${h.address}:${appPort} max_fails=1 fail_timeout=3s${drained.includes(h) ? ' down' : ''};`,
    )
    .join('\n');
  const config = template
    .replace(
      /^ {4}server \d+\.\d+\.\d+\.\d+:\d+ .*;\n(?: {4}server \d+\.\d+\.\d+\.\d+:\d+ .*;\n)*/m,
      `${servers}\n`,
    )
    .replace(/listen \d+\.\d+\.\d+\.\d+:80;/, `listen ${hosts.lb.address}:80;`)
    .replace(/^worker_processes auto;/m, 'worker_processes 1;')
    .replace(/^http \{/m, `http {\n  access_log ${dir}/access.log;`);
  if (!config.includes(`listen ${hosts.lb.address}:80;`) || !config.includes(appHosts[0]?.address ?? '?'))
    throw new Error(
      'deploy/nginx.conf no longer has the upstream servers and listen line the cluster replaces',
    );
  return `daemon off;\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log notice;\n${config}`;
}

/**
 * How `deploy/twofold.service` starts an app host: ExecStart's command (with this Node) and its
 * Environment= lines; the host's own settings stand for its EnvironmentFile.
 */
export function systemdUnit(): { argv: string[]; env: Record<string, string> } {
  const unit = readFileSync(path.join(root, 'deploy/twofold.service'), 'utf8');
  const execStart = /^ExecStart=(.+)$/m.exec(unit)?.[1]?.trim().split(/\s+/) ?? [];
  if (execStart[0] !== '/usr/bin/node')
    throw new Error('deploy/twofold.service: ExecStart must run /usr/bin/node');
  const env = Object.fromEntries(
    [...unit.matchAll(/^Environment=([A-Z_]+)=(.*)$/gm)].map((m) => [m[1] as string, m[2] as string]),
  );
  return { argv: [process.execPath, ...execStart.slice(1)], env };
}

// The SMTP sink and the webhook receiver live on the driver's own address.

/** Messages and deliveries being received right now, per sending address. */
export type Busy = Map<string, number>;
const enter = (busy: Busy, address: string) => busy.set(address, (busy.get(address) ?? 0) + 1);
const leave = (busy: Busy, address: string) => busy.set(address, (busy.get(address) ?? 1) - 1);

/**
 * Holding a sender: what arrives whole from a held address gets no answer until `release`, as
 * from a server that has taken a message in but is slow to say so. The cluster test holds the
 * host it is about to kill, so that at the kill that host is certainly mid-send (its worker
 * waiting for an answer, the row claimed and not yet recorded) instead of hoping to catch it
 * there in a 15 ms window. Released answers go to a dead connection and are lost, as they would
 * be; the message still counts as received (the server has it).
 */
class Holds {
  private held = new Set<string>();
  private waiting: (() => void)[] = [];
  hold(address: string): void {
    this.held.add(address);
  }
  /** Answers everything held and stops holding. */
  release(): void {
    this.held.clear();
    for (const answer of this.waiting.splice(0)) answer();
  }
  /** Runs `answer` now, or at `release` when `from` is held. */
  answer(from: string, answer: () => void): void {
    if (this.held.has(from)) this.waiting.push(answer);
    else answer();
  }
}

/**
 * Accepts every message and records its Message-ID. Accepting takes `delayMs`, as a real server's
 * does, so a sender can be killed while its message is on the wire.
 */
export function smtpSink(port: number, delayMs = 15) {
  const received: string[] = [];
  /** When each of `received` had arrived whole, before its answer (performance.now() of this process). */
  const receivedAt: number[] = [];
  const busy: Busy = new Map();
  const holds = new Holds();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const from = session.remoteAddress;
      enter(busy, from);
      let text = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        if (text.length < 64_000) text += chunk;
      });
      stream.on('end', () => {
        const arrived = performance.now();
        setTimeout(() => {
          holds.answer(from, () => {
            leave(busy, from);
            received.push(/^message-id:\s*(<[^>]+>)/im.exec(text)?.[1] ?? '(none)');
            receivedAt.push(arrived);
            callback();
          });
        }, delayMs);
      });
    },
  });
  // A sender killed mid-message resets its connection: that is the test, not a fault of the sink.
  server.on('error', () => {});
  return {
    received,
    receivedAt,
    busy,
    holds,
    listen: () => new Promise<void>((resolve) => server.listen(port, driverAddress, () => resolve())),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Answers every delivery 200 after `delayMs` and records its `webhook-id`. */
export function webhookReceiver(port: number, delayMs = 15) {
  const received: string[] = [];
  /** When each of `received` had arrived whole, before its answer (performance.now() of this process). */
  const receivedAt: number[] = [];
  const busy: Busy = new Map();
  const holds = new Holds();
  const server: Server = createServer((req, res) => {
    const from = req.socket.remoteAddress ?? '';
    enter(busy, from);
    req.resume();
    req.on('end', () => {
      const arrived = performance.now();
      setTimeout(() => {
        holds.answer(from, () => {
          leave(busy, from);
          received.push(String(req.headers['webhook-id'] ?? '(none)'));
          receivedAt.push(arrived);
          if (!res.destroyed) res.writeHead(200).end('ok');
        });
      }, delayMs);
    });
  });
  return {
    received,
    receivedAt,
    busy,
    holds,
    listen: () => new Promise<void>((resolve) => server.listen(port, driverAddress, () => resolve())),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function cleanWorkDir(): void {
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
}
