import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import * as XLSX from '@e965/xlsx';
import { readUploadedTable } from '../server/modules/donations/import-parse.ts';
import { closeTableReader, readUploadedTableOffThread } from '../server/modules/donations/table-reader.ts';
import { zipBombXlsx } from '../server/modules/donations/zip-bomb.fixture.ts';

/**
 * The upload attack of issue 29, against a real server process (`tsx server/main.ts` in
 * `--repo`, on a fresh PGlite data folder): a 2 MB .xlsx whose sheet inflates to 2 GiB, posted
 * to …/donation/import-file/Test by a write-level user, while a cheap request (GET /api/health)
 * is sent every 50 ms. Prints the answer and its time, the slowest cheap request meanwhile, and
 * the server's memory (RSS now and peak, from /proc) before and after. Then the time of a Test
 * of an honest 4000-row .xlsx (median of `--runs`), the figure the worker thread costs or saves.
 * Run it with `--repo` pointing at another checkout to measure that code the same way. Last, in
 * this process and with this checkout's code, the same file read on this thread and in a worker
 * (alternately, medians): what moving the reading off the event loop costs the answer.
 */
const { values } = parseArgs({
  options: {
    repo: { type: 'string', default: process.cwd() },
    port: { type: 'string', default: '8812' },
    runs: { type: 'string', default: '9' },
    gib: { type: 'string', default: '2' },
  },
});
const port = Number(values.port);
const base = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'twofold-bomb-'));

const server = spawn('npx', ['tsx', 'server/main.ts'], {
  cwd: values.repo,
  env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, SEED_DEMO: 'true', NODE_ENV: 'production' },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let output = '';
server.stdout.on('data', (chunk: Buffer) => {
  output += chunk.toString();
});
server.stderr.on('data', (chunk: Buffer) => {
  output += chunk.toString();
});
const stop = () => {
  server.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
};

async function until(check: () => boolean, what: string, ms = 120_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The server process is npx → tsx → node: the node process listening is the deepest child. */
function serverPid(): number {
  let pid = server.pid ?? 0;
  for (;;) {
    let children: string;
    try {
      children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    } catch {
      return pid;
    }
    const first = children.split(/\s+/)[0];
    if (!first) return pid;
    pid = Number(first);
  }
}

function memory(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMb: Math.round(kb('VmRSS') / 1024), peakMb: Math.round(kb('VmHWM') / 1024) };
}

try {
  await until(() => output.includes('Twofold is running'), 'the server');
  const pid = serverPid();
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'writer@twofold.test', password: 'twofold-demo' }),
  });
  const token = ((await login.json()) as { access_token: string }).access_token;
  // The demo writer has write access to one organization (Hope Harbor).
  const me = (await (
    await fetch(`${base}/api/common`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { orgs: Array<{ id: number }> };
  const orgId = me.orgs[0]?.id;
  if (!orgId) throw new Error('the demo writer has no organization');
  const testCall = async (name: string, bytes: Uint8Array) => {
    const form = new FormData();
    form.set('donations', new File([bytes as BlobPart], name));
    const started = performance.now();
    try {
      const res = await fetch(`${base}/api/organization/${orgId}/donation/import-file/Test`, {
        method: 'POST',
        body: form,
        headers: { authorization: `Bearer ${token}` },
      });
      const body = await res.text();
      return {
        status: String(res.status),
        body: body.slice(0, 200),
        ms: Math.round(performance.now() - started),
      };
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? String(error);
      return { status: 'no answer', body: cause, ms: Math.round(performance.now() - started) };
    }
  };

  // The honest file first: its median Test time (the first call also starts the worker).
  const rows = [
    ['Donor Name', 'Donor Email', 'Gift Amount', 'Donation Date', 'Employer', 'Transaction ID'],
    ...Array.from({ length: 4000 }, (_, i) => [
      `Donor ${i}`,
      `donor${i}@example.org`,
      25 + (i % 500),
      '2025-03-01',
      `Company ${i % 300}`,
      `tx-${i}`,
    ]),
  ];
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Gifts');
  const honest = new Uint8Array(XLSX.write(book, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer);
  const first = await testCall('gifts.xlsx', honest);
  const times: number[] = [];
  for (let i = 0; i < Number(values.runs); i++) {
    // A changed byte of the file name keeps the kept-read cache out of the figure.
    times.push((await testCall(`gifts-${i}.xlsx`, honest)).ms);
  }
  times.sort((a, b) => a - b);
  console.log(
    `4000-row .xlsx (${(honest.byteLength / 1024).toFixed(0)} KB) Test: first ${first.ms} ms (status ${first.status}), median of ${times.length} ${times[Math.floor(times.length / 2)]} ms`,
  );

  for (const declared of ['honest', 'lying'] as const) {
    const bomb = zipBombXlsx({ inflatedBytes: Number(values.gib) * 1024 ** 3, declared });
    const before = memory(pid);
    let slowest = 0;
    let pings = 0;
    let failed = 0;
    let done = false;
    const pinger = (async () => {
      while (!done) {
        const started = performance.now();
        await fetch(`${base}/api/health`)
          .then((r) => r.arrayBuffer())
          .catch(() => failed++);
        slowest = Math.max(slowest, performance.now() - started);
        pings++;
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const answer = await testCall('gifts.xlsx', bomb);
    done = true;
    await pinger;
    const alive = server.exitCode === null && readFileSync(`/proc/${pid}/status`, { flag: 'r' }).length > 0;
    const after = alive ? memory(pid) : { rssMb: 0, peakMb: 0 };
    console.log(
      `zip bomb, ${declared} headers: ${(bomb.byteLength / 1024 / 1024).toFixed(1)} MB file, ${values.gib} GiB inflated → ${answer.status} in ${answer.ms} ms: ${answer.body}`,
    );
    console.log(
      `  GET /api/health meanwhile: ${pings} requests (${failed} failed), slowest ${Math.round(slowest)} ms; server RSS ${before.rssMb} → ${after.rssMb} MB (peak ${after.peakMb} MB)`,
    );
    if (!alive) {
      console.log(`  the server stopped; its last words:\n${output.slice(-1500)}`);
      break;
    }
  }
} finally {
  stop();
}

{
  const rows = [
    ['Donor Name', 'Donor Email', 'Gift Amount', 'Donation Date', 'Employer', 'Transaction ID'],
    ...Array.from({ length: 4000 }, (_, i) => [
      `Donor ${i}`,
      `donor${i}@example.org`,
      25 + (i % 500),
      '2025-03-01',
      `Company ${i % 300}`,
      `tx-${i}`,
    ]),
  ];
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Gifts');
  const bytes = new Uint8Array(XLSX.write(book, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer);
  const here: number[] = [];
  const worker: number[] = [];
  // One unmeasured reading each way: the worker's start and both JITs' warm-up.
  await readUploadedTable('gifts.xlsx', bytes);
  await readUploadedTableOffThread('gifts.xlsx', bytes);
  for (let i = 0; i < Math.max(5, Number(values.runs)); i++) {
    let started = performance.now();
    await readUploadedTable('gifts.xlsx', bytes);
    here.push(performance.now() - started);
    started = performance.now();
    await readUploadedTableOffThread('gifts.xlsx', bytes);
    worker.push(performance.now() - started);
  }
  const median = (list: number[]) => Math.round(list.sort((a, b) => a - b)[list.length >> 1] ?? 0);
  console.log(
    `4000-row .xlsx read (zip check + parse): on the event loop ${median(here)} ms, in a worker thread ${median(worker)} ms (medians of ${here.length})`,
  );
  await closeTableReader();
}
