import path from 'node:path';
import type { FileStore } from './file-store.ts';
import type { S3Location } from './file-store-url.ts';
import { LocalFileStore } from './local-file-store.ts';
import { S3FileStore } from './s3-file-store.ts';

/** The store the configuration names: the object store of FILE_STORE_URL, else `DATA_DIR/files`. */
export function openFileStore(config: { dataDir: string; fileStore: S3Location | undefined }): FileStore {
  return config.fileStore
    ? new S3FileStore(config.fileStore)
    : new LocalFileStore(path.join(config.dataDir, 'files'));
}
