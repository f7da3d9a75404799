import { api, COMMAND_STATES, type DeviceCommandRow, translateResult } from '@uiot/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type CrudColumn, CrudPage, type SearchField, timeRangeSearchField } from '../../lib/crud/index.ts';
import { useLang } from '../../lib/i18n/use-lang.ts';
import { CommandStateTag, commandNameOf, commandStateLabel } from './command-state.tsx';
import { MessageCell } from './message-cell.tsx';
import { protocolLabel } from './protocol.ts';
import './iot.css';

/**
 * Remote command records (spec §2 /data-statistics/device-command, §3 Device command): every command sent
 * to a lock, newest first, with how far it got (spec §4 states), how often it was sent and who sent it.
 */
export function DeviceCommandPage() {
  const { t } = useTranslation('iot');
  const lang = useLang();

  const search = useMemo<SearchField[]>(
    () => [
      timeRangeSearchField(t('command.search.range')),
      { kind: 'text', name: 'deviceName', label: t('command.search.deviceName'), maxLength: 64 },
      {
        kind: 'select',
        name: 'state',
        label: t('command.search.state'),
        options: COMMAND_STATES.map((state) => ({ value: state, label: commandStateLabel(t, state) })),
      },
    ],
    [t],
  );

  const columns = useMemo<CrudColumn<DeviceCommandRow>[]>(
    () => [
      {
        key: 'createTime',
        title: t('command.column.createTime'),
        width: 165,
        format: 'dateTime',
        sortable: true,
        fixed: 'left',
      },
      { key: 'deviceName', title: t('command.column.deviceName'), width: 150 },
      { key: 'deviceCode', title: t('command.column.deviceCode'), width: 130 },
      { key: 'name', title: t('command.column.name'), width: 150, render: (row) => commandNameOf(t, row) },
      { key: 'cmdCode', title: t('command.column.cmdCode'), width: 110, format: 'code', defaultHidden: true },
      {
        key: 'params',
        title: t('command.column.params'),
        width: 180,
        format: 'code',
        render: (row) =>
          row.params === '' ? null : (
            <MessageCell title={t('command.column.params')} text={row.params} testId="deviceCommand-params" />
          ),
      },
      {
        key: 'state',
        title: t('command.column.state'),
        width: 130,
        sortable: true,
        value: (row) => commandStateLabel(t, row.state),
        render: (row) => <CommandStateTag state={row.state} testId="deviceCommand-state" />,
      },
      {
        key: 'attempts',
        title: t('command.column.attempts'),
        width: 100,
        align: 'right',
        value: (row) => `${row.attempts} / ${row.maxRetransmit + 1}`,
      },
      { key: 'sendTime', title: t('command.column.sendTime'), width: 165, format: 'dateTime' },
      {
        key: 'transport',
        title: t('command.column.transport'),
        width: 170,
        value: (row) => (row.transport ? protocolLabel(t, row.transport) : ''),
      },
      {
        key: 'detail',
        title: t('command.column.detail'),
        width: 240,
        value: (row) =>
          row.failure ? (translateResult(row.failure.code, lang, row.failure.params) ?? '') : row.detail,
      },
      { key: 'expireTime', title: t('command.column.expireTime'), width: 165, format: 'dateTime' },
      { key: 'finishTime', title: t('command.column.finishTime'), width: 165, format: 'dateTime' },
      { key: 'staffName', title: t('command.column.staffName'), width: 120 },
      {
        key: 'receiveId',
        title: t('command.column.receiveId'),
        width: 200,
        format: 'code',
        defaultHidden: true,
      },
      {
        key: 'platformDeviceId',
        title: t('command.column.platformDeviceId'),
        width: 160,
        format: 'code',
        defaultHidden: true,
      },
    ],
    [t, lang],
  );

  return (
    <CrudPage<DeviceCommandRow>
      id="deviceCommand"
      title={t('command.title')}
      rowKey="id"
      query={api.deviceCommand.queryPage}
      columns={columns}
      search={search}
    />
  );
}
