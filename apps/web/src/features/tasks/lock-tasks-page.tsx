import {
  type AuditFlag,
  api,
  LOCK_TASK_SCOPES,
  LOCK_TASK_STATES,
  type LockTaskForm,
  type LockTaskRow,
  lockTaskForm,
} from '@uiot/contracts';
import { Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type CrudColumn,
  CrudPage,
  crudResource,
  type RowAction,
  type SearchField,
  type SelectOption,
} from '../../lib/crud/index.ts';
import { hide, type Shown, show } from '../../lib/dialog/shown.ts';
import { formatDateTime } from '../../lib/i18n/date-format.ts';
import { call } from '../../lib/request/index.ts';
import { LockTaskDetail } from './lock-task-detail.tsx';
import { LockTaskFields } from './lock-task-fields.tsx';
import { LockTaskReasonDialog, type LockTaskReasonKind } from './lock-task-reason-dialog.tsx';
import { NamesCell } from './names-cell.tsx';
import './tasks.css';

/** The dialog's schema: the end is checked against the browser's clock when the form is checked. */
const lockTaskSchema = lockTaskForm();

import { LockTaskStateTag } from './lock-task-state-tag.tsx';

const AUDIT_FLAG_COLORS: Record<AuditFlag, string> = { Audit: 'orange', Pass: 'green', Reject: 'red' };

/**
 * Lock tasks (spec §2 /task/lock-task, §3 Lock task; lifecycle docs/lock-tasks.md): a time window in which
 * an operator team may open devices, handed in for audit. What a row offers is the server's `abilities`
 * with the user's keys; the page never works out the task's rules itself.
 */
export function LockTasksPage() {
  const { t } = useTranslation('tasks');
  const [detail, setDetail] = useState<Shown<LockTaskRow> | null>(null);
  const [reason, setReason] = useState<Shown<{
    task: LockTaskRow;
    kind: LockTaskReasonKind;
    refresh: () => void;
  }> | null>(null);

  const options = <V extends string>(values: readonly V[], prefix: string): SelectOption[] =>
    values.map((value) => ({ value, label: t(`${prefix}.${value}`) }));
  const stateText = (row: LockTaskRow) => t(`lockTask.state.${row.state}`);
  const authFlagText = (row: LockTaskRow) => (row.authFlag ? t(`lockTask.authFlag.${row.authFlag}`) : '');

  const columns: CrudColumn<LockTaskRow>[] = [
    { key: 'name', title: t('lockTask.column.name'), width: 180, sortable: true, fixed: 'left' },
    {
      key: 'state',
      title: t('lockTask.column.state'),
      width: 130,
      value: stateText,
      render: (row) => <LockTaskStateTag state={row.state} />,
    },
    {
      key: 'authFlag',
      title: t('lockTask.column.authFlag'),
      width: 100,
      value: authFlagText,
      render: (row) => row.authFlag && <Tag color={AUDIT_FLAG_COLORS[row.authFlag]}>{authFlagText(row)}</Tag>,
    },
    {
      key: 'timeRange',
      title: t('lockTask.column.timeRange'),
      width: 330,
      sortable: 'startTime',
      value: (row) =>
        t('lockTask.timeRange', { start: formatDateTime(row.startTime), end: formatDateTime(row.endTime) }),
    },
    {
      key: 'operators',
      title: t('lockTask.column.operators'),
      width: 200,
      value: (row) => row.operators.map((operator) => operator.name).join(', '),
      render: (row) => (
        <NamesCell
          items={row.operators}
          more={(count) => t('lockTask.moreOperators', { count })}
          testId="lockTasks-operators"
        />
      ),
    },
    {
      key: 'devices',
      title: t('lockTask.column.devices'),
      width: 240,
      value: (row) =>
        row.allDevice ? t('lockTask.allDevices') : row.items.map((item) => item.deviceName).join(', '),
      render: (row) =>
        row.allDevice ? (
          <Tag color="purple">{t('lockTask.allDevices')}</Tag>
        ) : (
          <NamesCell
            items={row.items.map((item) => ({ id: item.id, name: item.deviceName }))}
            more={(count) => t('lockTask.moreDevices', { count })}
            testId="lockTasks-devices"
          />
        ),
    },
    { key: 'creatorName', title: t('lockTask.column.creatorName'), width: 120 },
    {
      key: 'createdAt',
      title: t('lockTask.column.createdAt'),
      width: 165,
      format: 'dateTime',
      sortable: true,
    },
  ];

  const search: SearchField[] = [
    { kind: 'text', name: 'keyword', label: t('lockTask.column.keyword'), maxLength: 64 },
    {
      kind: 'select',
      name: 'state',
      label: t('lockTask.column.state'),
      options: options(LOCK_TASK_STATES, 'lockTask.state'),
    },
    {
      kind: 'select',
      name: 'scope',
      label: t('lockTask.column.scope'),
      options: options(LOCK_TASK_SCOPES, 'lockTask.scope'),
    },
  ];

  const askReason =
    (kind: LockTaskReasonKind) =>
    (task: LockTaskRow, ctx: { refresh: () => void }): void =>
      setReason(show({ task, kind, refresh: ctx.refresh }));

  const rowActions: RowAction<LockTaskRow>[] = [
    {
      key: 'detail',
      label: t('lockTask.action.detail'),
      endpoint: api.lockTask.queryPage,
      run: (row) => setDetail(show(row)),
    },
    {
      key: 'submit',
      label: t('lockTask.action.submit'),
      endpoint: api.lockTask.submit,
      outcome: 'commit',
      when: (row) => row.abilities.submit,
      confirm: (row) => t('lockTask.confirm.submit', { name: row.name }),
      run: (row, ctx) => call(api.lockTask.submit, { query: { id: row.id } }, ctx.callOptions),
    },
    {
      key: 'pass',
      label: t('lockTask.action.pass'),
      endpoint: api.lockTask.pass,
      outcome: 'audit',
      when: (row) => row.abilities.audit,
      confirm: (row) => t('lockTask.confirm.pass', { name: row.name }),
      run: (row, ctx) => call(api.lockTask.pass, { query: { id: row.id } }, ctx.callOptions),
    },
    {
      key: 'reject',
      label: t('lockTask.action.reject'),
      endpoint: api.lockTask.reject,
      danger: true,
      when: (row) => row.abilities.audit,
      run: askReason('reject'),
    },
    {
      key: 'cancel',
      more: true,
      label: t('lockTask.action.cancel'),
      endpoint: api.lockTask.cancel,
      danger: true,
      outcome: 'cancel',
      when: (row) => row.abilities.cancel,
      confirm: (row) => t('lockTask.confirm.cancel', { name: row.name }),
      run: (row, ctx) => call(api.lockTask.cancel, { query: { id: row.id } }, ctx.callOptions),
    },
    {
      key: 'forceEnd',
      more: true,
      label: t('lockTask.action.forceEnd'),
      endpoint: api.lockTask.forceEnd,
      danger: true,
      when: (row) => row.abilities.forceEnd,
      run: askReason('forceEnd'),
    },
  ];

  return (
    <>
      <CrudPage<LockTaskRow, typeof lockTaskSchema>
        id="lockTasks"
        title={t('lockTask.title')}
        rowKey="id"
        query={api.lockTask.queryPage}
        columns={columns}
        search={search}
        actionsWidth={260}
        resource={crudResource<LockTaskRow, LockTaskForm>({
          save: api.lockTask.save,
          update: api.lockTask.update,
          del: api.lockTask.del,
          // A task for all devices names no operation items.
          body: (values) => ({ ...values, ...(values.allDevice && { items: [] }) }),
        })}
        form={{
          schema: lockTaskSchema,
          label: (field) => t(`lockTask.column.${field}`),
          testId: 'lockTask',
          title: { create: t('lockTask.dialog.create'), edit: t('lockTask.dialog.edit') },
          width: 760,
          defaults: { allDevice: false, operatorIds: [], items: [] },
          toForm: (row) => ({
            name: row.name,
            startTime: row.startTime,
            endTime: row.endTime,
            operatorIds: row.operators.map((operator) => operator.id),
            operateDeptId: row.operateDept?.id ?? null,
            auditDeptId: row.auditDept?.id ?? null,
            auditorId: row.auditor?.id ?? null,
            allDevice: row.allDevice,
            items: row.items.map((item) => ({ deviceId: item.deviceId, keyId: item.keyId })),
          }),
          fields: ({ row, form }) => <LockTaskFields row={row} form={form} />,
          editable: (row) => row.abilities.update,
        }}
        rowActions={rowActions}
        remove={{ name: (row) => row.name, when: (row) => row.abilities.delete }}
      />
      {detail && (
        <LockTaskDetail
          key={detail.opening}
          task={detail.value}
          open={detail.open}
          onClose={() => setDetail(hide)}
        />
      )}
      {reason && (
        <LockTaskReasonDialog
          key={reason.opening}
          task={reason.value.task}
          kind={reason.value.kind}
          open={reason.open}
          onClose={() => setReason(hide)}
          onDone={reason.value.refresh}
        />
      )}
    </>
  );
}
