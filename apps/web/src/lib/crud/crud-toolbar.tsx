import { PlusOutlined } from '@ant-design/icons';
import { Button, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Can, type EndpointGate } from '../permission/permission.tsx';
import { CrudTools } from './crud-tools.tsx';
import type { CrudColumn, CrudExport, ToolbarAction } from './types.ts';
import type { useCrudExport } from './use-crud-export.ts';
import type { useCrudPrefs } from './use-crud-prefs.ts';
import type { CrudTable } from './use-crud-table.ts';

/**
 * The bar above the table: "Add" and the page's toolbar actions (each for who may call its endpoint), the
 * count of selected rows, then the tools (expand, export, refresh, density, columns).
 */
export function CrudToolbar<Row extends object>({
  id,
  table,
  prefs,
  columns,
  create,
  toolbar,
  onCreate,
  onAction,
  selection,
  exports,
  exporter,
  onExportAll,
  tree,
}: {
  id: string;
  table: CrudTable<Row>;
  prefs: ReturnType<typeof useCrudPrefs<Row>>;
  columns: readonly CrudColumn<Row>[];
  /** The create endpoint, when the page has a dialog form for it. */
  create: EndpointGate | undefined;
  toolbar: readonly ToolbarAction<Row>[];
  onCreate: () => void;
  onAction: (action: ToolbarAction<Row>) => void;
  selection: boolean;
  exports: CrudExport | undefined;
  exporter: ReturnType<typeof useCrudExport<Row>>;
  onExportAll: () => void;
  tree: boolean;
}) {
  const { t } = useTranslation('crud');
  return (
    <div className="uiot-crud__toolbar">
      <div className="uiot-crud__toolbar-actions">
        {create && (
          <Can endpoint={create}>
            <Button type="primary" icon={<PlusOutlined />} onClick={onCreate} data-testid={`${id}-create`}>
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
              onClick={() => onAction(action)}
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
        onExportAll={onExportAll}
        tree={tree ? { expanded: table.expanded, onToggle: table.toggleExpanded } : undefined}
      />
    </div>
  );
}
