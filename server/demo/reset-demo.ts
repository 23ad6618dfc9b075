import { rmSync } from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../db/client.ts';
import { lockDataDir } from '../db/data-dir-lock.ts';
import { seedDemo } from '../db/seed.ts';
import { seedDemoMatches } from '../db/seed-matches.ts';

/** Why a demo reset was refused (the message says what to do instead). */
export class ResetDemoError extends Error {
  override name = 'ResetDemoError';
}

/**
 * `npm run reset-demo`: the embedded default's data back to a fresh demo. The database and the
 * uploaded files under DATA_DIR go; the generated JWT secret stays, so nothing else changes. The
 * new database is migrated and seeded at once, as `npm start` would on a first start. Refused
 * while a server (or a backup) holds the data directory, and for a PostgreSQL deployment.
 */
export async function resetDemo(options: {
  dataDir: string;
  databaseUrl: string | undefined;
  now?: Date;
}): Promise<{ dataDir: string }> {
  if (options.databaseUrl)
    throw new ResetDemoError(
      'DATABASE_URL is set: reset-demo only resets the embedded database under DATA_DIR. For PostgreSQL, drop and recreate the database, then start the server with SEED_DEMO=true.',
    );
  const release = lockDataDir(options.dataDir, 'a demo reset');
  try {
    for (const part of ['pglite', 'files'])
      rmSync(path.join(options.dataDir, part), { recursive: true, force: true });
    const database = await openDatabase({ pgliteDir: path.join(options.dataDir, 'pglite') });
    try {
      await database.migrate();
      await seedDemo(database.db);
      await seedDemoMatches(database.db, options.now);
    } finally {
      await database.close();
    }
  } finally {
    release();
  }
  return { dataDir: options.dataDir };
}
