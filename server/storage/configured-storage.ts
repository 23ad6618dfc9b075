import path from 'node:path';
import type { Config } from '../config.ts';
import { s3Storage } from './s3-storage.ts';
import { type FileStorage, folderStorage } from './storage.ts';

/** The storage the config names: the S3 bucket when S3_BUCKET is set, else the folder DATA_DIR/files. */
export function configuredStorage(config: Pick<Config, 's3' | 'dataDir'>): FileStorage & {
  /** Resolves when the storage can be used; rejects with a message naming the setting to fix. */
  check: () => Promise<void>;
  description: string;
} {
  if (config.s3) {
    const storage = s3Storage(config.s3);
    const where = config.s3.endpoint ? ` at ${config.s3.endpoint}` : '';
    return { ...storage, description: `S3 bucket ${config.s3.bucket}${where}` };
  }
  const folder = path.join(config.dataDir, 'files');
  return { ...folderStorage(folder), check: async () => {}, description: `folder ${folder}` };
}
