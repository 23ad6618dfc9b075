import { ConfigError, loadConfig } from './config.ts';
import { openConfiguredDatabase } from './db/client.ts';
import { DataDirInUseError, lockDataDir } from './db/data-dir-lock.ts';
import { demoPassword, demoUsers, seedDemo } from './db/seed.ts';
import { seedDemoMatches } from './db/seed-matches.ts';
import { demoAccountsRefusal, demoPasswordAccounts } from './demo/demo-accounts.ts';
import { describeOffset, devClock, devClockFile, readOffset } from './dev-clock.ts';
import { consoleLogger, createLogger, type Logger } from './http/logger.ts';
import { stopTracing, tracingStarted } from './observability/tracing-state.ts';
import { startServer } from './serve.ts';
import { configuredStorage } from './storage/configured-storage.ts';
import { StorageUnavailableError } from './storage/s3-storage.ts';

async function main() {
  let logger: Logger = consoleLogger;
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
  // JSON lines unless a person is reading a terminal (LOG_FORMAT); the demo sign-ins in the banner
  // are published, every other address in a line is scrubbed.
  const logOptions = {
    format: config.logFormat === 'auto' ? (process.stdout.isTTY ? 'human' : 'json') : config.logFormat,
    level: config.logLevel,
  } as const;
  logger = createLogger({ ...logOptions, allowedEmails: demoUsers.map((u) => u.email) });
  if (config.tracing.endpoint && !tracingStarted())
    logger.warn(
      'OTEL_EXPORTER_OTLP_ENDPOINT is set but tracing was not started: start the server with npm run server (or node --import tsx --import ./server/observability/tracing.ts server/main.ts).',
    );

  if (!config.databaseUrl) {
    // The embedded database takes one process at a time (a second server, a backup, a restore).
    try {
      process.on('exit', lockDataDir(config.dataDir, 'the server'));
    } catch (error) {
      if (error instanceof DataDirInUseError) {
        logger.error(error.message);
        process.exit(1);
      }
      throw error;
    }
  }

  const storage = configuredStorage(config);
  try {
    await storage.check();
  } catch (error) {
    if (error instanceof StorageUnavailableError) {
      logger.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const database = await openConfiguredDatabase(config);
  // Several processes may start together on one PostgreSQL: one migrates and seeds at a time.
  const refusal = await database.exclusive(async () => {
    await database.migrate();
    if (config.seedDemo) {
      await seedDemo(database.db);
      await seedDemoMatches(database.db);
      return undefined;
    }
    // Data first served on loopback (demo users seeded) and now exposed: the published password
    // would open the super user to anyone who reaches the port.
    if (!config.exposed) return undefined;
    const accounts = await demoPasswordAccounts(database.db);
    const message = demoAccountsRefusal(accounts, config.host);
    return message ? { message, accounts } : undefined;
  });
  if (refusal) {
    // The operator must see which staff accounts to disarm: this line may name them.
    createLogger({ ...logOptions, allowedEmails: refusal.accounts.map((a) => a.email) }).error(
      refusal.message,
    );
    await database.close();
    process.exit(1);
  }

  // `npm run clock` (issue #30): on a local demo the scheduler's time follows DATA_DIR/dev-clock.json;
  // a move runs the scheduler's round at once, so what fell due goes out within a second.
  let runDue: (() => Promise<number>) | undefined;
  const clockFile = devClockFile(config.dataDir);
  const clock = config.devClock
    ? devClock(clockFile, (offset) => {
        logger.info(
          `Dev clock moved: ${describeOffset(offset)} (${new Date(Date.now() + offset).toISOString()})`,
        );
        runDue?.().catch((error: unknown) =>
          logger.error('scheduler round after the clock moved failed', error),
        );
      })
    : undefined;
  if (!config.devClock && readOffset(clockFile) !== 0)
    logger.warn(
      `${clockFile} is ignored: the dev clock moves only a local npm start on the embedded database.`,
    );

  const running = await startServer({
    config,
    database,
    logger,
    timeoutMs: config.shutdownTimeoutMs,
    app: { storage },
    ...(clock ? { clock } : {}),
  });
  runDue = running.scheduler.runDue;
  const lines = [
    '',
    `Twofold is running: ${config.publicUrl}/portal (listening on ${config.host}:${running.port})`,
    `Database: ${database.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}/pglite`}`,
    `Files: ${storage.description}`,
    config.smtpUrl
      ? 'Mail: SMTP'
      : `Mail: dev mailbox at ${config.publicUrl}/dev/mailbox${config.exposed ? ' (super users signed in to the portal only)' : ''}`,
    `API description: ${config.publicUrl}/api/openapi.json`,
  ];
  if (clock)
    lines.push(
      `Scheduler clock: ${describeOffset(clock.offsetMs())} (move it with npm run clock -- +7d; npm run clock -- reset)`,
    );
  if (config.seedDemo) {
    lines.push(`Demo sign-ins (password ${demoPassword}):`);
    for (const user of demoUsers) lines.push(`  ${user.email.padEnd(22)} ${user.role}`);
  }
  logger.info(lines.join('\n'));
  if (config.exposed && config.seedDemo)
    logger.warn(
      `SEED_DEMO=true on ${config.host}: the demo users and their published password can sign in from other machines.`,
    );

  const shutdown = (signal: string) => {
    logger.info(`${signal}: shutting down (finishing requests and jobs in progress)`);
    void running.shutdown().then(
      // Spans still buffered are exported before the process ends (tracing on only).
      ({ forced }) => stopTracing().then(() => process.exit(forced ? 1 : 0)),
      (error: unknown) => {
        logger.error('shutdown failed', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

await main();
