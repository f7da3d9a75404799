import path from 'node:path';
import type { S3Location } from './file-store-url.ts';
import { LocalFileStore } from './local-file-store.ts';
import { S3FileStore } from './s3-file-store.ts';

/**
 * Where the bytes of stored files live, by the key the server generated for each (never a client's
 * name). One interface, two engines: a directory (`DATA_DIR/files`, the embedded profile) and an
 * S3-compatible object store (FILE_STORE_URL, for several instances). What a file is, who owns it and what
 * refers to it is in the `file` table; this holds the content only.
 */
export interface FileStore {
  /** The store as a log line may name it (never a secret). */
  readonly description: string;
  /** Checks at start-up that the store can be reached and written; throws with the reason otherwise. */
  check(): Promise<void>;
  /** Keeps the bytes under the key (a generated id, never used twice). */
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The bytes under the key; throws FileMissingError when there are none. */
  get(key: string): Promise<Buffer>;
  /** Removes the bytes under the key; a key already gone is no error. */
  remove(key: string): Promise<void>;
}

export class FileMissingError extends Error {
  override name = 'FileMissingError';
  constructor(key: string) {
    super(`no stored file under ${key}`);
  }
}

/** The store the configuration names: the object store of FILE_STORE_URL, else `DATA_DIR/files`. */
export function openFileStore(config: { dataDir: string; fileStore: S3Location | undefined }): FileStore {
  return config.fileStore
    ? new S3FileStore(config.fileStore)
    : new LocalFileStore(path.join(config.dataDir, 'files'));
}
