import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { lockSync } from 'proper-lockfile';

/**
 * The embedded database (PGlite) must be opened by one process at a time: a second server, a
 * backup or a restore on a live data directory would read or write pages under the first one.
 * Whoever opens DATA_DIR/pglite holds DATA_DIR/twofold.lock (its pid and what it is doing).
 * A lock left by a process that is gone (kill -9, a crash) is taken over.
 *
 * Taking the lock (look at the holder, then write ours) is done under a short-lived
 * `proper-lockfile` lock (an atomic mkdir, DATA_DIR/twofold.lock.acquire), so two starts after a
 * crash cannot both find the dead holder and both write themselves in: the second one in reads
 * the first one's lock. The long-held lock stays a pid file rather than proper-lockfile's own:
 * its freshness is an mtime refreshed by a timer, and PGlite, which runs in the server's thread,
 * can hold the event loop past any stale threshold (a long migration), which would hand a live
 * server's database to a second process.
 */
export const lockFileName = 'twofold.lock';
const acquireLockName = `${lockFileName}.acquire`;
/** An acquisition takes milliseconds; one whose process died holding it is taken over after this. */
const acquireStaleMs = 5000;
/** How long a start waits for another start's acquisition before giving up. */
const acquireWaitMs = 10_000;

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
  const releaseAcquire = acquireExclusively(dataDir);
  try {
    const holder = dataDirHolder(dataDir);
    if (holder) throw new DataDirInUseError(dataDir, holder);
    // No live holder: the file is absent or stale (its process is gone), and no one else is
    // between these two lines, so overwriting it is the takeover.
    writeFileSync(file, `${JSON.stringify(mine)}\n`, { mode: 0o600 });
  } finally {
    releaseAcquire();
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    rmSync(file, { force: true });
  };
}

/**
 * Holds DATA_DIR/twofold.lock.acquire (proper-lockfile) for one acquisition. The sync API takes
 * no retries, so another start's acquisition (milliseconds) is waited out here.
 */
function acquireExclusively(dataDir: string): () => void {
  const deadline = Date.now() + acquireWaitMs;
  for (;;) {
    try {
      return lockSync(dataDir, {
        lockfilePath: path.join(dataDir, acquireLockName),
        stale: acquireStaleMs,
        realpath: false,
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED' || Date.now() > deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    }
  }
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
