import { and, count, eq, inArray, isNull, lt, or, sql, sum } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { file } from './files.schema.ts';

/** What refers to a file: a kind of referrer and its id (`staffSignature` and a staff id). */
export interface FileRef {
  type: string;
  id: string;
}

export type FileRow = typeof file.$inferSelect;
export type NewFileRow = Omit<typeof file.$inferInsert, 'createdAt'>;

export async function insertFile(db: Db, row: NewFileRow): Promise<void> {
  await db.insert(file).values(row);
}

export async function deleteFileRow(db: Db, id: string): Promise<void> {
  await db.delete(file).where(eq(file.id, id));
}

/** The uploads of an owner that nothing uses yet: how many, and their bytes. */
export async function pendingOf(db: Db, ownerId: string): Promise<{ files: number; bytes: number }> {
  const [row] = await db
    .select({ files: count(), bytes: sum(file.size) })
    .from(file)
    .where(and(eq(file.ownerId, ownerId), isNull(file.refType), isNull(file.deletingAt)));
  return { files: row?.files ?? 0, bytes: Number(row?.bytes ?? 0) };
}

/**
 * Attaches an upload to what refers to it: only the owner's, of the kind expected, not referred to by
 * anything else and not being removed. False when there is no such file.
 */
export async function attachFile(
  db: Db,
  target: { id: string; ownerId: string | null; kind: string; ref: FileRef },
): Promise<boolean> {
  const owner = target.ownerId === null ? isNull(file.ownerId) : eq(file.ownerId, target.ownerId);
  const rows = await db
    .update(file)
    .set({ refType: target.ref.type, refId: target.ref.id, attachedAt: sql`now()`, detachedAt: null })
    .where(
      and(
        eq(file.id, target.id),
        owner,
        eq(file.kind, target.kind),
        isNull(file.refType),
        isNull(file.deletingAt),
      ),
    )
    .returning({ id: file.id });
  return rows.length === 1;
}

/** Detaches every file the referrer refers to: from now on they are orphans, removed after the grace period. */
export async function detachFiles(db: Db, ref: FileRef): Promise<void> {
  await db
    .update(file)
    .set({ refType: null, refId: null, detachedAt: sql`now()` })
    .where(and(eq(file.refType, ref.type), eq(file.refId, ref.id)));
}

export async function filesOf(db: Db, ref: FileRef): Promise<FileRow[]> {
  return db
    .select()
    .from(file)
    .where(and(eq(file.refType, ref.type), eq(file.refId, ref.id)))
    .orderBy(file.attachedAt);
}

/**
 * Marks an owner's unused upload of a kind for removal and answers it (null when there is none): the call
 * that uses it up is then the only one that can (two imports of one upload do not both run).
 */
export async function claimUpload(
  db: Db,
  target: { id: string; ownerId: string; kind: string },
): Promise<FileRow | null> {
  const [row] = await db
    .update(file)
    .set({ deletingAt: sql`now()` })
    .where(
      and(
        eq(file.id, target.id),
        eq(file.ownerId, target.ownerId),
        eq(file.kind, target.kind),
        isNull(file.refType),
        isNull(file.deletingAt),
      ),
    )
    .returning();
  return row ?? null;
}

/**
 * Claims, for removal, files nothing refers to whose grace period has run out: unreferenced since before
 * `before`, and not already being removed (or whose removal began before `stalledBefore` and did not end).
 */
export async function claimOrphans(
  db: Db,
  options: { before: Date; stalledBefore: Date; limit: number },
): Promise<FileRow[]> {
  const candidates = db
    .select({ id: file.id })
    .from(file)
    .where(
      and(
        isNull(file.refType),
        lt(sql`coalesce(${file.detachedAt}, ${file.createdAt})`, options.before),
        or(isNull(file.deletingAt), lt(file.deletingAt, options.stalledBefore)),
      ),
    )
    .limit(options.limit)
    .for('update', { skipLocked: true });
  return db
    .update(file)
    .set({ deletingAt: sql`now()` })
    .where(and(inArray(file.id, candidates), isNull(file.refType)))
    .returning();
}
