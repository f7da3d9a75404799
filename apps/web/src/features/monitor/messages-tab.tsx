import { api, type DeviceHistoryRow } from '@uiot/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type CrudColumn, CrudPage, timeRangeSearchField } from '../../lib/crud/index.ts';
import { MessageCell } from '../iot/message-cell.tsx';
import { protocolLabel } from '../iot/protocol.ts';
import '../iot/iot.css';

/**
 * The communication logs of a device (spec §2 monitor details, §3 Device history): its messages, newest
 * first, as received and as read; the details page reloads them when the device reports. Test ids
 * `monitorMessages-*`.
 */
export function MessagesTab({ deviceId }: { deviceId: string }) {
  // The column titles are the telemetry records' (namespace iot); the tab's own title is the monitor's.
  const { t } = useTranslation('monitor');
  const search = useMemo(() => [timeRangeSearchField(t('iot:message.search.range'))], [t]);
  const columns = useMemo<CrudColumn<DeviceHistoryRow>[]>(() => {
    const message = (key: 'rawMessage' | 'content', title: string): CrudColumn<DeviceHistoryRow> => ({
      key,
      title,
      width: 300,
      format: 'code',
      render: (row) => <MessageCell title={title} text={row[key]} testId={`monitorMessages-${key}`} />,
    });
    return [
      {
        key: 'reportTime',
        title: t('iot:message.column.reportTime'),
        width: 165,
        format: 'dateTime',
        sortable: true,
        fixed: 'left',
      },
      {
        key: 'protocol',
        title: t('iot:message.column.protocol'),
        width: 150,
        value: (row) => protocolLabel(t, row.protocol),
      },
      message('rawMessage', t('iot:message.column.rawMessage')),
      message('content', t('iot:message.column.content')),
      { key: 'messageId', title: t('iot:message.column.messageId'), width: 200, format: 'code' },
      {
        key: 'receiveTime',
        title: t('iot:message.column.receiveTime'),
        width: 165,
        format: 'dateTime',
        defaultHidden: true,
      },
    ];
  }, [t]);

  return (
    <CrudPage<DeviceHistoryRow>
      id="monitorMessages"
      title={t('message.title')}
      rowKey="id"
      query={api.deviceHistory.queryPage}
      fixedQuery={{ deviceId }}
      columns={columns}
      search={search}
    />
  );
}
