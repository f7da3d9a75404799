import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { ALARM_SEVERITIES, ALARM_STATES, type AlarmState, api, type DeviceAlarmRow } from '@uiot/contracts';
import type { TFunction } from 'i18next';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type CallOptions,
  type CrudColumn,
  type CrudExport,
  CrudPage,
  type RowAction,
  type SearchField,
  TIME_RANGE_FIELD,
  timeRangeSearchField,
} from '../../lib/crud/index.ts';
import { toastSuccess } from '../../lib/feedback/feedback.ts';
import { call } from '../../lib/request/index.ts';
import { EllipsisText } from '../../lib/ui/ellipsis-text.tsx';
import { AlarmNoticesDialog } from './alarm-notices-dialog.tsx';
import { refreshAlarms } from './alarm-queries.ts';
import { alarmActions } from './alarm-state.ts';
import { AlarmSeverityTag, AlarmStateTag } from './alarm-tags.tsx';

/**
 * The row actions of the records. Acknowledging and resetting tell what was done to the alarm (the generic
 * "edited" or "reset" texts would not); a failure is shown by the request layer.
 */
export function alarmRowActions(
  t: TFunction<'alarms'>,
  queryClient: QueryClient,
  showNotices: (row: DeviceAlarmRow) => void,
): RowAction<DeviceAlarmRow>[] {
  const about = (row: DeviceAlarmRow) => ({ content: row.content, device: row.deviceName });
  // The bell and Home count what an acknowledgement or a reset changes.
  const act = async (endpoint: typeof api.deviceAlarm.reset, row: DeviceAlarmRow, options: CallOptions) => {
    await call(endpoint, { query: { id: row.id } }, options);
    refreshAlarms(queryClient);
  };
  return [
    {
      key: 'acknowledge',
      label: t('action.acknowledge'),
      endpoint: api.deviceAlarm.acknowledge,
      when: (row) => alarmActions(row).acknowledge,
      confirm: (row) => t('confirm.acknowledge', about(row)),
      run: async (row, ctx) => {
        await act(api.deviceAlarm.acknowledge, row, ctx.callOptions);
        toastSuccess(t('done.acknowledge'));
      },
    },
    {
      key: 'reset',
      label: t('action.reset'),
      endpoint: api.deviceAlarm.reset,
      danger: true,
      when: (row) => alarmActions(row).reset,
      confirm: (row) => t('confirm.reset', about(row)),
      run: async (row, ctx) => {
        await act(api.deviceAlarm.reset, row, ctx.callOptions);
        toastSuccess(t('done.reset'));
      },
    },
    {
      key: 'notices',
      label: t('action.notices'),
      endpoint: api.deviceAlarm.notices,
      run: (row) => showNotices(row),
    },
  ];
}

export interface AlarmRecordsProps {
  /** Test-id prefix of the kit (`<id>-table`, `<id>-row-acknowledge`, ...). */
  id: string;
  title: string;
  /** One device's alarms (the monitor's historical-alarm tab): no device column nor device search. */
  deviceId?: string;
  /** The state searched when the records open (the bell opens the open alarms). */
  initialState?: AlarmState | undefined;
  /** The export buttons (the records page). */
  exportable?: boolean;
}

/**
 * Device alarms (spec §3 Device alarm), newest first, paged: content, device, warn time, state, severity,
 * reset time and staff, acknowledgement and reminders; an open alarm offers Acknowledge and, where the
 * server says it can be reset, Reset, each for holders of its key and confirmed first.
 */
export function AlarmRecords({ id, title, deviceId, initialState, exportable = false }: AlarmRecordsProps) {
  const { t } = useTranslation('alarms');
  const oneDevice = deviceId !== undefined;

  const search = useMemo<SearchField[]>(() => {
    const fields: SearchField[] = [
      timeRangeSearchField(t('search.range')),
      {
        kind: 'select',
        name: 'state',
        label: t('search.state'),
        options: ALARM_STATES.map((state) => ({ value: state, label: t(`state.${state}`) })),
        initialValue: initialState,
      },
      {
        kind: 'select',
        name: 'severity',
        label: t('search.severity'),
        options: ALARM_SEVERITIES.map((severity) => ({ value: severity, label: t(`severity.${severity}`) })),
      },
    ];
    if (!oneDevice) {
      fields.push({ kind: 'text', name: 'deviceName', label: t('search.deviceName'), maxLength: 64 });
    }
    return fields;
  }, [t, initialState, oneDevice]);

  const columns = useMemo<CrudColumn<DeviceAlarmRow>[]>(() => {
    const device: CrudColumn<DeviceAlarmRow>[] = oneDevice
      ? []
      : [
          { key: 'deviceName', title: t('column.deviceName'), width: 150, sortable: true },
          { key: 'deviceCode', title: t('column.deviceCode'), width: 140, defaultHidden: true },
        ];
    return [
      {
        key: 'warnTime',
        title: t('column.warnTime'),
        width: 165,
        format: 'dateTime',
        sortable: true,
        fixed: 'left',
      },
      {
        key: 'content',
        title: t('column.content'),
        width: 280,
        render: (row) => <EllipsisText text={row.content} />,
      },
      ...device,
      {
        key: 'state',
        title: t('column.state'),
        width: 100,
        sortable: true,
        value: (row) => t(`state.${row.state}`),
        render: (row) => <AlarmStateTag state={row.state} />,
      },
      {
        key: 'severity',
        title: t('column.severity'),
        width: 100,
        sortable: true,
        value: (row) => t(`severity.${row.severity}`),
        render: (row) => <AlarmSeverityTag severity={row.severity} />,
      },
      { key: 'ruleName', title: t('column.ruleName'), width: 150, defaultHidden: true },
      { key: 'resetTime', title: t('column.resetTime'), width: 165, format: 'dateTime', sortable: true },
      { key: 'resetStaffName', title: t('column.resetStaffName'), width: 110 },
      { key: 'ackStaffName', title: t('column.ackStaffName'), width: 110 },
      { key: 'ackTime', title: t('column.ackTime'), width: 165, format: 'dateTime' },
      {
        key: 'sendCount',
        title: t('column.sendCount'),
        width: 110,
        align: 'right',
        value: (row) => t('sendCountValue', { count: row.sendCount }),
      },
    ];
  }, [t, oneDevice]);

  const queryClient = useQueryClient();
  const [noticesOf, setNoticesOf] = useState<DeviceAlarmRow | null>(null);
  const rowActions = useMemo(() => alarmRowActions(t, queryClient, setNoticesOf), [t, queryClient]);

  const exports = useMemo<CrudExport | undefined>(
    () => (exportable ? { endpoint: api.deviceAlarm.export, range: TIME_RANGE_FIELD } : undefined),
    [exportable],
  );

  return (
    <>
      <CrudPage<DeviceAlarmRow>
        id={id}
        title={title}
        rowKey="id"
        query={api.deviceAlarm.queryPage}
        fixedQuery={oneDevice ? { deviceId } : undefined}
        columns={columns}
        search={search}
        rowActions={rowActions}
        exports={exports}
        actionsWidth={220}
      />
      <AlarmNoticesDialog alarm={noticesOf} onClose={() => setNoticesOf(null)} />
    </>
  );
}
