import { ResultCode } from '@uiot/contracts';
import { type AnyColumn, and, count, eq, isNull, ne, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { AppError } from '../http/app-error.ts';
import { wouldCreateCycle } from '../lib/tree.ts';
import type { Db } from './client.ts';

/** The columns of a table that holds a tree of named nodes (departments, operation units, device types). */
export interface TreeTable {
  table: PgTable;
  id: PgColumn;
  parentId: PgColumn;
  name: PgColumn;
}

/** The tree of a table whose columns are `id`, `parentId` and `name`. */
export function treeTable(table: PgTable & { id: PgColumn; parentId: PgColumn; name: PgColumn }): TreeTable {
  return { table, id: table.id, parentId: table.parentId, name: table.name };
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

/** A node placed in a tree: a new one (no id) or one being moved or renamed. */
export interface TreePlace {
  id?: string | undefined;
  parentId?: string | null | undefined;
  name: string;
}

/**
 * Where a node may go (spec §5): a node being changed must exist (NotFound), its parent must exist (400 on
 * `parentId`), its name be free among the parent's children (NameTaken), and it must not go under itself
 * or a node below it (`cycle`). Run it under the tree's transaction lock.
 */
export async function checkTreePlace(
  db: Db,
  t: TreeTable,
  place: TreePlace,
  cycle: ResultCode,
): Promise<void> {
  const { id, name } = place;
  const parentId = place.parentId || null;
  let closesLoop = false;
  if (id !== undefined) {
    const parents = await treeParents(db, t);
    if (!parents.has(id)) throw new AppError(ResultCode.NotFound);
    closesLoop = wouldCreateCycle((node) => parents.get(node), id, parentId);
  }
  if (parentId && !(await treeNodeExists(db, t, parentId))) {
    throw AppError.invalid([{ path: 'parentId', message: 'v.invalid' }]);
  }
  if (await siblingNameTaken(db, t, parentId, name, id)) {
    throw new AppError(ResultCode.NameTaken, { params: { name } });
  }
  if (closesLoop) throw new AppError(cycle);
}

/** Deepest chain followed below a node (guards against a loop in bad data). */
const MAX_TREE_DEPTH = 32;

/**
 * `column` names the node `rootId` or one below it in the tree (a department and its sub-departments, an
 * operation unit and its sub-units, a device type and its sub types).
 */
export function inSubtree(column: AnyColumn | SQL, tree: TreeTable, rootId: string): SQL {
  const parentColumn = sql.identifier(tree.parentId.name);
  const idColumn = sql.identifier(tree.id.name);
  return sql`${column} in (
    with recursive subtree(id, depth) as (
      select ${tree.id}, 0 from ${tree.table} where ${tree.id} = ${rootId}
      union all
      select n.${idColumn}, s.depth + 1 from ${tree.table} n join subtree s on n.${parentColumn} = s.id
      where s.depth < ${MAX_TREE_DEPTH}
    )
    select id from subtree
  )`;
}
