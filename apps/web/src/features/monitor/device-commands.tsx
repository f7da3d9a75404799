import { api, type DeviceCommandRow, translateResult } from '@uiot/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type CrudColumn, CrudPage, useLivePages } from '../../lib/crud/index.ts';
import { useLang } from '../../lib/i18n/use-lang.ts';
import { CommandStateTag, commandNameOf, commandStateLabel } from '../iot/index.ts';
import { MessageCell } from '../iot/message-cell.tsx';
import { mergeCommandPage } from './command-live.ts';

const COMMAND_PATH = api.deviceCommand.queryPage.path;
/**
 * The commands sent to one device, newest first (spec §3 Device command), their states following the
 * console's command events as they come (spec §4 Realtime). Test ids `monitorCommands-*`.
 */
export function DeviceCommands({ deviceId }: { deviceId: string }) {
  // The column titles are the command records' (namespace iot); the table's own title is the monitor's.
  const { t } = useTranslation('monitor');
  const lang = useLang();
  useLivePages('command', COMMAND_PATH, mergeCommandPage);

  const columns = useMemo<CrudColumn<DeviceCommandRow>[]>(
    () => [
      {
        key: 'createTime',
        title: t('iot:command.column.createTime'),
        width: 165,
        format: 'dateTime',
        sortable: true,
        fixed: 'left',
      },
      {
        key: 'name',
        title: t('iot:command.column.name'),
        width: 150,
        render: (row) => commandNameOf(t, row),
      },
      {
        key: 'params',
        title: t('iot:command.column.params'),
        width: 200,
        format: 'code',
        render: (row) =>
          row.params === '' ? null : (
            <MessageCell
              title={t('iot:command.column.params')}
              text={row.params}
              testId="monitorCommands-params"
            />
          ),
      },
      {
        key: 'state',
        title: t('iot:command.column.state'),
        width: 140,
        sortable: true,
        value: (row) => commandStateLabel(t, row.state),
        render: (row) => <CommandStateTag state={row.state} testId="monitorCommands-state" />,
      },
      {
        key: 'attempts',
        title: t('iot:command.column.attempts'),
        width: 100,
        align: 'right',
        value: (row) => `${row.attempts} / ${row.maxRetransmit + 1}`,
      },
      { key: 'sendTime', title: t('iot:command.column.sendTime'), width: 165, format: 'dateTime' },
      { key: 'finishTime', title: t('iot:command.column.finishTime'), width: 165, format: 'dateTime' },
      {
        key: 'detail',
        title: t('iot:command.column.detail'),
        width: 240,
        value: (row) =>
          row.failure ? (translateResult(row.failure.code, lang, row.failure.params) ?? '') : row.detail,
      },
      { key: 'staffName', title: t('iot:command.column.staffName'), width: 120 },
    ],
    [t, lang],
  );

  return (
    <CrudPage<DeviceCommandRow>
      id="monitorCommands"
      title={t('param.commands')}
      rowKey="id"
      query={api.deviceCommand.queryPage}
      fixedQuery={{ deviceId }}
      columns={columns}
    />
  );
}
