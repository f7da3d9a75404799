import { api, type DeviceHistoryRow } from '@uiot/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type CrudColumn,
  CrudPage,
  type SearchField,
  TIME_RANGE_FIELD,
  timeRangeSearchField,
} from '../../lib/crud/index.ts';
import { MessageCell } from './message-cell.tsx';
import { protocolLabel } from './protocol.ts';
import './iot.css';

/**
 * Telemetry records (spec §2 /data-statistics/iot-message, §3 Device history): every message a device
 * sent, newest first, as received and as the server read it. Like the logs, the server's CSV export needs a
 * time range of at most a year.
 */
export function IotMessagePage() {
  const { t } = useTranslation('iot');

  const search = useMemo<SearchField[]>(
    () => [
      timeRangeSearchField(t('message.search.range')),
      { kind: 'text', name: 'deviceName', label: t('message.search.deviceName'), maxLength: 64 },
    ],
    [t],
  );

  const columns = useMemo<CrudColumn<DeviceHistoryRow>[]>(() => {
    // Raw messages run long: the cell shows a line, a click the whole message (the CSV holds it whole).
    const message = (key: 'rawMessage' | 'content', title: string): CrudColumn<DeviceHistoryRow> => ({
      key,
      title,
      width: 280,
      format: 'code',
      render: (row) => <MessageCell title={title} text={row[key]} testId={`iotMessage-${key}`} />,
    });
    return [
      {
        key: 'reportTime',
        title: t('message.column.reportTime'),
        width: 165,
        format: 'dateTime',
        sortable: true,
        fixed: 'left',
      },
      { key: 'deviceName', title: t('message.column.deviceName'), width: 150 },
      { key: 'deviceCode', title: t('message.column.deviceCode'), width: 140 },
      {
        key: 'protocol',
        title: t('message.column.protocol'),
        width: 150,
        value: (row) => protocolLabel(t, row.protocol),
      },
      { key: 'messageId', title: t('message.column.messageId'), width: 200, format: 'code' },
      {
        key: 'receiveTime',
        title: t('message.column.receiveTime'),
        width: 165,
        format: 'dateTime',
        defaultHidden: true,
      },
      message('rawMessage', t('message.column.rawMessage')),
      message('content', t('message.column.content')),
    ];
  }, [t]);

  return (
    <CrudPage<DeviceHistoryRow>
      id="iotMessage"
      title={t('message.title')}
      rowKey="id"
      query={api.deviceHistory.queryPage}
      columns={columns}
      search={search}
      exports={{
        endpoint: api.deviceHistory.export,
        range: TIME_RANGE_FIELD,
      }}
    />
  );
}
