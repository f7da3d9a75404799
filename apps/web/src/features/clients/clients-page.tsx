import { api, CLIENT_STATES, type ClientRow, type ClientState } from '@uiot/contracts';
import { Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type CrudColumn,
  CrudPage,
  crudResource,
  type RowAction,
  type SearchField,
} from '../../lib/crud/index.ts';
import { hide, type Shown, show } from '../../lib/dialog/shown.ts';
import { type ClientDecision, ClientReviewDialog } from './client-review-dialog.tsx';
import './clients.css';

const STATE_COLORS: Record<ClientState, string> = {
  pending: 'orange',
  passed: 'green',
  rejected: 'red',
};

interface Review {
  client: ClientRow;
  decision: ClientDecision;
  refresh: () => void;
}

/**
 * Clients (spec §2 /sys/client, §3 Client): the mobile and PC apps that registered, those waiting for
 * review first. A reviewer passes a client after comparing the registration code it shows, or rejects it
 * with a description; a deleted client must register again (docs/client-api.md).
 */
export function ClientsPage() {
  const { t } = useTranslation('clients');
  const [review, setReview] = useState<Shown<Review> | null>(null);

  const columns: CrudColumn<ClientRow>[] = [
    { key: 'name', title: t('column.name'), width: 160, fixed: 'left' },
    { key: 'clientId', title: t('column.clientId'), width: 180, format: 'code' },
    {
      key: 'clientType',
      title: t('column.clientType'),
      width: 90,
      value: (row) => t(`type.${row.clientType}`),
    },
    { key: 'telNo', title: t('column.telNo'), width: 130, defaultHidden: true },
    { key: 'registCode', title: t('column.registCode'), width: 150, format: 'code' },
    {
      key: 'state',
      title: t('column.state'),
      width: 130,
      value: (row) => t(`state.${row.state}`),
      render: (row) => (
        <Tag color={STATE_COLORS[row.state]} data-testid={`clients-state-${row.state}`}>
          {t(`state.${row.state}`)}
        </Tag>
      ),
    },
    { key: 'requestTime', title: t('column.requestTime'), width: 165, format: 'dateTime' },
    { key: 'reviewerName', title: t('column.reviewerName'), width: 110 },
    { key: 'registTime', title: t('column.registTime'), width: 165, format: 'dateTime', defaultHidden: true },
    { key: 'resultDesc', title: t('column.resultDesc'), width: 200 },
    { key: 'staffName', title: t('column.staffName'), width: 130 },
    { key: 'sendTime', title: t('column.sendTime'), width: 165, format: 'dateTime' },
  ];

  const search: SearchField[] = [
    { kind: 'text', name: 'keyword', label: t('search.keyword'), maxLength: 64 },
    {
      kind: 'select',
      name: 'state',
      label: t('column.state'),
      options: CLIENT_STATES.map((value) => ({ value, label: t(`state.${value}`) })),
    },
  ];

  const open =
    (decision: ClientDecision) =>
    (client: ClientRow, ctx: { refresh: () => void }): void =>
      setReview(show({ client, decision, refresh: ctx.refresh }));

  // A decision already taken is not offered again; a passed client can still be rejected (withdrawn).
  const rowActions: RowAction<ClientRow>[] = [
    {
      key: 'pass',
      label: t('action.pass'),
      endpoint: api.client.review,
      when: (row) => row.state !== 'passed',
      run: open('pass'),
    },
    {
      key: 'reject',
      label: t('action.reject'),
      endpoint: api.client.review,
      danger: true,
      when: (row) => row.state !== 'rejected',
      run: open('reject'),
    },
  ];

  return (
    <>
      <CrudPage<ClientRow>
        id="clients"
        title={t('title')}
        rowKey="id"
        query={api.client.queryPage}
        columns={columns}
        search={search}
        rowActions={rowActions}
        actionsWidth={170}
        resource={crudResource<ClientRow>({ del: api.client.del })}
        remove={{ name: (row) => row.name }}
      />
      {review && (
        <ClientReviewDialog
          key={review.opening}
          client={review.value.client}
          decision={review.value.decision}
          open={review.open}
          onClose={() => setReview(hide)}
          onDone={review.value.refresh}
        />
      )}
    </>
  );
}
