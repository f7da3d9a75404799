import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type UnitNode } from '@uiot/contracts';
import { useCallback } from 'react';
import { type TreeOption, treeOptions } from '../../lib/crud/index.ts';
import { endpointQuery } from '../../lib/request/index.ts';

const treeQuery = () => endpointQuery(api.unit.getTree, undefined, { noOverlay: true, silent: true });

/** The operation unit tree for selectors; refetched whenever one mounts. */
export function useUnitTree() {
  return useQuery({ ...treeQuery(), staleTime: 0 });
}

/** Puts a tree loaded by the units page in the selectors' cache, so they show it at once. */
export function useShareUnitTree(): (tree: UnitNode[]) => void {
  const queryClient = useQueryClient();
  return useCallback((tree) => queryClient.setQueryData(treeQuery().queryKey, tree), [queryClient]);
}

/** The tree as options of a tree select, without `exclude` and the units below it (spec §5). */
export const unitOptions = (nodes: readonly UnitNode[], exclude?: string): TreeOption[] =>
  treeOptions(nodes, (node) => node.name, exclude);

/** Whether a unit's name or menu name contains the text (ignoring case). */
export function unitMatches(node: UnitNode, text: string): boolean {
  const needle = text.trim().toLowerCase();
  if (!needle) return true;
  return node.name.toLowerCase().includes(needle) || (node.menuName ?? '').toLowerCase().includes(needle);
}
