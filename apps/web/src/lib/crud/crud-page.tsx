import { Card, Form } from 'antd';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { QueryValue } from '../request/index.ts';
import { CrudDialog } from './crud-dialog.tsx';
import { CrudTableView } from './crud-table-view.tsx';
import { CrudToolbar } from './crud-toolbar.tsx';
import { SearchForm } from './search-form.tsx';
import { useTableColumns } from './table-columns.tsx';
import type {
  CrudColumn,
  CrudExport,
  CrudForm,
  CrudRemove,
  CrudResource,
  CrudTree,
  ListLoader,
  PagedEndpoint,
  RowAction,
  RowKey,
  SearchField,
  SortState,
  ToolbarAction,
} from './types.ts';
import { useCrudActions } from './use-crud-actions.ts';
import { useCrudDialog } from './use-crud-dialog.ts';
import { useCrudExport } from './use-crud-export.ts';
import { useCrudPrefs } from './use-crud-prefs.ts';
import { useCrudTable } from './use-crud-table.ts';
import { useRangedExport } from './use-ranged-export.ts';
import './crud.css';

export interface CrudPageProps<Row extends object, S extends z.ZodType = z.ZodType> {
  /** Stable page id: test ids (`<id>-table`, `<id>-search`, ...) and the remembered column settings. */
  id: string;
  /** Translated page title: the export file name. */
  title: string;
  /** The row's unique key: a field name or a function. */
  rowKey: (keyof Row & string) | ((row: Row) => RowKey);
  columns: readonly CrudColumn<Row>[];
  search?: readonly SearchField[];
  /** Paged mode: the page endpoint of the contracts (server paging and sort, spec §7). */
  query?: PagedEndpoint<Row>;
  /** List mode (no paging, e.g. tree tables): loads every row for the search query. */
  load?: ListLoader<Row>;
  /** Parameters added to every query, e.g. the department chosen in the `sider` tree. */
  fixedQuery?: Record<string, QueryValue>;
  defaultSort?: SortState;
  /** The create / edit dialog. */
  form?: CrudForm<Row, S>;
  /** The create, update and delete calls (`crudResource`): each offers its button to who may call it. */
  resource?: CrudResource<Row, z.output<S>>;
  /** Which rows the delete (with confirmation) is offered for, and their names in the question. */
  remove?: CrudRemove<Row>;
  rowActions?: readonly RowAction<Row>[];
  toolbar?: readonly ToolbarAction<Row>[];
  /** Row selection: `single` (radio, a row click selects) or `multiple` (check boxes). */
  selection?: 'single' | 'multiple';
  exports?: CrudExport;
  /** Tree table: rows carry their children (list mode). */
  tree?: CrudTree;
  /** A panel left of the table (master-detail), e.g. a department tree driving `fixedQuery`. */
  sider?: ReactNode;
  /** Width of the actions column; default from the number of actions. */
  actionsWidth?: number;
}

const NO_SEARCH: readonly SearchField[] = [];
const NO_ACTIONS: readonly never[] = [];

/**
 * A table page of the console (STYLE.md point 7): search form, table with paging, sort, selection, export,
 * row and toolbar actions, and the create / edit dialog. See `index.ts` for the declarations.
 */
export function CrudPage<Row extends object, S extends z.ZodType = z.ZodType>({
  id,
  title,
  rowKey,
  columns,
  search = NO_SEARCH,
  query: endpoint,
  load,
  fixedQuery,
  defaultSort,
  form,
  resource,
  remove,
  rowActions = NO_ACTIONS,
  toolbar = NO_ACTIONS,
  selection,
  exports,
  tree,
  sider,
  actionsWidth,
}: CrudPageProps<Row, S>) {
  const { t } = useTranslation('crud');
  const [searchForm] = Form.useForm();
  const keyOf = useMemo(
    () => (typeof rowKey === 'function' ? rowKey : (row: Row) => row[rowKey] as RowKey),
    [rowKey],
  );
  const labels = useMemo(() => ({ yes: t('value.yes'), no: t('value.no') }), [t]);

  const table = useCrudTable<Row>({
    id,
    endpoint,
    load,
    columns,
    search,
    fixedQuery,
    defaultSort,
    tree,
    keyOf,
  });
  const prefs = useCrudPrefs(id, columns);
  const dialogs = useCrudDialog<Row, S>(form);
  const actions = useCrudActions<Row, S>({
    id,
    table,
    form,
    resource,
    remove,
    rowActions,
    openDialog: dialogs.open,
  });
  const exporter = useCrudExport<Row>({
    title,
    exports,
    endpoint,
    filterQuery: table.filterQuery,
    paging: table.paged ? table.paging : null,
    total: table.total,
    shownRows: table.allRows,
    columns: prefs.visibleColumns,
    labels,
  });
  const exportAll = useRangedExport<Row>({ exports, searchForm, table, exporter });
  const { tableColumns, scrollX } = useTableColumns<Row>({
    id,
    columns: prefs.visibleColumns,
    sort: table.sort,
    sortNames: table.sortNames,
    paging: table.paged ? table.paging : null,
    showIndex: !tree,
    withSelection: Boolean(selection),
    rowActions: actions.heldRowActions,
    onRowAction: actions.runRowAction,
    actionsWidth,
    labels,
  });

  const resetSearch = () => {
    searchForm.resetFields();
    table.applySearch(searchForm.getFieldsValue());
  };
  const { dialog } = dialogs;

  return (
    <div className={sider ? 'uiot-crud uiot-crud--with-sider' : 'uiot-crud'} data-testid={`${id}-page`}>
      {sider && <aside className="uiot-crud__sider">{sider}</aside>}
      <div className="uiot-crud__main">
        {search.length > 0 && (
          <Card variant="borderless" className="uiot-crud__card" size="small">
            <SearchForm
              id={id}
              fields={search}
              form={searchForm}
              onSearch={() => table.applySearch(searchForm.getFieldsValue())}
              onReset={resetSearch}
            />
          </Card>
        )}
        <Card variant="borderless" className="uiot-crud__card" size="small">
          <CrudToolbar<Row>
            id={id}
            table={table}
            prefs={prefs}
            columns={columns}
            create={form ? resource?.create?.endpoint : undefined}
            toolbar={toolbar}
            onCreate={() => dialogs.open('create', null)}
            onAction={actions.runToolbarAction}
            selection={Boolean(selection)}
            exports={exports}
            exporter={exporter}
            onExportAll={() => void exportAll()}
            tree={Boolean(tree)}
          />
          <CrudTableView<Row>
            id={id}
            table={table}
            keyOf={keyOf}
            columns={tableColumns}
            scrollX={scrollX}
            density={prefs.density}
            selection={selection}
            tree={Boolean(tree)}
          />
        </Card>
      </div>
      {form && resource && dialog && (
        <CrudDialog<Row, S>
          key={dialog.session}
          id={id}
          spec={form}
          resource={resource}
          open={dialog.open}
          mode={dialog.mode}
          row={dialog.row}
          initial={dialog.initial}
          onClose={dialogs.close}
          onSaved={table.refresh}
        />
      )}
    </div>
  );
}
