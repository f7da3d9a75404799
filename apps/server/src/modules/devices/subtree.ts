import { type AnyColumn, type SQL, sql } from 'drizzle-orm';
import type { TreeTable } from '../../db/tree.ts';

/** Deepest chain followed below a node (guards against a loop in bad data). */
const MAX_TREE_DEPTH = 32;

/**
 * `column` names the node `rootId` or one below it in the tree (a department and its sub-departments, an
 * operation unit and its sub-units).
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
