import { useQuery } from '@tanstack/react-query';
import {
  ALARM_BOARD_LINK_STATES,
  type AlarmBoardCode,
  type AlarmBoardLinkRow,
  alarmBoardLinkForm,
  api,
} from '@uiot/contracts';
import { Alert, Select, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type CrudColumn,
  CrudPage,
  SchemaField,
  type SearchField,
  type SelectOption,
} from '../../lib/crud/index.ts';
import { hide, type Shown, show } from '../../lib/dialog/shown.ts';
import { formatDateTime } from '../../lib/i18n/date-format.ts';
import { call, endpointQuery } from '../../lib/request/index.ts';
import { SecretDialog } from '../../lib/ui/secret-dialog.tsx';
import { SecretText } from '../../lib/ui/secret-text.tsx';

/** The board's full address: the console's origin and the path the server answered. */
const addressOf = (code: AlarmBoardCode) => new URL(code.path, window.location.origin).href;

function StationSelect(props: { value?: string; onChange?: (value: string) => void }) {
  const stations = useQuery(endpointQuery(api.alarmBoard.stations, undefined, { noOverlay: true }));
  return (
    <Select
      {...props}
      loading={stations.isLoading}
      options={(stations.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
      data-testid="alarmBoard-stationId"
    />
  );
}

/** A new code's address, shown once: only its hash is kept, so it cannot be shown again. */
function BoardAddressDialog({
  code,
  open,
  onClose,
}: {
  code: { name: string; code: AlarmBoardCode };
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('alarms');
  return (
    <SecretDialog
      title={t('boardLinks.address.title', { name: code.name })}
      open={open}
      onClose={onClose}
      maskClosable={false}
      testId="alarmBoard-address"
      closeTestId="alarmBoard-address-close"
    >
      <p>{t('boardLinks.address.intro')}</p>
      <SecretText secret={addressOf(code.code)} testId="alarmBoard-address" />
      <Alert
        type="warning"
        showIcon
        title={t('boardLinks.address.note', { time: formatDateTime(code.code.expiresAt) })}
      />
    </SecretDialog>
  );
}

/**
 * Display links of the control-room board (`/sys/alarm-board`, docs/alarms.md): each shows one station's
 * open alarms on a wall screen without signing in. Creating a link or issuing a new code shows its address
 * once; revoking a link ends its boards at once.
 */
export function AlarmBoardLinksPage() {
  const { t } = useTranslation('alarms');
  const [address, setAddress] = useState<Shown<{ name: string; code: AlarmBoardCode }> | null>(null);
  const stateOptions: SelectOption[] = ALARM_BOARD_LINK_STATES.map((value) => ({
    value,
    label: t(`boardLinks.state.${value}`),
  }));

  // What an administrator looks for first: which boards are in use, from where, and which still wait.
  const columns: CrudColumn<AlarmBoardLinkRow>[] = [
    { key: 'name', title: t('boardLinks.column.name'), sortable: true },
    { key: 'stationName', title: t('boardLinks.column.station'), width: 110 },
    {
      key: 'state',
      title: t('boardLinks.column.state'),
      width: 90,
      value: (row) => t(`boardLinks.state.${row.state}`),
      render: (row) => (
        <Tag
          color={row.state === 'active' ? 'green' : 'default'}
          data-testid="alarmBoard-state"
          data-state={row.state}
        >
          {t(`boardLinks.state.${row.state}`)}
        </Tag>
      ),
    },
    {
      key: 'lastUsedAt',
      title: t('boardLinks.column.lastUsedAt'),
      width: 165,
      format: 'dateTime',
      sortable: true,
    },
    { key: 'lastUsedIp', title: t('boardLinks.column.lastUsedIp'), width: 130 },
    { key: 'codeExpiresAt', title: t('boardLinks.column.codeExpiresAt'), width: 165, format: 'dateTime' },
    {
      key: 'createdAt',
      title: t('boardLinks.column.createdAt'),
      width: 165,
      format: 'dateTime',
      sortable: true,
    },
  ];

  const search: SearchField[] = [
    { kind: 'select', name: 'state', label: t('boardLinks.column.state'), options: stateOptions },
  ];

  return (
    <>
      <CrudPage<AlarmBoardLinkRow, typeof alarmBoardLinkForm>
        id="alarmBoardLinks"
        title={t('boardLinks.title')}
        rowKey="id"
        query={api.alarmBoard.queryPage}
        columns={columns}
        search={search}
        actionsWidth={150}
        resource={{
          create: {
            endpoint: api.alarmBoard.save,
            save: async (values, options) => {
              const code = await call(api.alarmBoard.save, { body: values }, options);
              setAddress(show({ name: values.name, code }));
            },
          },
        }}
        form={{
          schema: alarmBoardLinkForm,
          label: (field) => t(`boardLinks.column.${field === 'stationId' ? 'station' : field}`),
          testId: 'alarmBoard',
          title: { create: t('boardLinks.dialog.create'), edit: t('boardLinks.dialog.create') },
          fields: () => (
            <>
              <SchemaField name="name" />
              <SchemaField name="stationId">
                <StationSelect />
              </SchemaField>
            </>
          ),
        }}
        rowActions={[
          {
            key: 'newCode',
            label: t('boardLinks.action.newCode'),
            endpoint: api.alarmBoard.newCode,
            when: (row) => row.state === 'active',
            confirm: (row) => t('boardLinks.confirm.newCode', { name: row.name }),
            run: async (row, ctx) => {
              const code = await call(api.alarmBoard.newCode, { query: { id: row.id } }, ctx.callOptions);
              setAddress(show({ name: row.name, code }));
              ctx.refresh();
            },
          },
          {
            key: 'revoke',
            label: t('boardLinks.action.revoke'),
            endpoint: api.alarmBoard.revoke,
            danger: true,
            outcome: 'revoke',
            when: (row) => row.state === 'active',
            confirm: (row) => t('boardLinks.confirm.revoke', { name: row.name }),
            run: (row, ctx) => call(api.alarmBoard.revoke, { query: { id: row.id } }, ctx.callOptions),
          },
        ]}
      />
      {address && (
        <BoardAddressDialog
          key={address.opening}
          code={address.value}
          open={address.open}
          onClose={() => setAddress(hide)}
        />
      )}
    </>
  );
}
