import { api, type RuntimeRow } from '@uiot/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage, type SearchField } from '../../lib/crud/index.ts';
import { useLang } from '../../lib/i18n/use-lang.ts';
import { useClock } from '../../lib/use-clock.ts';
import { deviceTypeOptions, useDeviceTypeTree } from '../devices/device-type-tree.ts';
import { unitOptions, useUnitTree } from '../devices/unit-tree.ts';
import { remoteRowActions } from '../tasks/index.ts';
import { useBatteryBands } from './battery-bands.ts';
import { runtimeColumns } from './runtime-columns.tsx';
import { batteryBandOptions, onlineOptions, openStateOptions, runStateOptions } from './runtime-format.ts';
import { RuntimeSummaryCard } from './runtime-summary.tsx';
import { useLiveRuntime } from './use-live-runtime.ts';
import './monitor.css';

/**
 * The runtime monitor (spec §2 /monitor/runtime, §3 Runtime data): counters over the registered devices and
 * their runtime data, searched by ledger fields and states, kept live from the console's runtime events
 * (spec §4 Realtime) without reloading. A device's name leads to its monitor details; a row opens or closes
 * the lock remotely.
 */
export function RuntimePage() {
  const { t } = useTranslation('monitor');
  const lang = useLang();
  const units = useUnitTree();
  const types = useDeviceTypeTree();
  const bands = useBatteryBands();
  useLiveRuntime();

  const search = useMemo<SearchField[]>(
    () => [
      { kind: 'text', name: 'name', label: t('runtime.search.name'), maxLength: 64 },
      { kind: 'text', name: 'code', label: t('runtime.search.code'), maxLength: 64 },
      {
        kind: 'treeSelect',
        name: 'unitId',
        label: t('runtime.search.unit'),
        treeData: unitOptions(units.data ?? []),
      },
      {
        kind: 'treeSelect',
        name: 'typeId',
        label: t('runtime.search.type'),
        treeData: deviceTypeOptions(types.data ?? []),
      },
      { kind: 'select', name: 'online', label: t('runtime.search.online'), options: onlineOptions(t) },
      {
        kind: 'select',
        name: 'lockState',
        label: t('runtime.search.lockState'),
        options: openStateOptions(t),
      },
      {
        kind: 'select',
        name: 'doorState',
        label: t('runtime.search.doorState'),
        options: openStateOptions(t),
      },
      { kind: 'select', name: 'runState', label: t('runtime.search.runState'), options: runStateOptions(t) },
      {
        kind: 'select',
        name: 'batteryBand',
        label: t('runtime.search.batteryBand'),
        options: batteryBandOptions(t, bands),
      },
    ],
    [t, units.data, types.data, bands],
  );
  // "Offline for" counts on while the page is open.
  const now = useClock();
  const columns = useMemo(() => runtimeColumns(t, lang, now), [t, lang, now]);
  // The monitor lists registered devices: remote commands go to those the user may operate.
  const rowActions = useMemo(
    () =>
      remoteRowActions<RuntimeRow>(t, (row) =>
        row.abilities.operate ? { id: row.deviceId, name: row.deviceName } : null,
      ),
    [t],
  );

  return (
    <div className="uiot-monitor">
      <RuntimeSummaryCard title={t('runtime.title')} />
      <CrudPage<RuntimeRow>
        id="monitorRuntime"
        title={t('runtime.title')}
        rowKey="deviceId"
        query={api.runtime.queryPage}
        columns={columns}
        search={search}
        rowActions={rowActions}
        actionsWidth={200}
      />
    </div>
  );
}
