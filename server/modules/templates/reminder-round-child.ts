/**
 * A process that runs the scheduler's reminder round and is killed in the middle of it
 * (reminder-batches.test.ts): after `--hang-at` batches it stops inside the next batch's
 * transaction, its emails rendered and inserted but not committed, prints `hanging` and waits
 * for its SIGKILL.
 *
 *   tsx server/modules/templates/reminder-round-child.ts <postgres URL | PGlite directory> <ISO now> <batch size> <hang at>
 */
import { manualClock } from '../../clock.ts';
import { openDatabase } from '../../db/client.ts';
import { memoryLogger } from '../../http/logger.ts';
import { createScheduler } from '../../jobs/scheduler.ts';
import { workflowBatchHandlers, workflowHandlers } from './workflow.ts';

const [where = '', at = '', size = '50', hangAt = '2'] = process.argv.slice(2);
const database = await openDatabase(
  where.startsWith('postgres') ? { databaseUrl: where } : { pgliteDir: where },
);
const links = {
  publicUrl: 'http://portal.test',
  supportEmail: 'support@twofold.test',
  jwtSecret: 'test-secret-that-is-long-enough-for-hs256-signing',
};
const batch = workflowBatchHandlers(links).reminder;
if (!batch) throw new Error('no batch handler for reminders');
let batches = 0;
const scheduler = createScheduler({
  db: database.db,
  clock: manualClock(new Date(at)),
  logger: memoryLogger(),
  handlers: workflowHandlers(links),
  batchJobs: Number(size),
  batchHandlers: {
    reminder: async (tx, jobs, now) => {
      const results = await batch(tx, jobs, now);
      batches += 1;
      if (batches > Number(hangAt)) {
        process.stdout.write('hanging\n');
        await new Promise(() => {});
      }
      return results;
    },
  },
});
await scheduler.runDue();
process.stdout.write('finished\n');
await database.close();
