import type { Lang, RuntimeRow } from '@uiot/contracts';
import type { TFunction } from 'i18next';
import { Link } from 'react-router';
import type { CrudColumn } from '../../lib/crud/index.ts';
import { deviceDetailPath } from './monitor-paths.ts';
import { BatteryLevel, OnlineTag, OpenStateTag, RunStateTag } from './runtime-cells.tsx';
import { formatOfflineDuration, onlineLabel, openStateLabel, runStateLabel } from './runtime-format.ts';
import { offlineSecondsAt } from './runtime-live.ts';

/** The device's name, leading to its monitor details; cut with an ellipsis, whole in the tooltip. */
function DeviceLink({ row }: { row: Pick<RuntimeRow, 'deviceId' | 'deviceName'> }) {
  return (
    <Link
      to={deviceDetailPath(row.deviceId)}
      className="uiot-monitor__device-link"
      title={row.deviceName}
      data-testid="monitorRuntime-device"
    >
      {row.deviceName}
    </Link>
  );
}

/**
 * Columns of the runtime table (spec §3 Runtime data). Every state cell carries `data-state` (test ids
 * `monitorRuntime-<column>`). "Offline for" is counted at `now`, so that it counts on as the clock moves.
 */
export function runtimeColumns(t: TFunction<'monitor'>, lang: Lang, now: Date): CrudColumn<RuntimeRow>[] {
  return [
    {
      key: 'deviceName',
      title: t('monitor:runtime.column.deviceName'),
      width: 200,
      sortable: true,
      fixed: 'left',
      render: (row) => <DeviceLink row={row} />,
    },
    {
      key: 'deviceCode',
      title: t('monitor:runtime.column.deviceCode'),
      width: 140,
      sortable: true,
      format: 'code',
    },
    { key: 'unitName', title: t('monitor:runtime.column.unitName'), width: 150, sortable: true },
    { key: 'typeName', title: t('monitor:runtime.column.typeName'), width: 130, sortable: true },
    {
      key: 'online',
      title: t('monitor:runtime.column.online'),
      width: 100,
      sortable: true,
      value: (row) => onlineLabel(t, row.online),
      render: (row) => <OnlineTag online={row.online} testId="monitorRuntime-online" />,
    },
    {
      key: 'lockState',
      title: t('monitor:runtime.column.lockState'),
      width: 120,
      sortable: true,
      value: (row) => openStateLabel(t, row.lockState),
      render: (row) => <OpenStateTag state={row.lockState} testId="monitorRuntime-lock" />,
    },
    {
      key: 'doorState',
      title: t('monitor:runtime.column.doorState'),
      width: 120,
      sortable: true,
      value: (row) => openStateLabel(t, row.doorState),
      render: (row) => <OpenStateTag state={row.doorState} testId="monitorRuntime-door" />,
    },
    {
      key: 'battery',
      title: t('monitor:runtime.column.battery'),
      width: 130,
      sortable: true,
      value: (row) => (row.battery === null ? null : `${Math.round(row.battery)}%`),
      render: (row) => <BatteryLevel battery={row.battery} testId="monitorRuntime-battery" />,
    },
    {
      key: 'runState',
      title: t('monitor:runtime.column.runState'),
      width: 120,
      sortable: true,
      value: (row) => runStateLabel(t, row.runState),
      render: (row) => <RunStateTag state={row.runState} testId="monitorRuntime-runState" />,
    },
    {
      key: 'rssi',
      title: t('monitor:runtime.column.rssi'),
      width: 130,
      align: 'right',
      sortable: true,
      value: (row) => (row.rssi === null ? null : t('monitor:rssi', { value: row.rssi })),
    },
    {
      key: 'lastCollectTime',
      title: t('monitor:runtime.column.lastCollectTime'),
      width: 165,
      format: 'dateTime',
      sortable: true,
    },
    {
      key: 'offlineSeconds',
      title: t('monitor:runtime.column.offlineSeconds'),
      width: 130,
      sortable: true,
      value: (row) => formatOfflineDuration(offlineSecondsAt(row, now), lang),
    },
    {
      key: 'devEui',
      title: t('monitor:runtime.column.devEui'),
      width: 170,
      format: 'code',
      defaultHidden: true,
    },
  ];
}
