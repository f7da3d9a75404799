import { ImportOutlined } from '@ant-design/icons';
import { api, KEY_STATES, type KeyRow, type KeyState, keyForm } from '@uiot/contracts';
import { Col, Row, Select, Tag } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type CrudColumn,
  CrudPage,
  crudResource,
  SchemaField,
  type SearchField,
} from '../../lib/crud/index.ts';
import { EllipsisText } from '../../lib/ui/ellipsis-text.tsx';
import { useStaffOptions } from '../org/staff-select.tsx';
import {
  departmentOptions,
  ResponsibleDepartmentSelect,
  useDepartments,
} from './ledger/responsibility-selects.tsx';
import { ImportDialog } from './transfer/import-dialog.tsx';

/** A key that opens is plain; a lost one is an alert, a disabled one merely out of use. */
const KEY_STATE_COLORS: Record<KeyState, string> = { normal: 'success', lost: 'error', disabled: 'default' };

/**
 * The key ledger (spec §2 /device/key-ledger, §3 Key): electronic keys with their unique code, holder,
 * department and state (a lost or disabled key opens nothing); a key held by a disabled staff member is
 * flagged. Keys are added, edited, deleted and imported from the Excel template.
 */
export function KeysPage() {
  const { t } = useTranslation('key');
  const staff = useStaffOptions().options;
  const departments = useDepartments();
  const departmentTree = useMemo(() => departmentOptions(departments.data ?? []), [departments.data]);
  const [importing, setImporting] = useState<{ refresh: () => void } | null>(null);
  const stateOptions = KEY_STATES.map((state) => ({ value: state, label: t(`state.${state}`) }));

  const columns: CrudColumn<KeyRow>[] = [
    { key: 'name', title: t('column.name'), width: 150, sortable: true, fixed: 'left' },
    { key: 'code', title: t('column.code'), width: 110, sortable: true, format: 'code' },
    {
      key: 'staffName',
      title: t('column.holder'),
      width: 220,
      sortable: true,
      render: (row) => (
        <span style={{ display: 'inline-flex', alignItems: 'center', gap: 6, maxWidth: '100%' }}>
          <EllipsisText text={row.staffName} />
          {row.holderDisabled && (
            <Tag color="warning" style={{ marginInlineEnd: 0 }} data-testid="keys-holder-disabled">
              {t('holderDisabled')}
            </Tag>
          )}
        </span>
      ),
    },
    { key: 'deptName', title: t('column.department'), width: 150, sortable: true },
    {
      key: 'state',
      title: t('column.state'),
      width: 100,
      sortable: true,
      render: (row) => (
        <Tag color={KEY_STATE_COLORS[row.state]} data-testid="keys-state">
          {t(`state.${row.state}`)}
        </Tag>
      ),
    },
    { key: 'desc', title: t('column.desc'), width: 180, sortable: true },
    { key: 'createdAt', title: t('column.createdAt'), width: 165, format: 'dateTime', sortable: true },
  ];

  const search: SearchField[] = [
    { kind: 'text', name: 'keyword', label: t('search.keyword'), maxLength: 64 },
    { kind: 'select', name: 'staffId', label: t('column.holder'), options: staff },
    { kind: 'treeSelect', name: 'deptId', label: t('column.department'), treeData: departmentTree },
    { kind: 'yesNo', name: 'holderDisabled', label: t('search.holderDisabled') },
    { kind: 'select', name: 'state', label: t('column.state'), options: stateOptions },
  ];

  return (
    <>
      <CrudPage<KeyRow, typeof keyForm>
        id="keys"
        title={t('title')}
        rowKey="id"
        query={api.key.queryPage}
        columns={columns}
        search={search}
        actionsWidth={130}
        resource={crudResource({ save: api.key.save, update: api.key.update, del: api.key.del })}
        form={{
          schema: keyForm,
          label: (field) => t(`column.${field}`),
          testId: 'key',
          title: { create: t('dialog.create'), edit: t('dialog.edit') },
          width: 720,
          toForm: ({ name, code, staffId, deptId, desc, state }) => ({
            name,
            code,
            staffId,
            deptId,
            desc,
            state,
          }),
          fields: ({ row }) => {
            // A disabled holder is not among the staff offered; keep the key's own holder choosable.
            const holders =
              row?.staffId && !staff.some((option) => option.value === row.staffId)
                ? [
                    ...staff,
                    {
                      value: row.staffId,
                      label: t('holderDisabledOption', { name: row.staffName ?? row.staffId }),
                    },
                  ]
                : staff;
            return (
              <Row gutter={16}>
                <Col xs={24} md={12}>
                  <SchemaField name="name" />
                </Col>
                <Col xs={24} md={12}>
                  <SchemaField name="code" />
                </Col>
                <Col xs={24} md={12}>
                  <SchemaField name="staffId" label={t('column.holder')}>
                    <Select
                      allowClear
                      showSearch={{ optionFilterProp: 'label' }}
                      options={holders as never}
                      placeholder={t('noHolder')}
                      data-testid="key-staffId"
                    />
                  </SchemaField>
                </Col>
                <Col xs={24} md={12}>
                  <SchemaField name="deptId" label={t('column.department')}>
                    <ResponsibleDepartmentSelect placeholder={t('noDepartment')} testId="key-deptId" />
                  </SchemaField>
                </Col>
                <Col xs={24} md={12}>
                  <SchemaField name="state" label={t('column.state')}>
                    <Select options={stateOptions} data-testid="key-state" />
                  </SchemaField>
                </Col>
                <Col span={24}>
                  <SchemaField name="desc" />
                </Col>
              </Row>
            );
          },
        }}
        toolbar={[
          {
            key: 'import',
            label: t('import'),
            icon: <ImportOutlined />,
            endpoint: api.key.import,
            run: (_rows, ctx) => setImporting({ refresh: ctx.refresh }),
          },
        ]}
        remove={{
          name: (row) => row.name,
        }}
      />
      <ImportDialog
        kind="key"
        open={importing !== null}
        onClose={() => setImporting(null)}
        onImported={() => importing?.refresh()}
      />
    </>
  );
}
