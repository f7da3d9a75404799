import { BugOutlined } from '@ant-design/icons';
import { Badge, Button, Modal, Table, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { clearErrorLog, type ErrorLogEntry, useErrorLog } from '../../../lib/error-log/error-log.ts';
import { formatDateTime } from '../../../lib/i18n/date-format.ts';
import { getRuntimeConfig } from '../../../lib/runtime-config/runtime-config.ts';

/** The error-log button: shown only when errors exist; opens the list of this page session's errors. */
export function ErrorLogButton() {
  const { t } = useTranslation('shell');
  const entries = useErrorLog();
  const [open, setOpen] = useState(false);
  if (!getRuntimeConfig().system.errorLog || entries.length === 0) return null;

  return (
    <>
      <Tooltip title={t('errorLog.title')}>
        <Badge count={entries.length} size="small" offset={[-4, 4]}>
          <Button
            type="text"
            danger
            icon={<BugOutlined />}
            onClick={() => setOpen(true)}
            aria-label={t('errorLog.title')}
            data-testid="error-log-button"
          />
        </Badge>
      </Tooltip>
      <Modal
        open={open}
        title={t('errorLog.title')}
        width="60%"
        onCancel={() => setOpen(false)}
        footer={[
          <Button
            key="clear"
            danger
            onClick={() => {
              clearErrorLog();
              setOpen(false);
            }}
            data-testid="error-log-clear"
          >
            {t('errorLog.clear')}
          </Button>,
          <Button key="close" type="primary" onClick={() => setOpen(false)}>
            {t('common:action.close')}
          </Button>,
        ]}
      >
        <Table<ErrorLogEntry>
          data-testid="error-log-dialog"
          rowKey="id"
          size="small"
          dataSource={[...entries]}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          scroll={{ x: 720 }}
          columns={[
            {
              title: t('errorLog.time'),
              dataIndex: 'time',
              width: 170,
              render: (time: number) => formatDateTime(time),
            },
            {
              title: t('errorLog.source'),
              dataIndex: 'source',
              width: 110,
              render: (source: ErrorLogEntry['source']) => (
                <Tag color={source === 'request' ? 'orange' : 'red'}>{t(`errorLog.sources.${source}`)}</Tag>
              ),
            },
            {
              title: t('errorLog.message'),
              key: 'message',
              render: (_, entry) => (
                <div className="uiot-error-log__message">
                  <Typography.Text strong>{entry.title}</Typography.Text>
                  {entry.text && entry.text !== entry.title && <div>{entry.text}</div>}
                  {entry.detail && (
                    <Typography.Text type="secondary" className="uiot-error-log__detail">
                      {entry.detail}
                    </Typography.Text>
                  )}
                </div>
              ),
            },
          ]}
        />
      </Modal>
    </>
  );
}
