import type { DeviceTypeNode } from '@uiot/contracts';
import type { TFunction } from 'i18next';
import type { CrudColumn } from '../../lib/crud/index.ts';
import { deviceCategoryLabel } from './device-type-tree.ts';
import { IntervalText } from './interval-view.tsx';

/**
 * The columns of a device type on the device types page and the interval page: name, code, category, the
 * reporting and heartbeat intervals, and how many devices are of the type.
 */
export function deviceTypeColumns(t: TFunction<'deviceType'>): CrudColumn<DeviceTypeNode>[] {
  return [
    { key: 'name', title: t('deviceType:column.name'), width: 200, fixed: 'left' },
    { key: 'code', title: t('deviceType:column.code'), width: 100, format: 'code' },
    {
      key: 'category',
      title: t('deviceType:column.category'),
      width: 110,
      value: (row) => deviceCategoryLabel(t, row.category),
    },
    {
      key: 'reportInterval',
      title: t('deviceType:column.reportInterval'),
      width: 160,
      render: (row) => <IntervalText seconds={row.reportInterval} />,
    },
    {
      key: 'heartbeatInterval',
      title: t('deviceType:column.heartbeatInterval'),
      width: 160,
      render: (row) => <IntervalText seconds={row.heartbeatInterval} />,
    },
    { key: 'deviceCount', title: t('deviceType:column.deviceCount'), width: 80, align: 'right' },
  ];
}
