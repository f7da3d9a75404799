import type { PinRow, PinUseState } from '@uiot/contracts';
import { Tag, Tooltip } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { CrudColumn } from '../../lib/crud/index.ts';
import { sortedWeekdays } from './pin-window.ts';

const USE_STATE_COLOURS: Record<PinUseState, string> = {
  enabled: 'green',
  disabled: 'red',
  expire: 'default',
};

/** A weekly PIN's weekdays in short names, Monday first; null for the other types. */
export function weekdaysText(t: TFunction, days: readonly number[]): string | null {
  if (days.length === 0) return null;
  return sortedWeekdays(days)
    .map((day) => t(`pins:weekdayShort.${day}`))
    .join(t('pins:separator'));
}

/** What the PIN was allowed under: the lock task's name, or a fixed authorisation. */
export function grantText(t: TFunction, row: PinRow): string | null {
  if (row.taskName) return row.taskName;
  return row.byAuthorization ? t('pins:authorization') : null;
}

/** The use state, as the CSV reads it: a revoked PIN the lock has not confirmed says so. */
export function useStateText(t: TFunction, row: PinRow): string {
  return row.pendingDeletion ? t('pins:disabledPending') : t(`pins:useState.${row.useState}`);
}

/**
 * The use state as tags (`data-state` for browser tests): a disabled PIN the lock has not confirmed yet is
 * pending deletion, and a PIN that must travel to the lock says whether it has.
 */
export function UseStateCell({ row }: { row: PinRow }) {
  const { t } = useTranslation('pins');
  return (
    <span className="uiot-pins__state" data-testid="pin-useState" data-state={row.useState}>
      <Tag color={USE_STATE_COLOURS[row.useState]}>{t(`useState.${row.useState}`)}</Tag>
      {row.pendingDeletion && (
        <Tooltip title={t('pendingDeletionHint')}>
          <Tag color="orange" data-testid="pin-pendingDeletion">
            {t('pendingDeletion')}
          </Tag>
        </Tooltip>
      )}
      {row.storage === 'pending' && !row.pendingDeletion && (
        <Tag color="processing" data-testid="pin-storage">
          {t('storage.pending')}
        </Tag>
      )}
    </span>
  );
}

/**
 * The columns of a PIN list (spec §3 PIN): lock, masked code, type, use state, user, window, uses, first use,
 * weekdays, the task or authorisation, reason, generator, algorithm and generation time, in the order they are
 * looked for (what a PIN is and whether it was used first); the rest of what the server says of a PIN can be
 * shown from the column settings. `oneDevice`: the lock is known (the monitor's tab), no lock column.
 */
export function pinColumns(t: TFunction, oneDevice: boolean): CrudColumn<PinRow>[] {
  const device: CrudColumn<PinRow>[] = oneDevice
    ? []
    : [
        {
          key: 'deviceName',
          title: t('pins:column.deviceName'),
          width: 200,
          sortable: true,
          fixed: 'left',
        },
      ];
  const dateTime = (key: string, title: string, more: Partial<CrudColumn<PinRow>> = {}) => ({
    key,
    title,
    width: 165,
    format: 'dateTime' as const,
    ...more,
  });
  return [
    ...device,
    { key: 'code', title: t('pins:column.code'), width: 120, format: 'code' },
    { key: 'type', title: t('pins:column.type'), width: 90, value: (row) => t(`pins:type.${row.type}`) },
    {
      key: 'useState',
      title: t('pins:column.useState'),
      width: 190,
      value: (row) => useStateText(t, row),
      render: (row) => <UseStateCell row={row} />,
    },
    { key: 'userName', title: t('pins:column.userName'), width: 120, sortable: true },
    dateTime('startTime', t('pins:column.startTime'), { sortable: true }),
    dateTime('endTime', t('pins:column.endTime'), { sortable: true }),
    {
      key: 'useCount',
      title: t('pins:column.useCount'),
      width: 90,
      align: 'right',
      render: (row) => <span data-testid="pin-useCount">{row.useCount}</span>,
    },
    dateTime('usageTime', t('pins:column.usageTime'), { sortable: true }),
    {
      key: 'weekdays',
      title: t('pins:column.weekdays'),
      width: 150,
      value: (row) => weekdaysText(t, row.weekdays),
    },
    { key: 'grant', title: t('pins:column.grant'), width: 180, value: (row) => grantText(t, row) },
    { key: 'reason', title: t('pins:column.reason'), width: 180 },
    { key: 'generatorName', title: t('pins:column.generatorName'), width: 120 },
    {
      key: 'algorithm',
      title: t('pins:column.algorithm'),
      width: 140,
      value: (row) => t(`pins:algorithm.${row.algorithm}`),
    },
    dateTime('createTime', t('pins:column.createTime'), { sortable: true }),
    {
      key: 'storage',
      title: t('pins:column.storage'),
      width: 140,
      defaultHidden: true,
      value: (row) => t(`pins:storage.${row.storage}`),
    },
    dateTime('lastUsedTime', t('pins:column.lastUsedTime'), { defaultHidden: true }),
    dateTime('activationDeadline', t('pins:column.activationDeadline'), { defaultHidden: true }),
    dateTime('revokedAt', t('pins:column.revokedAt'), { defaultHidden: true }),
    { key: 'revokedByName', title: t('pins:column.revokedByName'), width: 120, defaultHidden: true },
  ];
}
