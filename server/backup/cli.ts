// `npm run backup [-- --out <file>]` and `npm run restore -- <file> [--force]`: the embedded
// default's data directory (PGlite, uploaded files, the generated JWT secret) in one archive.
// Run them with the same DATA_DIR the server uses, while the server is stopped.
import { parseArgs } from 'node:util';
import { ConfigError, loadDataLocation } from '../config.ts';
import { DataDirInUseError } from '../db/data-dir-lock.ts';
import { BackupError, backupDataDir, defaultBackupName, restoreDataDir } from './backup.ts';

const usage = `Usage:
  npm run backup [-- --out <file>]      write DATA_DIR to one archive (default ./${defaultBackupName(new Date(0)).replace('19700101-000000', '<date>-<time>')})
  npm run restore -- <file> [--force]   restore an archive into DATA_DIR (new or empty unless --force)`;

async function main(argv: string[]) {
  const [command, ...rest] = argv;
  const location = loadDataLocation(process.env);
  if (location.databaseUrl) {
    throw new BackupError(
      'DATABASE_URL is set: this deployment keeps its data in PostgreSQL. Back it up with pg_dump and ' +
        'restore with pg_restore (README, "Running in production"); npm run backup is for the embedded database.',
    );
  }
  if (command === 'backup') {
    const { values, positionals } = parseArgs({
      args: rest,
      options: { out: { type: 'string' } },
      allowPositionals: true,
    });
    const output = values.out ?? positionals[0] ?? defaultBackupName();
    const result = await backupDataDir({ dataDir: location.dataDir, output });
    console.log(
      `Backed up ${location.dataDir} to ${result.file} (${result.bytes} bytes: the database, ${result.files} uploaded files${result.jwtSecret ? ', the JWT secret' : ''}).`,
    );
    if (location.jwtSecretFromEnvironment) {
      console.warn(
        'JWT_SECRET is set in the environment: it is not in the archive; keep it with the backup.',
      );
    }
    if (location.s3Bucket) {
      console.warn(
        `Uploaded files live in the S3 bucket ${location.s3Bucket}, not in this archive: back up the bucket too.`,
      );
    }
    return;
  }
  if (command === 'restore') {
    const { values, positionals } = parseArgs({
      args: rest,
      options: { force: { type: 'boolean' } },
      allowPositionals: true,
    });
    const archive = positionals[0];
    if (!archive || positionals.length > 1) throw new BackupError(usage);
    const result = await restoreDataDir({ archive, dataDir: location.dataDir, force: values.force ?? false });
    console.log(
      `Restored the backup of ${result.createdAt} into ${result.dataDir} (the database, ${result.files} uploaded files${result.jwtSecret ? ', the JWT secret' : ''}).`,
    );
    if (result.movedAside)
      console.log(`The previous contents of DATA_DIR were moved to ${result.movedAside}.`);
    return;
  }
  throw new BackupError(usage);
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  if (error instanceof BackupError || error instanceof ConfigError || error instanceof DataDirInUseError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
