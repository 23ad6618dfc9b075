import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The embedded database (PGlite) must be opened by one process at a time: a second server, a
 * backup or a restore on a live data directory would read or write pages under the first one.
 * Whoever opens DATA_DIR/pglite holds DATA_DIR/twofold.lock (its pid and what it is doing).
 * A lock left by a process that is gone (kill -9, a crash) is taken over.
 */
export const lockFileName = 'twofold.lock';

export type LockHolder = { pid: number; purpose: string; since: string };

export class DataDirInUseError extends Error {
  override name = 'DataDirInUseError';
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(
      `${dataDir} is in use by ${holder.purpose} (process ${holder.pid}, since ${holder.since}); stop it first`,
    );
  }
}

/** The live process holding the data directory, if any (a lock of a process that is gone is none). */
export function dataDirHolder(dataDir: string): LockHolder | undefined {
  let holder: LockHolder;
  try {
    holder = JSON.parse(readFileSync(path.join(dataDir, lockFileName), 'utf8')) as LockHolder;
  } catch {
    return undefined;
  }
  if (!Number.isInteger(holder.pid) || holder.pid <= 0) return undefined;
  // Our own pid in an old lock means a previous life of this process id (a container's pid 1).
  if (holder.pid === process.pid) return undefined;
  return isAlive(holder.pid) ? holder : undefined;
}

/**
 * Takes the data directory for `purpose` ("the server", "a backup") or throws DataDirInUseError.
 * Returns the release function (safe to call more than once, and from an 'exit' handler).
 */
export function lockDataDir(dataDir: string, purpose: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, lockFileName);
  const mine: LockHolder = { pid: process.pid, purpose, since: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, `${JSON.stringify(mine)}\n`, { flag: 'wx', mode: 0o600 });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        rmSync(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = dataDirHolder(dataDir);
      if (holder) throw new DataDirInUseError(dataDir, holder);
      // Stale: its process is gone. Remove it and try once more (another taker may win the race).
      rmSync(file, { force: true });
    }
  }
  const holder = dataDirHolder(dataDir);
  if (holder) throw new DataDirInUseError(dataDir, holder);
  throw new Error(`could not lock ${dataDir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
