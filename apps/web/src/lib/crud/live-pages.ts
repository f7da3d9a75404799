import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import type { Page } from '@uiot/contracts';
import { useCallback, useEffect, useMemo } from 'react';
import type { ChangesOf, ConsoleChangeKind } from '../realtime/console-event-hub.ts';
import {
  afterQuiet,
  PAGE_REFRESH_MAX_WAIT_MS,
  PAGE_REFRESH_QUIET_MS,
  useConsoleEvents,
  useRealtimeResubscribed,
} from '../realtime/index.ts';

/** What live changes do to one cached page: the page with them (null: untouched), whether to ask again. */
export type PageMerge<Row> = (
  page: Page<Row>,
  query: Readonly<Record<string, unknown>>,
) => { page: Page<Row> | null; refetch: boolean };

/**
 * Live changes written into the cached pages of a CRUD kit table. The kit keys a table's queries
 * `[endpoint path, query]` (lib/crud/use-crud-table.ts), so each cached page comes with the search it
 * answers, against which a change is checked.
 */
export function mergeIntoPages<Row>(client: QueryClient, path: string, merge: PageMerge<Row>): boolean {
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

/**
 * Keeps the kit tables of `path` live from the console events of `kind` (spec §4 Realtime): each change is
 * merged at once into every cached page (`merge`); a page it made stale (a new row, a row leaving its search)
 * is asked for again after a short quiet time, and every page after the live channel came back (what
 * happened meanwhile was not heard).
 */
export function useLivePages<K extends ConsoleChangeKind, Row>(
  kind: K,
  path: string,
  merge: (
    page: Page<Row>,
    query: Readonly<Record<string, unknown>>,
    changes: ChangesOf<K>,
  ) => ReturnType<PageMerge<Row>>,
): void {
  const client = useQueryClient();
  const reload = useMemo(
    () =>
      afterQuiet(PAGE_REFRESH_QUIET_MS, PAGE_REFRESH_MAX_WAIT_MS, () => {
        void client.invalidateQueries({ queryKey: [path] });
      }),
    [client, path],
  );
  useEffect(() => () => reload.cancel(), [reload]);
  useConsoleEvents(kind, (changes) => {
    if (mergeIntoPages<Row>(client, path, (page, query) => merge(page, query, changes))) reload.request();
  });
  useRealtimeResubscribed(
    useCallback(() => void client.invalidateQueries({ queryKey: [path] }), [client, path]),
  );
}
