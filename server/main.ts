import { serve } from '@hono/node-server';
import { createApp } from './app.ts';
import { systemClock } from './clock.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openConfiguredDatabase } from './db/client.ts';
import { demoPassword, demoUsers, seedDemo } from './db/seed.ts';
import { seedDemoMatches } from './db/seed-matches.ts';
import { consoleLogger as logger } from './http/logger.ts';
import { startBillIssuer } from './jobs/bill-issuer.ts';
import { createMailWorker } from './jobs/mail-worker.ts';
import { createScheduler } from './jobs/scheduler.ts';
import { transportFor } from './mail/transport.ts';
import { scheduleDigests } from './modules/templates/digest.ts';
import { workflowHandlers } from './modules/templates/workflow.ts';

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      logger.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const database = await openConfiguredDatabase(config);
  await database.migrate();
  if (config.seedDemo) {
    await seedDemo(database.db);
    await seedDemoMatches(database.db);
  }

  const transport = transportFor(config);
  const worker = createMailWorker({ db: database.db, transport, logger });
  worker.start();
  const billIssuer = startBillIssuer({ db: database.db, logger });
  // Reminders, deadline emails and No Response: durable jobs, taken by one process at a time.
  const scheduler = createScheduler({
    db: database.db,
    clock: systemClock,
    logger,
    handlers: workflowHandlers(config),
    beforeRound: scheduleDigests,
  });
  scheduler.start();

  const { app } = createApp({ config, db: database.db, logger });
  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () => {
    const lines = [
      '',
      `Twofold is running: ${config.publicUrl}/portal`,
      `Database: ${database.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}/pglite`}`,
      config.smtpUrl ? 'Mail: SMTP' : `Mail: dev mailbox at ${config.publicUrl}/dev/mailbox`,
      `API description: ${config.publicUrl}/api/openapi.json`,
    ];
    if (config.seedDemo) {
      lines.push(`Demo sign-ins (password ${demoPassword}):`);
      for (const user of demoUsers) lines.push(`  ${user.email.padEnd(22)} ${user.role}`);
    }
    logger.info(lines.join('\n'));
  });

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info(`${signal}: shutting down`);
    server.close();
    billIssuer.stop();
    void (async () => {
      await worker.stop();
      await scheduler.stop();
      transport.close?.();
      await database.close();
      process.exit(0);
    })();
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

await main();
