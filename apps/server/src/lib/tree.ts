/**
 * Pure rules of the trees the console keeps (departments, operation units): each node names its parent,
 * null or undefined at the top level.
 */

/**
 * Whether making `newParentId` the parent of node `id` would close a loop (spec §5: a node is not its own
 * parent, nor the child of one below it). `parentIdOf` answers the current parent of a node. A loop
 * already in the data ends the walk instead of hanging it.
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

/**
 * A node and the nodes above it, nearest first. A loop in the data ends the walk instead of hanging it.
 */
export function pathToRoot(parentIdOf: (id: string) => string | null | undefined, id: string): string[] {
  const path: string[] = [];
  for (let current: string | null | undefined = id; current && !path.includes(current); ) {
    path.push(current);
    current = parentIdOf(current);
  }
  return path;
}

export interface TreeRecord {
  id: string;
  parentId: string | null;
}

export type TreeNode<R extends TreeRecord> = R & { children: TreeNode<R>[] };

/**
 * Nests records under their parents, siblings ordered by `compare` and then by id (a stable answer). A
 * record whose parent is missing (or part of a loop) is shown at the top level rather than lost.
 */
export function buildTree<R extends TreeRecord>(
  records: readonly R[],
  compare: (a: R, b: R) => number,
): TreeNode<R>[] {
  const nodes = new Map<string, TreeNode<R>>(records.map((r) => [r.id, { ...r, children: [] }]));
  const parentOf = (id: string) => nodes.get(id)?.parentId;
  const roots: TreeNode<R>[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId ? nodes.get(node.parentId) : undefined;
    const inLoop = parent !== undefined && wouldCreateCycle(parentOf, node.id, node.parentId);
    if (parent && !inLoop) parent.children.push(node);
    else roots.push(node);
  }
  const order = (list: TreeNode<R>[]) => {
    list.sort((a, b) => compare(a, b) || a.id.localeCompare(b.id));
    for (const node of list) order(node.children);
  };
  order(roots);
  return roots;
}

/** Siblings by an order index, then by name: the order of departments and operation units. */
export const byIndexThenName =
  <R>(indexOf: (r: R) => number, nameOf: (r: R) => string) =>
  (a: R, b: R): number =>
    indexOf(a) - indexOf(b) || nameOf(a).localeCompare(nameOf(b));
