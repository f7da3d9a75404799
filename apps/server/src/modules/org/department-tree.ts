import type { DepartmentNode } from '@uiot/contracts';

/**
 * Whether making `newParentId` the parent of department `id` would close a loop (spec §5: a department is
 * not its own parent, nor the child of one below it). `parentIdOf` answers the current parent of a
 * department (null or undefined at a root). A loop already in the data ends the walk instead of hanging it.
 */
export function wouldCreateCycle(
  parentIdOf: (id: string) => string | null | undefined,
  id: string,
  newParentId: string | null | undefined,
): boolean {
  const seen = new Set<string>();
  for (let current = newParentId; current; current = parentIdOf(current)) {
    if (current === id) return true;
    if (seen.has(current)) return false;
    seen.add(current);
  }
  return false;
}

export type DepartmentRecord = Omit<DepartmentNode, 'children'>;

/**
 * Nests departments under their parents, siblings ordered by idxNo then name. A department whose parent
 * is missing (or part of a loop) is shown at the top level rather than lost.
 */
export function buildDepartmentTree(records: readonly DepartmentRecord[]): DepartmentNode[] {
  const nodes = new Map<string, DepartmentNode>(records.map((r) => [r.id, { ...r, children: [] }]));
  const parentOf = (id: string) => nodes.get(id)?.parentId;
  const roots: DepartmentNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId ? nodes.get(node.parentId) : undefined;
    const inLoop = parent !== undefined && wouldCreateCycle(parentOf, node.id, node.parentId);
    if (parent && !inLoop) parent.children.push(node);
    else roots.push(node);
  }
  const order = (list: DepartmentNode[]) => {
    list.sort((a, b) => a.idxNo - b.idxNo || a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
    for (const node of list) order(node.children);
  };
  order(roots);
  return roots;
}
