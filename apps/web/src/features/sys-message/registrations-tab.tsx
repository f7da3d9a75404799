import { api, type SysMessageRow } from '@uiot/contracts';
import { Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type CrudColumn, type CrudContext, CrudPage, type SearchField } from '../../lib/crud/index.ts';
import { REGISTRATION_STATE_COLOR, registrationState } from './registration-state.ts';
import { type ReviewDecision, ReviewDialog } from './review-dialog.tsx';

interface Review {
  row: SysMessageRow;
  decision: ReviewDecision;
  refresh: () => void;
}

/** Registrations of self-registered users (spec §2 "user registration info"), approved or rejected here. */
export function RegistrationsTab() {
  const { t } = useTranslation('sysMessage');
  const [review, setReview] = useState<Review | null>(null);

  const staffTypeText = (staffType: number | null) =>
    staffType === 1 ? t('staffType.mtr') : staffType === 0 ? t('staffType.contractor') : '';

  const columns: CrudColumn<SysMessageRow>[] = [
    { key: 'name', title: t('registration.column.name'), width: 150, fixed: 'left' },
    { key: 'email', title: t('registration.column.email'), width: 190 },
    {
      key: 'staffType',
      title: t('registration.column.staffType'),
      width: 100,
      value: (row) => staffTypeText(row.staffType),
      render: (row) =>
        row.staffType === null ? (
          '-'
        ) : (
          <Tag color={row.staffType === 1 ? 'blue' : 'purple'}>{staffTypeText(row.staffType)}</Tag>
        ),
    },
    {
      key: 'createdAt',
      title: t('registration.column.createdAt'),
      width: 165,
      format: 'dateTime',
      sortable: true,
    },
    {
      key: 'state',
      title: t('registration.column.state'),
      width: 100,
      value: (row) => t(`registration.state.${registrationState(row)}`),
      render: (row) => {
        const state = registrationState(row);
        return (
          <Tag color={REGISTRATION_STATE_COLOR[state]} data-testid={`registration-state-${state}`}>
            {t(`registration.state.${state}`)}
          </Tag>
        );
      },
    },
    { key: 'operator', title: t('registration.column.operator'), width: 110 },
    {
      key: 'operatedAt',
      title: t('registration.column.operatedAt'),
      width: 170,
      format: 'dateTime',
      defaultHidden: true,
    },
    { key: 'remark', title: t('registration.column.remark'), width: 160 },
  ];

  const search: SearchField[] = [
    {
      kind: 'select',
      name: 'operated',
      label: t('registration.search.operated'),
      options: [
        { value: 0, label: t('registration.operated.no') },
        { value: 1, label: t('registration.operated.yes') },
      ],
    },
  ];

  const open = (decision: ReviewDecision) => (row: SysMessageRow, ctx: CrudContext<SysMessageRow>) =>
    setReview({ row, decision, refresh: ctx.refresh });

  return (
    <>
      <CrudPage<SysMessageRow>
        id="registrations"
        title={t('tab.registrations')}
        rowKey="id"
        query={api.registration.querySysMessagePage}
        fixedQuery={{ messageType: 'UserRegister' }}
        columns={columns}
        search={search}
        rowActions={[
          {
            key: 'approve',
            label: t('registration.action.approve'),
            endpoint: api.registration.reviewRegistration,
            when: (row) => row.operated === 0,
            run: open('approve'),
          },
          {
            key: 'reject',
            label: t('registration.action.reject'),
            endpoint: api.registration.reviewRegistration,
            danger: true,
            when: (row) => row.operated === 0,
            run: open('reject'),
          },
        ]}
        actionsWidth={130}
      />
      {review && (
        <ReviewDialog
          key={`${review.row.id}:${review.decision}`}
          row={review.row}
          decision={review.decision}
          onClose={() => setReview(null)}
          onReviewed={review.refresh}
        />
      )}
    </>
  );
}
