import { api, type DepartmentNode } from '@uiot/contracts';
import { type TreeOption, treeOptions, useTree } from '../../lib/crud/index.ts';

/** The department tree for choosers and the staff page's sider (the departments page's table shares it). */
export const useDepartmentTree = () => useTree(api.department.getTree);

/** The tree as options of a tree select, without `exclude` and the departments below it (spec §5). */
export const departmentOptions = (nodes: readonly DepartmentNode[], exclude?: string): TreeOption[] =>
  treeOptions(nodes, (node) => node.name, exclude);

/** Whether a department's name or code contains the text (ignoring case). */
export function departmentMatches(node: DepartmentNode, text: string): boolean {
  const needle = text.trim().toLowerCase();
  if (!needle) return true;
  return node.name.toLowerCase().includes(needle) || (node.code ?? '').toLowerCase().includes(needle);
}
