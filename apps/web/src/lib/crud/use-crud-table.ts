import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Page } from '@uiot/contracts';
import type { TableProps } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { type QueryValue, requestClient } from '../request/index.ts';
import {
  buildPageQuery,
  DEFAULT_PAGE_SIZE,
  FIRST_PAGE,
  lastPage,
  type Paging,
  type Query,
  readPage,
  sortFromTable,
} from './page-query.ts';
import { keepShownKeys } from './selection.ts';
import { flattenTree, parentKeys, withoutEmptyChildren } from './tree.ts';
import type {
  CrudColumn,
  CrudTree,
  ListLoader,
  PagedEndpoint,
  RowKey,
  SearchField,
  SortState,
} from './types.ts';

/** The sort name of each sortable column, by column key. */
export function sortNamesOf<Row>(columns: readonly CrudColumn<Row>[]): Record<string, string> {
  return Object.fromEntries(
    columns
      .filter((column) => column.sortable)
      .map((column) => [column.key, typeof column.sortable === 'string' ? column.sortable : column.key]),
  );
}

/**
 * The table's state and data: applied search, sort, paging (page 1, 20 rows), selection and tree
 * expansion; the page (paged mode) or the list (list mode) for them.
 */
export function useCrudTable<Row extends object>({
  id,
  endpoint,
  load,
  columns,
  search,
  fixedQuery,
  defaultSort,
  tree,
  keyOf,
}: {
  id: string;
  endpoint: PagedEndpoint<Row> | undefined;
  load: ListLoader<Row> | undefined;
  columns: readonly CrudColumn<Row>[];
  search: readonly SearchField[];
  fixedQuery: Record<string, QueryValue> | undefined;
  defaultSort: SortState | undefined;
  tree: CrudTree | undefined;
  keyOf: (row: Row) => RowKey;
}) {
  const queryClient = useQueryClient();
  const paged = Boolean(endpoint);
  const childrenKey = tree?.childrenKey ?? 'children';
  const [applied, setApplied] = useState<Record<string, unknown>>(() =>
    Object.fromEntries(search.map((field) => [field.name, field.initialValue])),
  );
  const [sort, setSort] = useState<SortState | null>(defaultSort ?? null);
  const [paging, setPaging] = useState<Paging>({ pageIndex: FIRST_PAGE, pageSize: DEFAULT_PAGE_SIZE });
  const [selectedKeys, setSelectedKeys] = useState<RowKey[]>([]);
  const [expandedKeys, setExpandedKeys] = useState<readonly RowKey[] | null>(null);

  // A new fixed query (e.g. another department in the sider) starts again on page 1.
  const fixedKey = JSON.stringify(fixedQuery ?? {});
  const [pagingFor, setPagingFor] = useState(fixedKey);
  if (pagingFor !== fixedKey) {
    setPagingFor(fixedKey);
    setPaging((current) => ({ ...current, pageIndex: FIRST_PAGE }));
  }

  const filterQuery = useMemo<Query>(
    () => buildPageQuery({ fields: search, values: applied, sort, paging: null, fixed: fixedQuery }),
    [search, applied, sort, fixedQuery],
  );
  const pageQuery = useMemo<Query>(
    () => (paged ? { ...filterQuery, pageIndex: paging.pageIndex, pageSize: paging.pageSize } : filterQuery),
    [paged, filterQuery, paging],
  );
  const baseKey = useMemo(() => (endpoint ? [endpoint.path] : ['crud-list', id]), [endpoint, id]);

  const data = useQuery<Page<Row>>({
    queryKey: [...baseKey, pageQuery],
    queryFn: async ({ signal }) => {
      if (endpoint) {
        const answer = await requestClient().request<unknown>(
          { method: endpoint.method, path: endpoint.path, query: pageQuery },
          { signal, noOverlay: true },
        );
        return readPage<Row>(answer);
      }
      const rows = load ? await load(pageQuery, { signal, noOverlay: true }) : [];
      return { rows: [...rows], total: rows.length };
    },
    placeholderData: keepPreviousData,
  });

  // After a failure nothing stale is shown: the error state takes the table's place.
  const rows = useMemo(() => {
    const loaded = data.isError ? [] : (data.data?.rows ?? []);
    return tree ? withoutEmptyChildren(loaded, childrenKey) : loaded;
  }, [data.data, data.isError, tree, childrenKey]);
  const total = data.isError ? 0 : (data.data?.total ?? 0);
  const allRows = useMemo(() => (tree ? flattenTree(rows, childrenKey) : rows), [rows, tree, childrenKey]);

  // A page emptied by deletions goes back to the last page that has rows.
  useEffect(() => {
    if (!paged || !data.data || data.isPlaceholderData) return;
    const last = lastPage(data.data.total, paging.pageSize);
    if (data.data.rows.length === 0 && paging.pageIndex > last) {
      setPaging((current) => ({ ...current, pageIndex: last }));
    }
  }, [paged, data.data, data.isPlaceholderData, paging]);

  // The selection keeps only rows still shown.
  useEffect(() => {
    const shown = allRows.map(keyOf);
    setSelectedKeys((current) => {
      const kept = keepShownKeys(current, shown);
      return kept.length === current.length ? current : kept;
    });
  }, [allRows, keyOf]);

  // A tree table opens fully on its first load when asked to.
  useEffect(() => {
    if (tree?.defaultExpandAll && expandedKeys === null && rows.length > 0) {
      setExpandedKeys(parentKeys(rows, keyOf, childrenKey));
    }
  }, [tree, expandedKeys, rows, keyOf, childrenKey]);

  const selectedRows = useMemo(() => {
    const selected = new Set(selectedKeys);
    return allRows.filter((row) => selected.has(keyOf(row)));
  }, [allRows, selectedKeys, keyOf]);

  const sortNames = useMemo(() => sortNamesOf(columns), [columns]);

  const onTableChange: TableProps<Row>['onChange'] = (pagination, _filters, sorter, extra) => {
    if (extra.action === 'sort') {
      setSort(sortFromTable(sorter, sortNames));
      setPaging((current) => ({ ...current, pageIndex: FIRST_PAGE }));
      return;
    }
    if (extra.action === 'paginate') {
      const pageSize = pagination.pageSize ?? paging.pageSize;
      // A new page size starts again on page 1.
      setPaging({
        pageIndex: pageSize === paging.pageSize ? (pagination.current ?? FIRST_PAGE) : FIRST_PAGE,
        pageSize,
      });
      setSelectedKeys([]);
    }
  };

  const expanded = (expandedKeys ?? []).length > 0;

  return {
    paged,
    childrenKey,
    data,
    rows,
    allRows,
    total,
    paging,
    sort,
    sortNames,
    filterQuery,
    onTableChange,
    selectedKeys,
    selectedRows,
    setSelectedKeys,
    clearSelection: () => setSelectedKeys([]),
    expandedKeys: (expandedKeys ?? []) as RowKey[],
    setExpandedKeys,
    expanded,
    toggleExpanded: () => setExpandedKeys(expanded ? [] : parentKeys(rows, keyOf, childrenKey)),
    /** The query (no paging) that the search form's values would give. */
    queryFor: (values: Record<string, unknown>): Query =>
      buildPageQuery({ fields: search, values, sort, paging: null, fixed: fixedQuery }),
    /** Applies the search form's values from page 1. */
    applySearch: (values: Record<string, unknown>) => {
      setApplied(values);
      setPaging((current) => ({ ...current, pageIndex: FIRST_PAGE }));
      setSelectedKeys([]);
    },
    /** Reloads the table and every cached page of it. */
    refresh: () => void queryClient.invalidateQueries({ queryKey: baseKey }),
  };
}

export type CrudTable<Row extends object> = ReturnType<typeof useCrudTable<Row>>;
