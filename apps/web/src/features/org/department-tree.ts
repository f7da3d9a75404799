import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type DepartmentNode } from '@uiot/contracts';
import { useCallback } from 'react';
import { type TreeOption, treeOptions } from '../../lib/crud/index.ts';
import { endpointQuery } from '../../lib/request/index.ts';

const treeQuery = () => endpointQuery(api.department.getTree, undefined, { noOverlay: true, silent: true });

/** The department tree for selectors and the staff page's sider; refetched whenever one mounts. */
export function useDepartmentTree() {
  return useQuery({ ...treeQuery(), staleTime: 0 });
}

/** Puts a tree loaded elsewhere (the departments page) in the selectors' cache, so they show it at once. */
export function useShareDepartmentTree(): (tree: DepartmentNode[]) => void {
  const queryClient = useQueryClient();
  return useCallback((tree) => queryClient.setQueryData(treeQuery().queryKey, tree), [queryClient]);
}

/** The tree as options of a tree select, without `exclude` and the departments below it (spec §5). */
export const departmentOptions = (nodes: readonly DepartmentNode[], exclude?: string): TreeOption[] =>
  treeOptions(nodes, (node) => node.name, exclude);

/** Whether a department's name or code contains the text (ignoring case). */
export function departmentMatches(node: DepartmentNode, text: string): boolean {
  const needle = text.trim().toLowerCase();
  if (!needle) return true;
  return node.name.toLowerCase().includes(needle) || (node.code ?? '').toLowerCase().includes(needle);
}
