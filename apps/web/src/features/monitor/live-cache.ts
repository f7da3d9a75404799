import type { QueryClient } from '@tanstack/react-query';
import type { Page } from '@uiot/contracts';

/**
 * Live changes written into the cached pages of a CRUD kit table. The kit keys a table's queries
 * `[endpoint path, query]` (lib/crud/use-crud-table.ts), so each cached page comes with the search it
 * answers, against which a change is checked.
 */
export function mergeIntoPages<Row>(
  client: QueryClient,
  path: string,
  merge: (
    page: Page<Row>,
    query: Readonly<Record<string, unknown>>,
  ) => { page: Page<Row> | null; refetch: boolean },
): boolean {
  let refetch = false;
  for (const cached of client.getQueryCache().findAll({ queryKey: [path] })) {
    const page = cached.state.data as Page<Row> | undefined;
    const query = cached.queryKey[1];
    if (!page || typeof query !== 'object' || query === null) continue;
    const merged = merge(page, query as Record<string, unknown>);
    if (merged.page) {
      client.setQueryData(cached.queryKey, merged.page);
      // A load under way may have read the rows before the change: its answer would undo it.
      refetch ||= cached.state.fetchStatus === 'fetching';
    }
    refetch ||= merged.refetch;
  }
  return refetch;
}
