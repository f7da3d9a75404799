import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Endpoint } from '@uiot/contracts';
import type { z } from 'zod';
import { call, endpointQuery } from '../request/index.ts';
import { searchTree, type TreeSearch } from './tree.ts';
import type { ListLoader } from './types.ts';

/** A GET endpoint of the contracts answering a whole tree (departments, operation units, device types). */
export type TreeEndpoint<Node> = Endpoint<undefined, undefined, z.ZodType<Node[]>>;

/** Choosers and siders load quietly: no overlay, no failure toast (an empty tree says enough). */
const treeQuery = <Node>(endpoint: TreeEndpoint<Node>) =>
  endpointQuery(endpoint, undefined, { noOverlay: true, silent: true });

/** A tree for choosers and siders; refetched whenever one mounts. */
export function useTree<Node>(endpoint: TreeEndpoint<Node>) {
  return useQuery({ ...treeQuery(endpoint), staleTime: 0 });
}

/**
 * The `load` of a tree table over its tree endpoint (`<CrudPage load tree>`): the whole tree, cut down by
 * the search (`searchTree`). The tree it loads also goes to `useTree`'s cache, so the choosers of the page's
 * dialog show it as the table has it at once.
 */
export function useTreeLoad<Node extends object>(
  endpoint: TreeEndpoint<Node>,
  search: TreeSearch<Node>,
): ListLoader<Node> {
  const queryClient = useQueryClient();
  return async (query, options) => {
    const tree = await call(endpoint, undefined, options);
    queryClient.setQueryData(treeQuery(endpoint).queryKey, tree);
    return searchTree(tree, query, search);
  };
}
