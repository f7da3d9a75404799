import { DownOutlined } from '@ant-design/icons';
import { Button, Dropdown, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { Can } from '../permission/permission.tsx';
import { CellView } from './cell-view.tsx';
import { type CellLabels, cellText, cellValue } from './cells.ts';
import type { Paging } from './page-query.ts';
import type { CrudColumn, RowAction, SortState } from './types.ts';

/** Spec §9: the index column is 55 px wide. */
export const INDEX_COLUMN_WIDTH = 55;
/** Width of antd's selection column. */
const SELECTION_COLUMN_WIDTH = 32;

/**
 * antd columns of the declared ones: the index column (its number counts across pages), the visible
 * columns with their sort state, and the actions column when the user holds an action's key.
 */
export function useTableColumns<Row extends object>({
  id,
  columns,
  sort,
  sortNames,
  paging,
  showIndex,
  withSelection,
  rowActions,
  onRowAction,
  actionsWidth,
  labels,
}: {
  id: string;
  columns: readonly CrudColumn<Row>[];
  sort: SortState | null;
  sortNames: Readonly<Record<string, string>>;
  /** Paging of a paged table; null for lists (local sort). */
  paging: Paging | null;
  showIndex: boolean;
  withSelection: boolean;
  rowActions: readonly RowAction<Row>[];
  onRowAction: (action: RowAction<Row>, row: Row) => void;
  actionsWidth: number | undefined;
  labels: CellLabels;
}): { tableColumns: TableColumnsType<Row>; scrollX: number | 'max-content' } {
  const { t } = useTranslation('crud');
  const textOf = (column: CrudColumn<Row>, row: Row) =>
    cellText(cellValue(column, row), column.format, labels);

  const tableColumns: TableColumnsType<Row> = [
    ...(showIndex
      ? [
          {
            key: '__index',
            title: t('table.index'),
            width: INDEX_COLUMN_WIDTH,
            align: 'center' as const,
            render: (_: unknown, __: Row, index: number) =>
              (paging ? (paging.pageIndex - 1) * paging.pageSize : 0) + index + 1,
          },
        ]
      : []),
    ...columns.map((column) => {
      const sortName = sortNames[column.key];
      const order = sortName && sort?.field === sortName ? (sort.ascending ? 'ascend' : 'descend') : null;
      return {
        key: column.key,
        title: column.title,
        width: column.width,
        align: column.align,
        fixed: column.fixed,
        // Cells keep their width: long texts are cut, the tooltip of `CellView` shows them whole.
        ellipsis: { showTitle: false },
        sorter: sortName
          ? paging
            ? true
            : (a: Row, b: Row) => textOf(column, a).localeCompare(textOf(column, b))
          : undefined,
        sortOrder: sortName ? (order as 'ascend' | 'descend' | null) : undefined,
        render: (_: unknown, row: Row, index: number) =>
          column.render ? column.render(row, index) : <CellView column={column} row={row} labels={labels} />,
      };
    }),
    ...(rowActions.length > 0
      ? [
          {
            key: '__actions',
            title: t('table.actions'),
            fixed: 'right' as const,
            width: actionsWidth ?? Math.max(90, rowActions.length * 56),
            render: (_: unknown, row: Row) => {
              const offered = rowActions.filter((action) => !action.when || action.when(row));
              const more = offered.filter((action) => action.more);
              return (
                <span className="uiot-crud__row-actions">
                  {offered.map((action) =>
                    action.more ? (
                      // The "More" menu stands where its first action would.
                      action === more[0] && (
                        <RowMoreMenu
                          key="__more"
                          id={id}
                          actions={more}
                          onAction={(chosen) => onRowAction(chosen, row)}
                        />
                      )
                    ) : (
                      <Can key={action.key} endpoint={action.endpoint}>
                        <Button
                          type="link"
                          size="small"
                          danger={action.danger}
                          onClick={(event) => {
                            event.stopPropagation();
                            onRowAction(action, row);
                          }}
                          data-testid={`${id}-row-${action.key}`}
                        >
                          {action.label}
                        </Button>
                      </Can>
                    ),
                  )}
                </span>
              );
            },
          },
        ]
      : []),
  ];

  // With every width declared the table scrolls sideways at exactly their sum, so each column keeps it.
  const widths = tableColumns.map((column) => column.width);
  const scrollX = widths.every((width) => typeof width === 'number')
    ? (widths as number[]).reduce((sum, width) => sum + width, withSelection ? SELECTION_COLUMN_WIDTH : 0)
    : 'max-content';

  return { tableColumns, scrollX };
}

/** The row actions marked `more`, behind one "More" link (the user holds each one's key). */
function RowMoreMenu<Row>({
  id,
  actions,
  onAction,
}: {
  id: string;
  actions: readonly RowAction<Row>[];
  onAction: (action: RowAction<Row>) => void;
}) {
  const { t } = useTranslation('crud');
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: actions.map((action) => ({
          key: action.key,
          danger: action.danger,
          label: <span data-testid={`${id}-row-${action.key}`}>{action.label}</span>,
        })),
        onClick: ({ key, domEvent }) => {
          domEvent.stopPropagation();
          const action = actions.find((candidate) => candidate.key === key);
          if (action) onAction(action);
        },
      }}
    >
      <Button
        type="link"
        size="small"
        onClick={(event) => event.stopPropagation()}
        data-testid={`${id}-row-more`}
      >
        {t('action.more')}
        <DownOutlined />
      </Button>
    </Dropdown>
  );
}
