import { api, type outboxRow } from '@uiot/contracts';
import { Descriptions, Modal, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { type CrudColumn, CrudPage, type SearchField } from '../../lib/crud/index.ts';
import { formatDateTime } from '../../lib/i18n/date-format.ts';

type OutboxRow = z.infer<typeof outboxRow>;

const STATE_COLOR: Record<OutboxRow['state'], string> = {
  sent: 'success',
  failed: 'error',
  kept: 'blue',
  pending: 'gold',
};

/**
 * The mail outbox: every mail the system sent or keeps (kept when no SMTP server is configured), with its
 * text in a view dialog.
 */
export function OutboxTab() {
  const { t } = useTranslation('sysMessage');
  const [viewed, setViewed] = useState<OutboxRow | null>(null);

  const stateTag = (row: OutboxRow) => (
    <Tag color={STATE_COLOR[row.state]} data-testid={`outbox-state-${row.state}`}>
      {t(`outbox.state.${row.state}`)}
    </Tag>
  );

  const columns: CrudColumn<OutboxRow>[] = [
    { key: 'recipient', title: t('outbox.column.recipient'), width: 220 },
    { key: 'subject', title: t('outbox.column.subject'), width: 260 },
    {
      key: 'state',
      title: t('outbox.column.state'),
      width: 100,
      value: (row) => t(`outbox.state.${row.state}`),
      render: stateTag,
    },
    { key: 'createdAt', title: t('outbox.column.createdAt'), width: 170, format: 'dateTime', sortable: true },
    { key: 'sentAt', title: t('outbox.column.sentAt'), width: 170, format: 'dateTime' },
    { key: 'error', title: t('outbox.column.error'), width: 220 },
  ];

  const search: SearchField[] = [
    { kind: 'text', name: 'recipient', label: t('outbox.column.recipient'), maxLength: 128 },
  ];

  return (
    <>
      <CrudPage<OutboxRow>
        id="outbox"
        title={t('tab.outbox')}
        rowKey="id"
        query={api.registration.queryOutboxPage}
        columns={columns}
        search={search}
        rowActions={[
          {
            key: 'view',
            label: t('outbox.action.view'),
            endpoint: api.registration.queryOutboxPage,
            run: (row) => setViewed(row),
          },
        ]}
      />
      <Modal
        open={viewed !== null}
        title={viewed?.subject}
        width="50%"
        footer={null}
        onCancel={() => setViewed(null)}
        destroyOnHidden
      >
        {viewed && (
          <div data-testid="outbox-mail">
            <Descriptions
              size="small"
              column={1}
              style={{ marginBottom: 12 }}
              items={[
                { key: 'recipient', label: t('outbox.column.recipient'), children: viewed.recipient },
                { key: 'state', label: t('outbox.column.state'), children: stateTag(viewed) },
                {
                  key: 'createdAt',
                  label: t('outbox.column.createdAt'),
                  children: formatDateTime(viewed.createdAt),
                },
                {
                  key: 'sentAt',
                  label: t('outbox.column.sentAt'),
                  children: formatDateTime(viewed.sentAt),
                },
                ...(viewed.error
                  ? [{ key: 'error', label: t('outbox.column.error'), children: viewed.error }]
                  : []),
              ]}
            />
            <pre className="uiot-sys-message__body" data-testid="outbox-mail-body">
              {viewed.body}
            </pre>
          </div>
        )}
      </Modal>
    </>
  );
}
