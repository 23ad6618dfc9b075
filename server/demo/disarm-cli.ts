// `npm run demo:disarm`: no account keeps the published demo password, so the data can be served
// beyond loopback. Works on the embedded database (stop the server first) and on DATABASE_URL.
import { ConfigError, loadDataLocation } from '../config.ts';
import { openConfiguredDatabase } from '../db/client.ts';
import { DataDirInUseError, lockDataDir } from '../db/data-dir-lock.ts';
import { disarmDemoAccounts } from './demo-accounts.ts';

try {
  const location = loadDataLocation(process.env);
  const release = location.databaseUrl ? () => {} : lockDataDir(location.dataDir, 'demo:disarm');
  try {
    const database = await openConfiguredDatabase(location);
    try {
      await database.migrate();
      const disarmed = await disarmDemoAccounts(database.db);
      console.log(
        disarmed.length === 0
          ? 'No account has the demo password.'
          : [
              'These accounts no longer sign in with the demo password, are not super users and were signed out:',
              ...disarmed.map((a) => `  ${a.email}`),
            ].join('\n'),
      );
    } finally {
      await database.close();
    }
  } finally {
    release();
  }
} catch (error) {
  if (error instanceof ConfigError || error instanceof DataDirInUseError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
