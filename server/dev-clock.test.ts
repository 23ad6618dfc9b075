import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { describeOffset, devClock, devClockFile, parseShift, readOffset } from './dev-clock.ts';

const run = promisify(execFile);
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'twofold-clock-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const day = 86_400_000;

describe('the dev clock', () => {
  it('reads shifts as the command takes them, and refuses anything else', () => {
    expect(parseShift('+7d')).toBe(7 * day);
    expect(parseShift('-12h')).toBe(-12 * 3_600_000);
    expect(parseShift('+2w')).toBe(14 * day);
    for (const bad of ['7d', '+7', '+7y', '+1e3d', '', '+7d; rm -rf /']) expect(parseShift(bad)).toBeNull();
    expect(describeOffset(7 * day + 3 * 3_600_000)).toBe('+7d 3h');
    expect(describeOffset(0)).toBe('the real time');
  });

  it('follows the file: a running server sees a move within its poll, and a broken file is the real time', async () => {
    const file = devClockFile(tempDir());
    const moves: number[] = [];
    const clock = devClock(file, (offset) => moves.push(offset), 20);
    try {
      expect(Math.abs(clock.now().getTime() - Date.now())).toBeLessThan(1000);
      writeFileSync(file, JSON.stringify({ offset_ms: 7 * day }));
      await expect.poll(() => moves, { timeout: 5000 }).toEqual([7 * day]);
      expect(clock.now().getTime() - Date.now()).toBeGreaterThan(7 * day - 1000);
      writeFileSync(file, '{not json');
      await expect.poll(() => clock.offsetMs(), { timeout: 5000 }).toBe(0);
    } finally {
      clock.stop();
    }
    writeFileSync(file, JSON.stringify({ offset_ms: 1e15 }));
    expect(readOffset(file)).toBe(0);
  });

  it('is allowed only on the embedded database, on loopback, outside production (or npm start)', () => {
    const base = { DATA_DIR: tempDir(), JWT_SECRET: 'x'.repeat(40) };
    expect(loadConfig({ ...base, NODE_ENV: 'development' }).devClock).toBe(true);
    expect(loadConfig({ ...base, NODE_ENV: 'production' }).devClock).toBe(false);
    // npm start runs React's production build but is the local demo: it says so with DEV_CLOCK.
    expect(loadConfig({ ...base, NODE_ENV: 'production', DEV_CLOCK: 'true' }).devClock).toBe(true);
    expect(loadConfig({ ...base, DEV_CLOCK: 'false' }).devClock).toBe(false);
    expect(
      loadConfig({ ...base, DEV_CLOCK: 'true', DATABASE_URL: 'postgres://u@db.example.org/twofold' })
        .devClock,
    ).toBe(false);
    expect(loadConfig({ ...base, DEV_CLOCK: 'true', HOST: '0.0.0.0' }).devClock).toBe(false);
  });

  it('npm run clock moves, shows and resets, and refuses production and PostgreSQL', async () => {
    const dataDir = tempDir();
    const cli = (args: string[], env: Record<string, string> = {}) =>
      run(process.execPath, ['--import', 'tsx', 'server/dev-clock-cli.ts', ...args], {
        env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, ...env },
      });
    await cli(['+7d']);
    await cli(['+12h']);
    expect(readOffset(devClockFile(dataDir))).toBe(7 * day + 12 * 3_600_000);
    expect((await cli(['show'])).stdout).toContain('+7d 12h');
    await cli(['reset']);
    expect(existsSync(devClockFile(dataDir))).toBe(false);

    await expect(cli(['+7d'], { NODE_ENV: 'production' })).rejects.toMatchObject({
      stderr: expect.stringContaining('NODE_ENV is production'),
    });
    await expect(cli(['+7d'], { DATABASE_URL: 'postgres://u@db.example.org/twofold' })).rejects.toMatchObject(
      {
        stderr: expect.stringContaining('DATABASE_URL'),
      },
    );
    await expect(cli(['tomorrow'])).rejects.toMatchObject({
      stderr: expect.stringContaining('Not a time shift'),
    });
    expect(existsSync(devClockFile(dataDir))).toBe(false);
    expect(() => readFileSync(devClockFile(dataDir))).toThrow();
  });
});
