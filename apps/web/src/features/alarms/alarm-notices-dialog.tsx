import { useQuery } from '@tanstack/react-query';
import { type AlarmNoticeRow, api, type DeviceAlarmRow, type NoticeState } from '@uiot/contracts';
import { Empty, Modal, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/i18n/date-format.ts';
import { endpointQuery } from '../../lib/request/index.ts';

const STATE_COLOURS: Record<NoticeState, string> = { pending: 'gold', sent: 'success', failed: 'error' };

/**
 * Who an alarm was told to outside the console (docs/alarms.md, "Notifications"): each e-mail, SMS and
 * app push, its state and, expanded, every delivery attempt with its result.
 */
export function AlarmNoticesDialog({
  alarm,
  onClose,
}: {
  alarm: DeviceAlarmRow | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('alarms');
  const notices = useQuery({
    ...endpointQuery(api.deviceAlarm.notices, { id: alarm?.id ?? '' }),
    enabled: alarm !== null,
  });

  const columns: TableColumnsType<AlarmNoticeRow> = [
    {
      key: 'createdAt',
      title: t('notices.column.createdAt'),
      width: 165,
      render: (_, row) => formatDateTime(row.createdAt),
    },
    {
      key: 'occasion',
      title: t('notices.column.occasion'),
      width: 90,
      render: (_, row) => t(`notices.occasion.${row.occasion}`),
    },
    {
      key: 'channel',
      title: t('notices.column.channel'),
      width: 90,
      render: (_, row) => t(`notices.channel.${row.channel}`),
    },
    {
      key: 'recipient',
      title: t('notices.column.recipient'),
      ellipsis: true,
      render: (_, row) => (
        <>
          {row.staffName}
          {row.channel !== 'push' && <Typography.Text type="secondary"> · {row.address}</Typography.Text>}
        </>
      ),
    },
    {
      key: 'state',
      title: t('notices.column.state'),
      width: 100,
      render: (_, row) => (
        <Tag color={STATE_COLOURS[row.state]} data-testid="alarm-notice-state" data-state={row.state}>
          {t(`notices.state.${row.state}`)}
        </Tag>
      ),
    },
    {
      key: 'attempts',
      title: t('notices.column.attempts'),
      width: 200,
      render: (_, row) =>
        row.state === 'pending' && row.nextAttemptAt
          ? t('notices.nextAttempt', { count: row.attempts.length, time: formatDateTime(row.nextAttemptAt) })
          : t('notices.attemptCount', { count: row.attempts.length }),
    },
  ];

  return (
    <Modal
      open={alarm !== null}
      title={t('notices.title', { device: alarm?.deviceName ?? '' })}
      width={900}
      footer={null}
      onCancel={onClose}
      destroyOnHidden
    >
      <Table<AlarmNoticeRow>
        data-testid="alarm-notices"
        size="small"
        rowKey="id"
        loading={notices.isFetching}
        columns={columns}
        dataSource={notices.data ?? []}
        pagination={false}
        scroll={{ y: 480 }}
        locale={{
          emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('notices.empty')} />,
        }}
        expandable={{
          rowExpandable: (row) => row.attempts.length > 0,
          expandedRowRender: (row) => (
            <ol className="uiot-alarm-notices__attempts">
              {row.attempts.map((attempt) => (
                <li key={attempt.attempt}>
                  <Typography.Text type={attempt.ok ? 'success' : 'danger'}>
                    {t(attempt.ok ? 'notices.attemptOk' : 'notices.attemptFailed')}
                  </Typography.Text>{' '}
                  {formatDateTime(attempt.at)} · {attempt.detail}
                </li>
              ))}
            </ol>
          ),
        }}
      />
    </Modal>
  );
}
