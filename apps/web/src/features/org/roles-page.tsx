import { api, type RoleListRow, roleForm } from '@uiot/contracts';
import { Col, Row, Select, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type CrudColumn,
  CrudPage,
  crudResource,
  SchemaField,
  type SearchField,
} from '../../lib/crud/index.ts';
import { DepartmentSelect } from './department-select.tsx';
import { GrantDialog, type GrantTarget } from './grant-dialog.tsx';
import { roleDescription, roleTypeLabel, roleTypeOptions } from './org-options.ts';
import './org.css';

/**
 * Roles (spec §2 /sys/role, §3 Role, §6): paged, searchable by name and type. The built-in role `admin`
 * holds every permission, so it offers no edit, delete or permission assignment.
 */
export function RolesPage() {
  const { t } = useTranslation('org');
  const [grantTarget, setGrantTarget] = useState<GrantTarget | null>(null);

  const columns: CrudColumn<RoleListRow>[] = [
    {
      key: 'name',
      title: t('role.column.name'),
      width: 180,
      sortable: true,
      fixed: 'left',
      render: (row) => (
        <span className="uiot-org__name">
          <span className="uiot-org__name-text" title={row.name}>
            {row.name}
          </span>
          {row.builtIn && <Tag color="purple">{t('role.builtIn')}</Tag>}
        </span>
      ),
    },
    {
      key: 'roleType',
      title: t('role.column.roleType'),
      width: 120,
      value: (row) => roleTypeLabel(t, row.roleType),
    },
    { key: 'deptName', title: t('role.column.department'), width: 160 },
    {
      key: 'description',
      title: t('role.column.description'),
      width: 220,
      value: (row) => roleDescription(t, row),
    },
    { key: 'staffCount', title: t('role.column.staffCount'), width: 80, align: 'center' },
    { key: 'createdAt', title: t('role.column.createdAt'), width: 165, format: 'dateTime', sortable: true },
  ];

  const search: SearchField[] = [
    { kind: 'text', name: 'name', label: t('role.column.name'), maxLength: 64 },
    { kind: 'select', name: 'roleType', label: t('role.column.roleType'), options: roleTypeOptions(t) },
  ];

  return (
    <>
      <CrudPage<RoleListRow, typeof roleForm>
        id="roles"
        title={t('role.title')}
        rowKey="id"
        query={api.role.queryPage}
        columns={columns}
        search={search}
        actionsWidth={200}
        resource={crudResource({ save: api.role.save, update: api.role.update, del: api.role.del })}
        form={{
          schema: roleForm,
          label: (field) => t(`role.column.${field}`),
          testId: 'role',
          title: { create: t('role.dialog.create'), edit: t('role.dialog.edit') },
          toForm: ({ name, roleType, description, deptId }) => ({
            name,
            roleType: roleType ?? undefined,
            description,
            deptId,
          }),
          fields: () => (
            <Row gutter={16}>
              <Col xs={24} md={12}>
                <SchemaField name="name" />
              </Col>
              <Col xs={24} md={12}>
                <SchemaField name="roleType">
                  <Select allowClear options={roleTypeOptions(t)} data-testid="role-roleType" />
                </SchemaField>
              </Col>
              <Col xs={24} md={12}>
                <SchemaField name="deptId" label={t('role.column.department')}>
                  <DepartmentSelect testId="role-deptId" />
                </SchemaField>
              </Col>
              <Col span={24}>
                <SchemaField name="description" />
              </Col>
            </Row>
          ),
          editable: (row) => row.abilities.update,
        }}
        remove={{
          name: (row) => row.name,
          when: (row) => row.abilities.delete,
        }}
        rowActions={[
          {
            key: 'grant',
            label: t('grant.action'),
            endpoint: api.permission.saveGrants,
            when: (row) => row.abilities.grant,
            run: (row) => setGrantTarget({ subjectType: 'Role', subjectId: row.id, name: row.name }),
          },
        ]}
      />
      <GrantDialog target={grantTarget} onClose={() => setGrantTarget(null)} />
    </>
  );
}
