import {
  ColumnHeightOutlined,
  DownloadOutlined,
  NodeCollapseOutlined,
  NodeExpandOutlined,
  ReloadOutlined,
  SettingOutlined,
} from '@ant-design/icons';
import { Button, Checkbox, Dropdown, Popover, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { Can, type EndpointGate } from '../permission/permission.tsx';
import type { CrudColumn, CrudExport } from './types.ts';
import type { Density } from './use-crud-prefs.ts';

const SIGNED_IN: EndpointGate = { access: 'signedIn' };

/** The tools right of a table's toolbar: tree expand, refresh, density, columns, export. */
export function CrudTools<Row>({
  id,
  columns,
  hidden,
  defaultHidden,
  onHiddenChange,
  density,
  onDensityChange,
  onRefresh,
  refreshing,
  exports,
  exporting,
  onExportPage,
  onExportAll,
  tree,
}: {
  id: string;
  columns: readonly CrudColumn<Row>[];
  hidden: readonly string[];
  defaultHidden: string[];
  onHiddenChange: (hidden: string[]) => void;
  density: Density;
  onDensityChange: (density: Density) => void;
  onRefresh: () => void;
  refreshing: boolean;
  exports: CrudExport | undefined;
  exporting: boolean;
  onExportPage: () => void;
  onExportAll: () => void;
  tree: { expanded: boolean; onToggle: () => void } | undefined;
}) {
  const { t } = useTranslation('crud');
  const shown = columns.filter((column) => !hidden.includes(column.key)).map((column) => column.key);

  const columnChooser = (
    <div className="uiot-crud__columns" data-testid={`${id}-columns-panel`}>
      <Checkbox.Group
        value={shown}
        onChange={(keys) =>
          onHiddenChange(columns.map((column) => column.key).filter((key) => !keys.includes(key)))
        }
        options={columns.map((column) => ({ value: column.key, label: column.title }))}
      />
      <Button type="link" size="small" onClick={() => onHiddenChange(defaultHidden)}>
        {t('toolbar.columnsReset')}
      </Button>
    </div>
  );

  return (
    <div className="uiot-crud__tools">
      {tree && (
        <Button
          onClick={tree.onToggle}
          icon={tree.expanded ? <NodeCollapseOutlined /> : <NodeExpandOutlined />}
          data-testid={`${id}-expand`}
        >
          {tree.expanded ? t('toolbar.collapseAll') : t('toolbar.expandAll')}
        </Button>
      )}
      {exports && (
        // Without an export endpoint of its own, whoever sees the page may export it.
        <Can endpoint={exports.endpoint ?? SIGNED_IN}>
          <Dropdown
            trigger={['click']}
            menu={{
              items: [
                { key: 'page', label: <span data-testid={`${id}-export-page`}>{t('export.page')}</span> },
                { key: 'all', label: <span data-testid={`${id}-export-all`}>{t('export.all')}</span> },
              ],
              onClick: ({ key }) => (key === 'page' ? onExportPage() : onExportAll()),
            }}
          >
            <Button icon={<DownloadOutlined />} loading={exporting} data-testid={`${id}-export`}>
              {t('export.button')}
            </Button>
          </Dropdown>
        </Can>
      )}
      <Tooltip title={t('toolbar.refresh')}>
        <Button
          type="text"
          icon={<ReloadOutlined spin={refreshing} />}
          onClick={onRefresh}
          aria-label={t('toolbar.refresh')}
          data-testid={`${id}-refresh`}
        />
      </Tooltip>
      <Dropdown
        trigger={['click']}
        menu={{
          selectable: true,
          selectedKeys: [density],
          items: [
            { key: 'default', label: t('toolbar.densityDefault') },
            { key: 'middle', label: t('toolbar.densityMiddle') },
            { key: 'small', label: t('toolbar.densitySmall') },
          ],
          onClick: ({ key }) => onDensityChange(key as Density),
        }}
      >
        <Tooltip title={t('toolbar.density')}>
          <Button
            type="text"
            icon={<ColumnHeightOutlined />}
            aria-label={t('toolbar.density')}
            data-testid={`${id}-density`}
          />
        </Tooltip>
      </Dropdown>
      <Popover trigger="click" placement="bottomRight" title={t('toolbar.columns')} content={columnChooser}>
        <Tooltip title={t('toolbar.columns')}>
          <Button
            type="text"
            icon={<SettingOutlined />}
            aria-label={t('toolbar.columns')}
            data-testid={`${id}-columns`}
          />
        </Tooltip>
      </Popover>
    </div>
  );
}
