import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { create, extract } from 'tar';
import { lockDataDir } from '../db/data-dir-lock.ts';
import { storedNamePattern } from '../storage/storage.ts';

/**
 * Backup and restore of the embedded default: one .tar.gz holding the PGlite database (its data
 * directory archive, `dumpDataDir`), the uploaded files (DATA_DIR/files) and the generated JWT
 * secret (DATA_DIR/jwt-secret), with a manifest. PostgreSQL deployments use pg_dump instead.
 */

/** A backup or restore that cannot go ahead; the message says why and what to do. */
export class BackupError extends Error {
  override name = 'BackupError';
}

export const backupFormat = 'twofold-backup';
export const backupVersion = 1;

type Manifest = {
  format: typeof backupFormat;
  version: number;
  created_at: string;
  postgres: string;
  files: number;
  jwt_secret: boolean;
};

const manifestName = 'manifest.json';
const databaseName = 'database.tar';
const filesName = 'files';
const secretName = 'jwt-secret';

/** twofold-backup-20261124-203500.tar.gz */
export function defaultBackupName(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `twofold-backup-${stamp}.tar.gz`;
}

/**
 * Writes one archive of DATA_DIR. Refuses while the server (or another backup) holds the data
 * directory, and never leaves a half-written archive under the final name.
 */
export async function backupDataDir(options: { dataDir: string; output: string }) {
  const dataDir = path.resolve(options.dataDir);
  const output = path.resolve(options.output);
  const pgliteDir = path.join(dataDir, 'pglite');
  if (!existsSync(path.join(pgliteDir, 'PG_VERSION'))) {
    throw new BackupError(`${dataDir} holds no embedded database (no pglite folder): nothing to back up`);
  }
  if (existsSync(output)) throw new BackupError(`${output} exists already; choose another file name`);

  const release = lockDataDir(dataDir, 'a backup');
  const staging = path.join(dataDir, `.backup-${randomBytes(6).toString('hex')}`);
  const partial = `${output}.partial-${randomBytes(4).toString('hex')}`;
  try {
    mkdirSync(staging, { mode: 0o700 });
    const database = new PGlite({ dataDir: pgliteDir });
    let postgres: string;
    try {
      await database.waitReady;
      // Everything written so far into the data files, so the archive needs no WAL replay.
      await database.exec('CHECKPOINT');
      postgres = (await database.query<{ v: string }>('select version() as v')).rows[0]?.v ?? 'unknown';
      const dump = await database.dumpDataDir('none');
      writeFileSync(path.join(staging, databaseName), new Uint8Array(await dump.arrayBuffer()), {
        mode: 0o600,
      });
    } finally {
      await database.close();
    }

    const stored = existsSync(path.join(dataDir, filesName))
      ? readdirSync(path.join(dataDir, filesName)).filter((name) => storedNamePattern.test(name))
      : [];
    mkdirSync(path.join(staging, filesName), { mode: 0o700 });
    for (const name of stored) {
      linkOrCopy(path.join(dataDir, filesName, name), path.join(staging, filesName, name));
    }
    const secret = path.join(dataDir, secretName);
    const hasSecret = existsSync(secret);
    if (hasSecret) linkOrCopy(secret, path.join(staging, secretName));

    const manifest: Manifest = {
      format: backupFormat,
      version: backupVersion,
      created_at: new Date().toISOString(),
      postgres,
      files: stored.length,
      jwt_secret: hasSecret,
    };
    writeFileSync(path.join(staging, manifestName), `${JSON.stringify(manifest, null, 2)}\n`, {
      mode: 0o600,
    });

    const entries = [manifestName, databaseName, filesName, ...(hasSecret ? [secretName] : [])];
    await create({ gzip: true, file: partial, cwd: staging, portable: true, mode: 0o600 }, entries);
    chmodSync(partial, 0o600);
    renameSync(partial, output);
    return { file: output, files: stored.length, jwtSecret: hasSecret, bytes: statSync(output).size };
  } finally {
    rmSync(staging, { recursive: true, force: true });
    rmSync(partial, { force: true });
    release();
  }
}

/**
 * Restores an archive into DATA_DIR. The directory must be new or empty; with `force`, existing
 * contents are moved aside to `<DATA_DIR>.before-restore-<time>` (never deleted) once the restored
 * copy is complete. Refuses while a server holds the directory.
 */
export async function restoreDataDir(options: { archive: string; dataDir: string; force?: boolean }) {
  const archive = path.resolve(options.archive);
  const dataDir = path.resolve(options.dataDir);
  if (!existsSync(archive)) throw new BackupError(`${archive} does not exist`);
  const existing = existsSync(dataDir) ? readdirSync(dataDir) : [];
  if (existing.length > 0 && !options.force) {
    throw new BackupError(
      `${dataDir} already holds data (${existing.slice(0, 4).join(', ')}${existing.length > 4 ? ', ...' : ''}); ` +
        'restore into a new or empty DATA_DIR, or add --force to replace it (its contents are moved aside, not deleted)',
    );
  }
  // A running server keeps its own copy in memory; replacing the files under it would be lost or worse.
  const release = existing.length > 0 ? lockDataDir(dataDir, 'a restore') : () => {};

  mkdirSync(path.dirname(dataDir), { recursive: true });
  const staging = `${dataDir}.restoring-${randomBytes(6).toString('hex')}`;
  try {
    mkdirSync(staging, { mode: 0o700 });
    const allowed = (entry: string) =>
      entry === manifestName ||
      entry === databaseName ||
      entry === secretName ||
      entry === filesName ||
      entry === `${filesName}/` ||
      (entry.startsWith(`${filesName}/`) && storedNamePattern.test(entry.slice(filesName.length + 1)));
    try {
      await extract({
        file: archive,
        cwd: staging,
        strict: true,
        filter: (entry, stat) =>
          allowed(entry) && 'type' in stat && (stat.type === 'File' || stat.type === 'Directory'),
      });
    } catch (error) {
      throw new BackupError(`${archive} is not a Twofold backup (${(error as Error).message})`);
    }
    const manifest = readManifest(path.join(staging, manifestName), archive);
    const databaseFile = path.join(staging, databaseName);
    if (!existsSync(databaseFile)) throw new BackupError(`${archive} has no database in it`);

    const database = new PGlite({
      dataDir: path.join(staging, 'pglite'),
      loadDataDir: new Blob([readFileSync(databaseFile)]),
    });
    try {
      await database.waitReady;
      await database.query('select 1');
    } finally {
      await database.close();
    }
    rmSync(databaseFile);
    rmSync(path.join(staging, manifestName));
    mkdirSync(path.join(staging, filesName), { recursive: true, mode: 0o700 });
    const restored = readdirSync(path.join(staging, filesName));
    if (restored.length !== manifest.files) {
      throw new BackupError(`${archive} lists ${manifest.files} files but holds ${restored.length}`);
    }
    if (existsSync(path.join(staging, secretName))) chmodSync(path.join(staging, secretName), 0o600);

    let movedAside: string | undefined;
    if (!existsSync(dataDir)) {
      renameSync(staging, dataDir);
    } else if (existing.length === 0) {
      // An empty directory (perhaps a mount point): fill it rather than replace it.
      for (const entry of readdirSync(staging))
        renameSync(path.join(staging, entry), path.join(dataDir, entry));
    } else {
      movedAside = `${dataDir}.before-restore-${new Date().toISOString().replace(/[-:.]/g, '')}`;
      release();
      renameSync(dataDir, movedAside);
      renameSync(staging, dataDir);
    }
    return {
      dataDir,
      files: restored.length,
      jwtSecret: manifest.jwt_secret,
      createdAt: manifest.created_at,
      movedAside,
    };
  } finally {
    rmSync(staging, { recursive: true, force: true });
    release();
  }
}

function readManifest(file: string, archive: string): Manifest {
  let manifest: Partial<Manifest>;
  try {
    manifest = JSON.parse(readFileSync(file, 'utf8')) as Partial<Manifest>;
  } catch {
    throw new BackupError(`${archive} is not a Twofold backup (no manifest)`);
  }
  if (manifest.format !== backupFormat) throw new BackupError(`${archive} is not a Twofold backup`);
  if (manifest.version !== backupVersion) {
    throw new BackupError(
      `${archive} is a version ${manifest.version} backup; this Twofold reads version ${backupVersion}`,
    );
  }
  return manifest as Manifest;
}

/** A hard link where the file system allows it (no copy of large files), else a copy. */
function linkOrCopy(from: string, to: string) {
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}
