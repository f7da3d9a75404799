import { Button, Result, Table, type TableProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZES, PageShapeError } from './page-query.ts';
import type { RowKey } from './types.ts';
import type { Density } from './use-crud-prefs.ts';
import type { CrudTable } from './use-crud-table.ts';

function densitySize(density: Density): TableProps['size'] {
  return density === 'default' ? undefined : density;
}

/**
 * The table itself: rows of the page or list, server sort, selection (a row click selects in `single`
 * mode), tree expansion, the spec's paging, and the error state with a retry.
 */
export function CrudTableView<Row extends object>({
  id,
  table,
  keyOf,
  columns,
  scrollX,
  density,
  selection,
  tree,
}: {
  id: string;
  table: CrudTable<Row>;
  keyOf: (row: Row) => RowKey;
  columns: TableProps<Row>['columns'];
  scrollX: number | 'max-content';
  density: Density;
  selection: 'single' | 'multiple' | undefined;
  tree: boolean;
}) {
  const { t } = useTranslation('crud');
  const emptyText = table.data.isError ? (
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
    <Table<Row>
      rowKey={keyOf}
      columns={columns}
      dataSource={table.rows}
      loading={table.data.isFetching}
      size={densitySize(density)}
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
        selection === 'single' ? (row) => ({ onClick: () => table.setSelectedKeys([keyOf(row)]) }) : undefined
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
  );
}
