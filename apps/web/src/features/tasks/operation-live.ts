import {
  type OperationChange,
  type OperationRecordRow,
  operationChangeSupersedes,
  type Page,
} from '@uiot/contracts';

/**
 * Live operation records (spec §4 Realtime): what a published operation change (the record as it now stands)
 * does to a cached page of records. Pure: the page applies the answer to its query cache.
 */

/** A records page query as the table sent it: fixed device or task, the search, sort and paging. */
export type OperationQuery = Readonly<Record<string, unknown>>;

/** The search fields a record is checked against here; keyword and time the server reads (a refetch). */
const EXACT_FILTERS = ['deviceId', 'taskId', 'action', 'result', 'source'] as const;

/** Whether the record passes the query's exact filters (device, task, action, result, source). */
export function recordMatchesQuery(record: OperationRecordRow, query: OperationQuery): boolean {
  return EXACT_FILTERS.every((name) => {
    const wanted = query[name];
    return wanted === undefined || wanted === null || wanted === '' || String(wanted) === record[name];
  });
}

export interface OperationPageMerge {
  /** The page with the changes applied; null when no row of it changed. */
  page: Page<OperationRecordRow> | null;
  /** A new record that may belong to the page (newest first: it goes on top), or a row that left its search. */
  refetch: boolean;
}

/** Applies operation changes, in order, to a cached page of records (a stale 'sent' never undoes a final result). */
export function mergeOperationPage(
  page: Page<OperationRecordRow>,
  query: OperationQuery,
  changes: readonly OperationChange[],
): OperationPageMerge {
  const position = new Map(page.rows.map((row, index) => [row.id, index]));
  let rows: OperationRecordRow[] | null = null;
  let refetch = false;
  for (const change of changes) {
    const index = position.get(change.id);
    if (index === undefined) {
      refetch ||= recordMatchesQuery(change, query);
      continue;
    }
    if (!operationChangeSupersedes((rows ?? page.rows)[index]!, change)) continue;
    rows ??= [...page.rows];
    rows[index] = change;
    refetch ||= !recordMatchesQuery(change, query);
  }
  return { page: rows ? { ...page, rows } : null, refetch };
}
