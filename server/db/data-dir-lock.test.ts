import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { lockFileName } from './data-dir-lock.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const children: ChildProcessWithoutNullStreams[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

type Contender = { child: ChildProcessWithoutNullStreams; next: () => Promise<string> };

function contender(dataDir: string): Contender {
  const child = spawn(process.execPath, [
    '--import',
    'tsx',
    path.join(here, 'data-dir-lock-contender.ts'),
    dataDir,
  ]);
  children.push(child);
  const lines: Interface = createInterface({ input: child.stdout });
  const queue: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  lines.on('line', (line) => {
    const take = waiting.shift();
    if (take) take(line);
    else queue.push(line);
  });
  const next = () => {
    const line = queue.shift();
    return line !== undefined
      ? Promise.resolve(line)
      : new Promise<string>((resolve) => waiting.push(resolve));
  };
  return { child, next };
}

/** The pid of a process that has exited: what a crashed server leaves in its lock. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid ?? 0;
}

describe('the data directory lock', () => {
  it('lets exactly one of several simultaneous starts take over a crashed holder’s lock', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'twofold-lock-'));
    const lock = path.join(dataDir, lockFileName);
    const contenders = Array.from({ length: 4 }, () => contender(dataDir));
    for (const c of contenders) expect(await c.next()).toBe('ready');
    const dead = await deadPid();
    // Several rounds: the old takeover (remove the stale file, then create) let two through now
    // and then, depending on how the processes interleaved.
    for (let round = 0; round < 15; round++) {
      writeFileSync(
        lock,
        JSON.stringify({ pid: dead, purpose: 'the server', since: '2026-01-01T00:00:00Z' }),
      );
      for (const c of contenders) c.child.stdin.write('acquire\n');
      const answers = await Promise.all(contenders.map((c) => c.next()));
      expect(
        answers.filter((a) => a === 'won'),
        `round ${round}: ${answers.join(', ')}`,
      ).toHaveLength(1);
      expect(answers.filter((a) => a === 'in-use')).toHaveLength(contenders.length - 1);
      const winner = contenders[answers.indexOf('won')];
      expect(JSON.parse(readFileSync(lock, 'utf8')).pid).toBe(winner?.child.pid);
      for (const c of contenders) c.child.stdin.write('release\n');
      for (const c of contenders) expect(await c.next()).toBe('released');
    }
  }, 120_000);
});
