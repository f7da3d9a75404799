import type { DeviceRow } from '@uiot/contracts';
import { Descriptions, Drawer, Empty, Tabs } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeatureFlags } from '../../../lib/auth/index.ts';
import { formatDateTime } from '../../../lib/i18n/date-format.ts';
import { EllipsisText } from '../../../lib/ui/ellipsis-text.tsx';
import { deviceCategoryLabel } from '../device-type-tree.ts';
import { AdjustValuesTab } from './adjust-values-tab.tsx';
import { AttachmentsTab } from './attachments-tab.tsx';
import { type DetailTab, visibleDetailTabs } from './detail-tabs.ts';
import { RegistTag } from './ledger-columns.tsx';
import { iotTypeLabel, registLabel, runStateLabel } from './ledger-options.ts';
import { LockCodesTab } from './lock-codes-tab.tsx';

const TAB_CONTENT: Record<DetailTab, (device: DeviceRow) => ReactNode> = {
  lockCodes: (device) => <LockCodesTab device={device} />,
  adjustValues: (device) => <AdjustValuesTab device={device} />,
  attachments: (device) => <AttachmentsTab device={device} />,
};

/**
 * A device's details (spec §2 device ledger tabs): what identifies it, then its lock codes, correction
 * values and attached devices, each tab shown by its feature flag.
 */
export function DeviceDetails({
  device,
  open,
  onClose,
}: {
  device: DeviceRow;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('ledger');
  const tabs = visibleDetailTabs(useFeatureFlags());
  const text = (value: string | null | undefined) => <EllipsisText text={value} />;

  const facts = [
    { key: 'unitName', label: t('column.unitName'), children: text(device.unitName) },
    { key: 'typeName', label: t('column.typeName'), children: text(device.typeName) },
    { key: 'category', label: t('column.category'), children: text(deviceCategoryLabel(t, device.category)) },
    {
      key: 'regist',
      label: t('column.regist'),
      children: <RegistTag regist={device.regist} label={registLabel(t, device.regist)} />,
    },
    { key: 'status', label: t('column.status'), children: text(runStateLabel(t, device.status)) },
    { key: 'code', label: t('column.code'), children: text(device.code) },
    { key: 'imei', label: t('column.imei'), children: text(device.imei) },
    { key: 'iotType', label: t('column.iotType'), children: text(iotTypeLabel(t, device.iotType)) },
    { key: 'deptName', label: t('column.deptName'), children: text(device.deptName) },
    { key: 'staffName', label: t('column.staffName'), children: text(device.staffName) },
    {
      key: 'registTime',
      label: t('column.registTime'),
      children: text(device.registTime ? formatDateTime(device.registTime) : null),
    },
    { key: 'addr', label: t('column.addr'), children: text(device.addr) },
  ];

  return (
    <Drawer
      open={open}
      onClose={onClose}
      size="min(1100px, 100vw)"
      title={<span className="uiot-ledger__details-title">{t('details.title', { name: device.name })}</span>}
      destroyOnHidden
    >
      <div className="uiot-ledger__details" data-testid="device-details">
        <Descriptions
          size="small"
          bordered
          column={{ xs: 1, sm: 2, lg: 3 }}
          items={facts}
          className="uiot-ledger__facts"
          data-testid="device-facts"
        />
        {tabs.length > 0 ? (
          <Tabs
            destroyOnHidden
            items={tabs.map((key) => ({
              key,
              label: <span data-testid={`tab-${key}`}>{t(`details.tab.${key}`)}</span>,
              children: TAB_CONTENT[key](device),
            }))}
          />
        ) : (
          <Empty description={t('details.noTabs')} data-testid="device-details-empty" />
        )}
      </div>
    </Drawer>
  );
}
