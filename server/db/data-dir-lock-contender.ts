import { createInterface } from 'node:readline';
import { DataDirInUseError, lockDataDir } from './data-dir-lock.ts';

/**
 * A process that takes the data directory lock when told to (data-dir-lock.test.ts): one line in
 * ("acquire", "release"), one line out ("won", "in-use", "released"), so a test can start several
 * at the same moment and count the winners.
 */
const dataDir = process.argv[2] ?? '';
let release: (() => void) | undefined;
console.log('ready');
for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'acquire') {
    try {
      release = lockDataDir(dataDir, 'a contender');
      console.log('won');
    } catch (error) {
      console.log(error instanceof DataDirInUseError ? 'in-use' : `error ${String(error)}`);
    }
  } else if (line === 'release') {
    release?.();
    release = undefined;
    console.log('released');
  }
}
