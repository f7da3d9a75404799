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
