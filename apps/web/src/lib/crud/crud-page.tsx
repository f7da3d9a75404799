import { PlusOutlined } from '@ant-design/icons';
import { translateValidation } from '@uiot/contracts';
import { Button, Card, Form, Result, Table, type TableProps, Typography } from 'antd';
import { type ReactNode, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useLang } from '../i18n/use-lang.ts';
import { Can } from '../permission/permission.tsx';
import type { QueryValue } from '../request/index.ts';
import { CrudDialog } from './crud-dialog.tsx';
import { CrudTools } from './crud-tools.tsx';
import { PAGE_SIZES, PageShapeError, searchRangeProblem } from './page-query.ts';
import { SearchForm } from './search-form.tsx';
import { useTableColumns } from './table-columns.tsx';
import type {
  CrudColumn,
  CrudExport,
  CrudForm,
  CrudRemove,
  CrudResource,
  CrudTree,
  DialogMode,
  ListLoader,
  PagedEndpoint,
  RowAction,
  RowKey,
  SearchField,
  SortState,
  ToolbarAction,
} from './types.ts';
import { useCrudActions } from './use-crud-actions.ts';
import { useCrudExport } from './use-crud-export.ts';
import { type Density, useCrudPrefs } from './use-crud-prefs.ts';
import { useCrudTable } from './use-crud-table.ts';
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

interface DialogState<Row> {
  /** Each opening mounts a fresh dialog (and form). */
  session: number;
  open: boolean;
  mode: DialogMode;
  row: Row | null;
  initial: Record<string, unknown>;
}

const NO_SEARCH: readonly SearchField[] = [];
const NO_ACTIONS: readonly never[] = [];

function densitySize(density: Density): TableProps['size'] {
  return density === 'default' ? undefined : density;
}

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
  const lang = useLang();
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

  const [dialog, setDialog] = useState<DialogState<Row> | null>(null);
  const sessions = useRef(0);
  const openDialog = (mode: DialogMode, row: Row | null, defaults?: Record<string, unknown>) => {
    if (!form) return;
    sessions.current += 1;
    const initial =
      mode === 'edit' && row
        ? ((form.toForm ? form.toForm(row) : row) as Record<string, unknown>)
        : { ...(form.defaults as Record<string, unknown> | undefined), ...defaults };
    setDialog({ session: sessions.current, open: true, mode, row, initial });
  };

  const actions = useCrudActions<Row, S>({ id, table, form, resource, remove, rowActions, openDialog });
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

  // Spec §5: an export needs a time range of at most a year; the reason shows on the range field.
  const exportAll = async () => {
    const range = exports?.range;
    if (!range) {
      exporter.exportAll();
      return;
    }
    const problem = searchRangeProblem(searchForm.getFieldValue(range), { forExport: true });
    if (problem) {
      searchForm.setFields([{ name: range, errors: [translateValidation(problem, lang)] }]);
      return;
    }
    let values: Record<string, unknown>;
    try {
      values = await searchForm.validateFields();
    } catch {
      return;
    }
    table.applySearch(values);
    exporter.exportAll(table.queryFor(values));
  };

  const resetSearch = () => {
    searchForm.resetFields();
    table.applySearch(searchForm.getFieldsValue());
  };

  const failed = table.data.isError;
  const emptyText = failed ? (
    <Result
      status="warning"
      title={table.data.error instanceof PageShapeError ? t('table.pagedShape') : t('table.loadFailed')}
      extra={
        <Button onClick={() => void table.data.refetch()} data-testid={`${id}-retry`}>
          {t('table.retry')}
        </Button>
      }
      data-testid={`${id}-error`}
    />
  ) : undefined;

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
          <div className="uiot-crud__toolbar">
            <div className="uiot-crud__toolbar-actions">
              {form && resource?.create && (
                <Can endpoint={resource.create.endpoint}>
                  <Button
                    type="primary"
                    icon={<PlusOutlined />}
                    onClick={() => openDialog('create', null)}
                    data-testid={`${id}-create`}
                  >
                    {t('toolbar.create')}
                  </Button>
                </Can>
              )}
              {toolbar.map((action) => (
                <Can key={action.key} endpoint={action.endpoint}>
                  <Button
                    type={action.primary ? 'primary' : 'default'}
                    danger={action.danger}
                    icon={action.icon}
                    onClick={() => actions.runToolbarAction(action)}
                    data-testid={`${id}-toolbar-${action.key}`}
                  >
                    {action.label}
                  </Button>
                </Can>
              ))}
              {selection && table.selectedKeys.length > 0 && (
                <Typography.Text type="secondary" className="uiot-crud__selected">
                  {t('selection.selected', { count: table.selectedKeys.length })}
                  <Button type="link" size="small" onClick={table.clearSelection}>
                    {t('selection.clear')}
                  </Button>
                </Typography.Text>
              )}
            </div>
            <CrudTools
              id={id}
              columns={columns}
              hidden={prefs.hidden}
              defaultHidden={prefs.defaultHidden}
              onHiddenChange={prefs.setHidden}
              density={prefs.density}
              onDensityChange={prefs.setDensity}
              onRefresh={() => void table.data.refetch()}
              refreshing={table.data.isFetching}
              exports={exports}
              exporting={exporter.exporting}
              onExportPage={exporter.exportPage}
              onExportAll={() => void exportAll()}
              tree={tree ? { expanded: table.expanded, onToggle: table.toggleExpanded } : undefined}
            />
          </div>
          <Table<Row>
            rowKey={keyOf}
            columns={tableColumns}
            dataSource={table.rows}
            loading={table.data.isFetching}
            size={densitySize(prefs.density)}
            scroll={{ x: scrollX }}
            tableLayout="fixed"
            onChange={table.onTableChange}
            showSorterTooltip={false}
            locale={emptyText ? { emptyText } : undefined}
            data-testid={`${id}-table`}
            rowSelection={
              selection
                ? {
                    type: selection === 'single' ? 'radio' : 'checkbox',
                    selectedRowKeys: table.selectedKeys,
                    onChange: (keys) => table.setSelectedKeys(keys as RowKey[]),
                    checkStrictly: true,
                  }
                : undefined
            }
            onRow={
              selection === 'single'
                ? (row) => ({ onClick: () => table.setSelectedKeys([keyOf(row)]) })
                : undefined
            }
            expandable={
              tree
                ? {
                    childrenColumnName: table.childrenKey,
                    expandedRowKeys: table.expandedKeys,
                    onExpandedRowsChange: (keys) => table.setExpandedKeys(keys as RowKey[]),
                  }
                : undefined
            }
            pagination={
              table.paged
                ? {
                    current: table.paging.pageIndex,
                    pageSize: table.paging.pageSize,
                    total: table.total,
                    showSizeChanger: true,
                    showQuickJumper: true,
                    pageSizeOptions: PAGE_SIZES.map(String),
                    showTotal: (count) => t('table.total', { total: count }),
                  }
                : false
            }
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
          onClose={() => setDialog((current) => (current ? { ...current, open: false } : current))}
          onSaved={table.refresh}
        />
      )}
    </div>
  );
}
