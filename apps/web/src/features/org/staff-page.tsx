import { api, type StaffListRow } from '@uiot/contracts';
import { Tag } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type CrudColumn, CrudPage, crudResource, type SearchField } from '../../lib/crud/index.ts';
import { hide, type Shown, show } from '../../lib/dialog/shown.ts';
import { useCan } from '../../lib/permission/permission.tsx';
import { call } from '../../lib/request/index.ts';
import { EllipsisText } from '../../lib/ui/ellipsis-text.tsx';
import { DepartmentSider } from './department-sider.tsx';
import { GrantDialog, type GrantTarget } from './grant-dialog.tsx';
import { OneTimePasswordDialog } from './one-time-password-dialog.tsx';
import {
  STATUS_COLORS,
  sexLabel,
  staffTypeLabel,
  staffTypeOptions,
  statusLabel,
  statusOptions,
} from './org-options.ts';
import {
  type StaffDialogValues,
  staffCreateBody,
  staffDialogForm,
  staffToForm,
  staffUpdateBody,
} from './staff-dialog-form.ts';
import { StaffFormFields } from './staff-form-fields.tsx';
import { StaffRolesDialog } from './staff-roles-dialog.tsx';
import './org.css';

/**
 * Staff (spec §2 /sys/staff, §3 Staff, §5, §6): the department tree beside the table filters it; staff are
 * added and edited with their roles and signature, activated or disabled (disabling ends their sessions),
 * given a one-time password, roles and permissions, and deleted. What each row offers is what the server
 * says the user may do with it (`abilities`: not the built-in administrator, not oneself where it locks out).
 */
export function StaffPage() {
  const { t } = useTranslation('org');
  const can = useCan();
  const [deptId, setDeptId] = useState<string | undefined>();
  const [grant, setGrant] = useState<GrantTarget | null>(null);
  const [roles, setRoles] = useState<Shown<{ row: StaffListRow; refresh: () => void }> | null>(null);
  const [reset, setReset] = useState<Shown<{ name: string; password: string }> | null>(null);
  const withRoles = can(api.staff.assignRoleIds);

  const grantDepartment = useCallback(
    ({ id, name }: { id: string; name: string }) =>
      setGrant({ subjectType: 'Department', subjectId: id, name }),
    [],
  );

  const columns: CrudColumn<StaffListRow>[] = [
    { key: 'name', title: t('staff.column.name'), width: 150, sortable: true, fixed: 'left' },
    { key: 'deptName', title: t('staff.column.department'), width: 160 },
    {
      key: 'staffType',
      title: t('staff.column.staffType'),
      width: 110,
      sortable: true,
      value: (row) => staffTypeLabel(t, row.staffType),
    },
    { key: 'sex', title: t('staff.column.sex'), width: 70, value: (row) => sexLabel(t, row.sex) },
    { key: 'telNo', title: t('staff.column.telNo'), width: 140 },
    { key: 'email', title: t('staff.column.email'), width: 200 },
    { key: 'rfidCode', title: t('staff.column.rfidCode'), width: 140, format: 'code' },
    {
      key: 'roleNames',
      title: t('staff.column.roles'),
      width: 200,
      value: (row) => row.roleNames.join(', '),
      render: (row) => <EllipsisText text={row.roleNames.join(', ')} />,
    },
    {
      key: 'status',
      title: t('staff.column.status'),
      width: 100,
      sortable: true,
      value: (row) => statusLabel(t, row.status),
      render: (row) => <Tag color={STATUS_COLORS[row.status]}>{statusLabel(t, row.status)}</Tag>,
    },
    { key: 'age', title: t('staff.column.age'), width: 70, align: 'right', defaultHidden: true },
    { key: 'faxNo', title: t('staff.column.faxNo'), width: 140, defaultHidden: true },
    { key: 'address', title: t('staff.column.address'), width: 200, defaultHidden: true },
    { key: 'notes', title: t('staff.column.notes'), width: 200, defaultHidden: true },
    { key: 'createdAt', title: t('staff.column.createdAt'), width: 165, format: 'dateTime', sortable: true },
  ];

  const search: SearchField[] = [
    { kind: 'text', name: 'name', label: t('staff.column.name'), maxLength: 64 },
    { kind: 'select', name: 'staffType', label: t('staff.column.staffType'), options: staffTypeOptions(t) },
    { kind: 'select', name: 'status', label: t('staff.column.status'), options: statusOptions(t) },
  ];

  return (
    <>
      <CrudPage<StaffListRow, typeof staffDialogForm>
        id="staff"
        title={t('staff.title')}
        rowKey="id"
        query={api.staff.queryPage}
        fixedQuery={deptId ? { deptId } : undefined}
        sider={<DepartmentSider selected={deptId} onSelect={setDeptId} onGrant={grantDepartment} />}
        columns={columns}
        search={search}
        actionsWidth={230}
        resource={crudResource<StaffListRow, StaffDialogValues>({
          save: api.staff.saveStaffEx,
          update: api.staff.updateStaffEx,
          del: api.staff.del,
          body: (values, row) =>
            row ? staffUpdateBody(values, row.id, withRoles) : staffCreateBody(values, withRoles),
        })}
        form={{
          schema: staffDialogForm,
          label: (field) => t(`staff.column.${field}`),
          testId: 'staff',
          title: { create: t('staff.dialog.create'), edit: t('staff.dialog.edit') },
          width: 760,
          defaults: { staffType: 1, ...(deptId ? { deptId } : {}), roleIds: [] },
          toForm: staffToForm,
          fields: ({ mode, row, form }) => <StaffFormFields mode={mode} row={row} form={form} />,
          editable: (row) => row.abilities.update,
        }}
        rowActions={[
          {
            key: 'disable',
            label: t('staff.action.disable'),
            endpoint: api.staff.enable,
            danger: true,
            outcome: 'update',
            when: (row) => row.status === 'activated' && row.abilities.disable,
            confirm: (row) => t('staff.confirm.disable', { name: row.name }),
            run: (row, ctx) =>
              call(api.staff.enable, { query: { id: row.id, enable: 'false' } }, ctx.callOptions),
          },
          {
            key: 'enable',
            label: t('staff.action.enable'),
            endpoint: api.staff.enable,
            outcome: 'update',
            when: (row) => row.status === 'disabled' && row.abilities.enable,
            confirm: (row) => t('staff.confirm.enable', { name: row.name }),
            run: (row, ctx) =>
              call(api.staff.enable, { query: { id: row.id, enable: 'true' } }, ctx.callOptions),
          },
          {
            key: 'resetPassword',
            more: true,
            label: t('staff.action.resetPassword'),
            endpoint: api.staff.resetPwd,
            outcome: 'reset',
            when: (row) => row.abilities.resetPwd,
            confirm: (row) => t('staff.confirm.resetPassword', { name: row.name }),
            run: async (row, ctx) => {
              const { password } = await call(api.staff.resetPwd, { query: { id: row.id } }, ctx.callOptions);
              setReset(show({ name: row.name, password }));
            },
          },
          {
            key: 'roles',
            more: true,
            label: t('staff.action.roles'),
            endpoint: api.staff.assignRoleIds,
            when: (row) => row.abilities.assignRoles,
            run: (row, ctx) => setRoles(show({ row, refresh: ctx.refresh })),
          },
          {
            key: 'grant',
            more: true,
            label: t('grant.action'),
            endpoint: api.permission.saveGrants,
            when: (row) => row.abilities.grant,
            run: (row) => setGrant({ subjectType: 'Staff', subjectId: row.id, name: row.name }),
          },
        ]}
        remove={{
          name: (row) => row.name,
          when: (row) => row.abilities.delete,
        }}
      />
      <GrantDialog target={grant} onClose={() => setGrant(null)} />
      {roles && (
        <StaffRolesDialog
          key={roles.opening}
          staff={roles.value.row}
          open={roles.open}
          onClose={() => setRoles(hide)}
          onSaved={roles.value.refresh}
        />
      )}
      {reset && (
        <OneTimePasswordDialog
          key={reset.opening}
          result={reset.value}
          open={reset.open}
          onClose={() => setReset(hide)}
        />
      )}
    </>
  );
}
