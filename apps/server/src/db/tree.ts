import { and, count, eq, isNull, ne, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './client.ts';

/** The columns of a table that holds a tree of named nodes (departments, operation units). */
export interface TreeTable {
  table: PgTable;
  id: PgColumn;
  parentId: PgColumn;
  name: PgColumn;
}

/** Every node's parent, to walk the tree upwards. */
export async function treeParents(db: Db, t: TreeTable): Promise<Map<string, string | null>> {
  const rows = await db.select({ id: t.id, parentId: t.parentId }).from(t.table);
  return new Map(rows.map((r) => [r.id as string, (r.parentId as string | null) ?? null]));
}

export async function treeNodeExists(db: Db, t: TreeTable, id: string): Promise<boolean> {
  const [row] = await db.select({ id: t.id }).from(t.table).where(eq(t.id, id)).limit(1);
  return row !== undefined;
}

/** Whether a sibling under `parentId` (null: the top level) has the name, ignoring case. */
export async function siblingNameTaken(
  db: Db,
  t: TreeTable,
  parentId: string | null,
  name: string,
  exceptId?: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: t.id })
    .from(t.table)
    .where(
      and(
        parentId ? eq(t.parentId, parentId) : isNull(t.parentId),
        sql`lower(${t.name}) = ${name.toLowerCase()}`,
        exceptId ? ne(t.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return row !== undefined;
}

export async function childCount(db: Db, t: TreeTable, id: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(t.table).where(eq(t.parentId, id));
  return row?.n ?? 0;
}
