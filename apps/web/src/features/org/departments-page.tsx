import { api, type DepartmentNode, departmentForm } from '@uiot/contracts';
import { Col, Radio, Row, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  type CrudColumn,
  CrudPage,
  crudResource,
  SchemaField,
  type SearchField,
  useTreeLoad,
} from '../../lib/crud/index.ts';
import { DepartmentSelect } from './department-select.tsx';
import { departmentMatches } from './department-tree.ts';
import { deptTypeLabel, deptTypeOptions } from './org-options.ts';
import './org.css';

/**
 * Departments (spec §2 /sys/department, §3 Department, §5): the tree as a table, searchable by name or code;
 * a department is added at the top or under a row, moved under any department but itself and those below
 * it, and deleted only without sub-departments or staff (the server says which).
 */
export function DepartmentsPage() {
  const { t } = useTranslation('org');
  const load = useTreeLoad(api.department.getTree, { text: 'name', matches: departmentMatches });

  const columns: CrudColumn<DepartmentNode>[] = [
    { key: 'name', title: t('department.column.name'), width: 260, fixed: 'left' },
    { key: 'code', title: t('department.column.code'), width: 120, format: 'code' },
    {
      key: 'deptType',
      title: t('department.column.deptType'),
      width: 120,
      value: (row) => deptTypeLabel(t, row.deptType),
      render: (row) => (
        <Tag color={row.deptType === 'Electric' ? 'blue' : 'orange'}>{deptTypeLabel(t, row.deptType)}</Tag>
      ),
    },
    { key: 'description', title: t('department.column.description'), width: 260 },
    { key: 'idxNo', title: t('department.column.idxNo'), width: 80, align: 'center' },
    { key: 'staffCount', title: t('department.column.staffCount'), width: 90, align: 'center' },
  ];

  const search: SearchField[] = [
    { kind: 'text', name: 'name', label: t('department.search'), maxLength: 64 },
  ];

  return (
    <CrudPage<DepartmentNode, typeof departmentForm>
      id="departments"
      title={t('department.title')}
      rowKey="id"
      load={load}
      tree={{ defaultExpandAll: true }}
      columns={columns}
      search={search}
      actionsWidth={240}
      resource={crudResource({
        save: api.department.save,
        update: api.department.update,
        del: api.department.del,
      })}
      form={{
        schema: departmentForm,
        label: (field) => t(`department.column.${field}`),
        testId: 'department',
        title: { create: t('department.dialog.create'), edit: t('department.dialog.edit') },
        defaults: { deptType: 'Electric', idxNo: 0, parentId: null },
        toForm: ({ name, code, deptType, description, idxNo, parentId }) => ({
          name,
          code,
          deptType,
          description,
          idxNo,
          parentId,
        }),
        fields: ({ row }) => (
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <SchemaField name="name" />
            </Col>
            <Col xs={24} md={12}>
              <SchemaField name="code" />
            </Col>
            <Col xs={24} md={12}>
              <SchemaField
                name="parentId"
                label={t('department.column.parent')}
                extra={t('department.parentHint')}
              >
                <DepartmentSelect
                  exclude={row?.id}
                  placeholder={t('department.topLevel')}
                  testId="department-parentId"
                />
              </SchemaField>
            </Col>
            <Col xs={24} md={12}>
              <SchemaField name="deptType">
                <Radio.Group options={deptTypeOptions(t)} data-testid="department-deptType" />
              </SchemaField>
            </Col>
            <Col xs={24} md={12}>
              <SchemaField name="idxNo" extra={t('department.idxNoHint')} />
            </Col>
            <Col span={24}>
              <SchemaField name="description" />
            </Col>
          </Row>
        ),
      }}
      rowActions={[
        {
          key: 'addChild',
          label: t('department.addChild'),
          endpoint: api.department.save,
          run: (row, ctx) => ctx.openCreate({ parentId: row.id, deptType: row.deptType }),
        },
      ]}
      remove={{
        name: (row) => row.name,
      }}
    />
  );
}
