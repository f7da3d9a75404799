import { useQuery } from '@tanstack/react-query';
import { api, type StaffRow } from '@uiot/contracts';
import { Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../lib/dialog/form-dialog.tsx';
import { toastFailed, toastSucceeded } from '../../lib/feedback/outcome.ts';
import { call, endpointQuery } from '../../lib/request/index.ts';
import { roleOptions } from './org-options.ts';

interface RoleValues {
  roleIds: string[];
}

/** Assigns the roles of a staff member (spec §6: roles are assigned to staff). */
export function StaffRolesDialog({
  staff,
  open,
  onClose,
  onSaved,
}: {
  staff: StaffRow;
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation('org');
  const [form] = Form.useForm<RoleValues>();
  const roles = useQuery(endpointQuery(api.role.getAll, undefined, { noOverlay: true, silent: true }));

  const save = async ({ roleIds }: RoleValues) => {
    try {
      await call(
        api.staff.assignRoleIds,
        { query: { staffId: staff.id }, body: roleIds ?? [] },
        { silent: true, canCancel: false },
      );
    } catch (error) {
      toastFailed('save', error, { withIssues: true });
      throw error;
    }
    toastSucceeded('save');
    onSaved();
  };

  return (
    <FormDialog<RoleValues>
      open={open}
      title={t('staff.roles.title', { name: staff.name })}
      form={form}
      onSubmit={save}
      onClose={onClose}
      initialValues={{ roleIds: staff.roleIds }}
      width={520}
      confirmUnsaved
      testId="staff-roles-dialog"
    >
      <Form.Item name="roleIds" label={t('staff.column.roles')}>
        <Select
          mode="multiple"
          allowClear
          loading={roles.isLoading}
          options={roleOptions(roles.data ?? [])}
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={t('staff.roles.none')}
          data-testid="staff-roles-select"
        />
      </Form.Item>
    </FormDialog>
  );
}
