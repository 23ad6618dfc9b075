import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { ConfigError, isLoopbackHost, loadDataLocation } from './config.ts';
import { describeOffset, devClockFile, maxOffsetMs, parseShift, readOffset } from './dev-clock.ts';

/**
 * `npm run clock -- +7d | -1d | show | reset`: moves the scheduler's clock of a local `npm start`
 * server (issue #30), so reminders due in a week go out now. Refused for production
 * (NODE_ENV=production), for a PostgreSQL deployment (DATABASE_URL) and for an exposed HOST: the
 * server ignores the file in those cases too.
 */
const usage = 'Usage: npm run clock -- +7d | +12h | -1d | +2w | show | reset';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const [arg] = process.argv.slice(2);
if (!arg || arg === '--help') fail(usage);
if (process.env.NODE_ENV === 'production')
  fail('Refused: NODE_ENV is production. The clock moves only on a local demo (npm start).');
let location: ReturnType<typeof loadDataLocation>;
try {
  location = loadDataLocation(process.env);
} catch (error) {
  fail(error instanceof ConfigError ? error.message : String(error));
}
if (location.databaseUrl)
  fail('Refused: DATABASE_URL is set. The clock moves only on the embedded database (npm start).');
if (process.env.HOST && !isLoopbackHost(process.env.HOST))
  fail(`Refused: HOST=${process.env.HOST} lets other machines reach the server.`);

const file = devClockFile(location.dataDir);
const current = readOffset(file);
const report = (offset: number) =>
  console.log(
    `Server clock: ${describeOffset(offset)} (${new Date(Date.now() + offset).toISOString()}).\n` +
      'A running `npm start` server follows it within a second and runs the reminders now due; ' +
      'their emails land in the dev mailbox (/dev/mailbox).',
  );

if (arg === 'show') {
  report(current);
} else if (arg === 'reset') {
  if (existsSync(file)) rmSync(file);
  report(0);
} else {
  const shift = parseShift(arg);
  if (shift === null) fail(`Not a time shift: ${arg}\n${usage}`);
  const offset = current + shift;
  if (Math.abs(offset) > maxOffsetMs) fail('Refused: more than ten years from the real time.');
  mkdirSync(location.dataDir, { recursive: true });
  writeFileSync(file, `${JSON.stringify({ offset_ms: offset, set_at: new Date().toISOString() })}\n`);
  report(offset);
}
