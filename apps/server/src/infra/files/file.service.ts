import { randomUUID } from 'node:crypto';
import {
  FILE_TYPES,
  type FileKind,
  type FileType,
  PENDING_UPLOAD_BYTES_MAX,
  PENDING_UPLOADS_MAX,
  ResultCode,
  type StoredFileInfo,
} from '@uiot/contracts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/app-error.ts';
import { errorMessage, type ModuleLogger, SILENT_LOGGER } from '../../lib/module-logger.ts';
import {
  attachFile,
  claimOrphans,
  claimUpload,
  deleteFileRow,
  detachFiles,
  type FileRef,
  type FileRow,
  filesOf,
  insertFile,
  pendingOf,
} from './file.repository.ts';
import type { FileStore } from './file-store.ts';

export type { FileRef, FileRow } from './file.repository.ts';

/** An upload read, measured and typed by the server, not yet stored. */
export interface ReceivedUpload {
  kind: FileKind;
  type: FileType;
  bytes: Buffer;
  sha256: string;
  /** The client's name, cleaned (display only). */
  displayName: string;
}

/** A file ready to be sent: its name, type and content. */
export interface FileContent {
  displayName: string;
  contentType: string;
  bytes: Buffer;
}

export interface FileServiceOptions {
  /** How long a file nothing refers to is kept before the sweep removes it (default 6 hours). */
  orphanGraceMs?: number;
  logger?: ModuleLogger;
}

/** How long an upload may wait to be used, and a detached file be restored, before it goes. */
export const ORPHAN_GRACE_MS = 6 * 3600_000;
/** A removal begun this long ago and not finished (the process stopped) is taken up again. */
const STALLED_REMOVAL_MS = 10 * 60_000;
/** Files removed per round of the sweep. */
const SWEEP_BATCH = 200;

const infoOf = (row: FileRow): StoredFileInfo => ({
  id: row.id,
  kind: row.kind as FileKind,
  name: row.displayName,
  size: row.size,
  contentType: row.contentType,
  sha256: row.sha256,
});

/**
 * The file store's bookkeeping (ARCHITECTURE §2): every file has a row (kind, owner, size, SHA-256, type,
 * display name, what refers to it) and its bytes in the store under a generated id. An upload belongs to
 * its owner until a call attaches it to what refers to it, or uses it up; a file nothing refers to is
 * removed by the sweep once the grace period has run out. Bytes are removed only by the sweep or after a
 * claim, never while a transaction may still attach them.
 */
export class FileService {
  private readonly graceMs: number;
  private readonly logger: ModuleLogger;

  constructor(
    private readonly db: Db,
    readonly store: FileStore,
    options: FileServiceOptions = {},
  ) {
    this.graceMs = options.orphanGraceMs ?? ORPHAN_GRACE_MS;
    this.logger = options.logger ?? SILENT_LOGGER;
  }

  /**
   * Stores an upload for its owner (a staff id; null for a file the server stores itself). An owner may
   * have at most PENDING_UPLOADS_MAX uploads, PENDING_UPLOAD_BYTES_MAX bytes, waiting to be used (1174).
   * The row comes first: bytes whose row is missing could never be found to be removed.
   */
  async save(upload: ReceivedUpload, ownerId: string | null): Promise<StoredFileInfo> {
    if (ownerId !== null) {
      const pending = await pendingOf(this.db, ownerId);
      if (
        pending.files >= PENDING_UPLOADS_MAX ||
        pending.bytes + upload.bytes.length > PENDING_UPLOAD_BYTES_MAX
      ) {
        throw new AppError(ResultCode.UploadsPending, { httpStatus: 429 });
      }
    }
    const row = {
      id: randomUUID(),
      kind: upload.kind,
      ownerId,
      size: upload.bytes.length,
      sha256: upload.sha256,
      contentType: FILE_TYPES[upload.type].mime,
      displayName: upload.displayName,
    };
    await insertFile(this.db, row);
    try {
      await this.store.put(row.id, upload.bytes, row.contentType);
    } catch (error) {
      await deleteFileRow(this.db, row.id).catch(() => undefined);
      throw error;
    }
    return {
      id: row.id,
      kind: upload.kind,
      name: row.displayName,
      size: row.size,
      contentType: row.contentType,
      sha256: row.sha256,
    };
  }

  /**
   * Attaches the owner's upload of the kind to what refers to it, in the caller's transaction; refuses
   * (1173) a file that is not the owner's, not of the kind, already attached or gone.
   */
  async attach(
    tx: Db,
    target: { id: string; ownerId: string | null; kind: FileKind; ref: FileRef },
  ): Promise<void> {
    if (!(await attachFile(tx, target))) throw new AppError(ResultCode.FileUnavailable);
  }

  /** Detaches what the referrer refers to, in the caller's transaction; the sweep removes it later. */
  detach(tx: Db, ref: FileRef): Promise<void> {
    return detachFiles(tx, ref);
  }

  /** The files the referrer refers to, the earliest attached first. */
  attachedTo(ref: FileRef, db: Db = this.db): Promise<FileRow[]> {
    return filesOf(db, ref);
  }

  async content(row: FileRow): Promise<FileContent> {
    return {
      displayName: row.displayName,
      contentType: row.contentType,
      bytes: await this.store.get(row.id),
    };
  }

  /**
   * Runs `use` on the owner's upload of the kind, which it uses up: the file is claimed first (a second
   * call with the same id is refused with 1173), and removed once `use` has ended, whatever its outcome.
   */
  async useUp<T>(
    target: { id: string; ownerId: string; kind: FileKind },
    use: (bytes: Buffer, file: StoredFileInfo) => Promise<T>,
  ): Promise<T> {
    const row = await claimUpload(this.db, target);
    if (!row) throw new AppError(ResultCode.FileUnavailable);
    try {
      return await use(await this.store.get(row.id), infoOf(row));
    } finally {
      await this.remove(row).catch((error: unknown) =>
        this.logger.error({ fileId: row.id, error: errorMessage(error) }, 'used-up file not removed'),
      );
    }
  }

  /**
   * Removes files nothing has referred to for the grace period (uploads never attached, files detached),
   * batch by batch; answers how many went. Several instances may sweep at once: each claims its own rows.
   */
  async sweep(now: Date = new Date()): Promise<number> {
    let removed = 0;
    for (;;) {
      const batch = await claimOrphans(this.db, {
        before: new Date(now.getTime() - this.graceMs),
        stalledBefore: new Date(now.getTime() - STALLED_REMOVAL_MS),
        limit: SWEEP_BATCH,
      });
      for (const row of batch) {
        try {
          await this.remove(row);
          removed += 1;
        } catch (error) {
          // Claimed: taken up again by a later sweep once the claim is stale.
          this.logger.error({ fileId: row.id, error: errorMessage(error) }, 'orphaned file not removed');
        }
      }
      if (batch.length < SWEEP_BATCH) return removed;
    }
  }

  private async remove(row: FileRow): Promise<void> {
    await this.store.remove(row.id);
    await deleteFileRow(this.db, row.id);
  }
}
