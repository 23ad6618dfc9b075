// `npm run reset-demo`: the embedded database and uploaded files under DATA_DIR back to the demo
// data `npm start` seeds on a first start. Stop the server first.
import { ConfigError, loadDataLocation } from '../config.ts';
import { DataDirInUseError } from '../db/data-dir-lock.ts';
import { ResetDemoError, resetDemo } from './reset-demo.ts';

try {
  const location = loadDataLocation(process.env);
  const { dataDir } = await resetDemo(location);
  console.log(`The demo data in ${dataDir} is fresh again: npm start serves it (password twofold-demo).`);
} catch (error) {
  if (error instanceof ConfigError || error instanceof DataDirInUseError || error instanceof ResetDemoError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
