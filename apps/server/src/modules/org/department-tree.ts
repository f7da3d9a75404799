import type { DepartmentNode } from '@uiot/contracts';
import { buildTree, byIndexThenName } from '../../lib/tree.ts';

export type DepartmentRecord = Omit<DepartmentNode, 'children'>;

/** Nests departments under their parents, siblings ordered by idxNo then name (see `buildTree`). */
export function buildDepartmentTree(records: readonly DepartmentRecord[]): DepartmentNode[] {
  return buildTree(
    records,
    byIndexThenName<DepartmentRecord>(
      (r) => r.idxNo,
      (r) => r.name,
    ),
  );
}
