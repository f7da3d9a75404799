import type { RuntimeRow } from '@uiot/contracts';
import { Descriptions, Empty, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/i18n/date-format.ts';
import { EllipsisText } from '../../lib/ui/ellipsis-text.tsx';
import { BatteryLevel, RunStateTag } from './runtime-cells.tsx';

/**
 * Data collection (spec §2 monitor details): what the device's reports last carried, the fixed values and
 * its extension properties, live with the runtime data. Test ids `monitorCollection-*`.
 */
export function CollectionTab({ runtime }: { runtime: RuntimeRow }) {
  const { t } = useTranslation('monitor');
  const props = Object.entries(runtime.props).sort(([a], [b]) => a.localeCompare(b));
  return (
    <div data-testid="monitorCollection">
      <Typography.Title level={5} className="uiot-monitor__section-title">
        {t('collection.values')}
      </Typography.Title>
      <Descriptions
        size="small"
        bordered
        column={{ xs: 1, sm: 2, lg: 3 }}
        className="uiot-monitor__facts"
        items={[
          {
            key: 'battery',
            label: t('runtime.column.battery'),
            children: <BatteryLevel battery={runtime.battery} testId="monitorCollection-battery" />,
          },
          {
            key: 'rssi',
            label: t('runtime.column.rssi'),
            children: (
              <EllipsisText text={runtime.rssi === null ? null : t('rssi', { value: runtime.rssi })} />
            ),
          },
          {
            key: 'runState',
            label: t('runtime.column.runState'),
            children: <RunStateTag state={runtime.runState} testId="monitorCollection-runState" />,
          },
          {
            key: 'lastCollectTime',
            label: t('runtime.column.lastCollectTime'),
            children: (
              <EllipsisText text={runtime.lastCollectTime && formatDateTime(runtime.lastCollectTime)} />
            ),
          },
          {
            key: 'devEui',
            label: t('runtime.column.devEui'),
            children: <EllipsisText text={runtime.devEui} code />,
          },
        ]}
      />
      <Typography.Title level={5} className="uiot-monitor__section-title">
        {t('collection.props')}
      </Typography.Title>
      {props.length > 0 ? (
        <Descriptions
          size="small"
          bordered
          column={{ xs: 1, sm: 2, lg: 3 }}
          className="uiot-monitor__facts"
          data-testid="monitorCollection-props"
          items={props.map(([name, value]) => ({
            key: name,
            label: <EllipsisText text={name} />,
            children: <EllipsisText text={String(value)} />,
          }))}
        />
      ) : (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={t('collection.noProps')}
          data-testid="monitorCollection-noProps"
        />
      )}
    </div>
  );
}
