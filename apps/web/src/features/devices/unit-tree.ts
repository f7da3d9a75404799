import { api, type UnitNode } from '@uiot/contracts';
import { type TreeOption, treeOptions, useTree } from '../../lib/crud/index.ts';

/** The operation unit tree for choosers and the ledger's sider (the units page's table shares it). */
export const useUnitTree = () => useTree(api.unit.getTree);

/** The tree as options of a tree select, without `exclude` and the units below it (spec §5). */
export const unitOptions = (nodes: readonly UnitNode[], exclude?: string): TreeOption[] =>
  treeOptions(nodes, (node) => node.name, exclude);

/** Whether a unit's name or menu name contains the text (ignoring case). */
export function unitMatches(node: UnitNode, text: string): boolean {
  const needle = text.trim().toLowerCase();
  if (!needle) return true;
  return node.name.toLowerCase().includes(needle) || (node.menuName ?? '').toLowerCase().includes(needle);
}
