import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Clock } from './clock.ts';

/**
 * The dev clock (issue #30): `npm run clock -- +7d` writes an offset into DATA_DIR/dev-clock.json
 * and a running `npm start` server reads it, so a new user can watch a week of reminders go out
 * in the dev mailbox. Only the embedded database's folder carries it, and the server honours it
 * only when `config.devClock` allows (embedded database, loopback, not production).
 */
export const devClockFileName = 'dev-clock.json';
export const devClockFile = (dataDir: string) => path.join(dataDir, devClockFileName);

/** Ten years either way: beyond that a typo, not a demonstration. */
export const maxOffsetMs = 10 * 366 * 24 * 60 * 60 * 1000;

/** The offset the file holds (ms), or 0 when it is missing or not one. */
export function readOffset(file: string): number {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return 0;
  }
  try {
    const value = (JSON.parse(text) as { offset_ms?: unknown }).offset_ms;
    return typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= maxOffsetMs ? value : 0;
  } catch {
    return 0;
  }
}

/** `+7d`, `+12h`, `-30m`, `+2w`: an offset to add, in ms; null when it is not one. */
export function parseShift(text: string): number | null {
  const m = /^([+-])(\d{1,5})([mhdw])$/.exec(text.trim());
  if (!m) return null;
  const unit = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 }[m[3] as 'm' | 'h' | 'd' | 'w'];
  return (m[1] === '-' ? -1 : 1) * Number(m[2]) * unit;
}

export type DevClock = Clock & { offsetMs: () => number; stop: () => void };

/**
 * A clock `offset` ahead of the system's, following the file: its content is read every
 * `intervalMs` (a file that does not exist yet, or is replaced by an editor's rename, is simply
 * read again), and `onChange` runs after each change (the server runs the scheduler's round at
 * once). Not fs.watchFile: its first stat is asynchronous, so a write made before that stat
 * finished was taken as the starting state and never reported.
 */
export function devClock(file: string, onChange: (offsetMs: number) => void, intervalMs = 500): DevClock {
  let offset = readOffset(file);
  const listener = () => {
    const next = readOffset(file);
    if (next === offset) return;
    offset = next;
    onChange(offset);
  };
  const timer = setInterval(listener, intervalMs);
  timer.unref();
  return {
    now: () => new Date(Date.now() + offset),
    offsetMs: () => offset,
    stop: () => clearInterval(timer),
  };
}

/** "+7d 3h" for the server's log and the command's answer. */
export function describeOffset(ms: number): string {
  if (ms === 0) return 'the real time';
  const sign = ms < 0 ? '-' : '+';
  let rest = Math.abs(ms);
  const parts: string[] = [];
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
  ] as const) {
    const n = Math.floor(rest / size);
    if (n > 0) parts.push(`${n}${unit}`);
    rest -= n * size;
  }
  return `${sign}${parts.join(' ') || '0m'}`;
}
