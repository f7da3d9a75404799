import { ImportOutlined } from '@ant-design/icons';
import { api, type UnitNode, unitForm } from '@uiot/contracts';
import { Col, Row } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type CrudColumn,
  CrudPage,
  crudResource,
  SchemaField,
  type SearchField,
  useTreeLoad,
} from '../../lib/crud/index.ts';
import { ImportDialog } from './transfer/import-dialog.tsx';
import { UnitSelect } from './unit-select.tsx';
import { unitMatches } from './unit-tree.ts';

/**
 * Operation units (spec §2 /device/unit, §3 Operation unit, §5): the tree as a table, searchable by name or
 * menu name; a unit is added at the top or under a row, moved under any unit but itself and those below
 * it, and deleted only without sub-units (the server says so).
 */
export function UnitsPage() {
  const { t } = useTranslation('unit');
  const load = useTreeLoad(api.unit.getTree, { text: 'name', matches: unitMatches });
  const [importing, setImporting] = useState<{ refresh: () => void } | null>(null);

  const columns: CrudColumn<UnitNode>[] = [
    { key: 'name', title: t('column.name'), width: 260, fixed: 'left' },
    { key: 'menuName', title: t('column.menuName'), width: 180 },
    { key: 'sortIndex', title: t('column.sortIndex'), width: 80, align: 'center' },
    { key: 'typeId', title: t('column.typeId'), width: 140 },
    { key: 'desc', title: t('column.desc'), width: 260 },
  ];

  const search: SearchField[] = [{ kind: 'text', name: 'name', label: t('search'), maxLength: 64 }];

  return (
    <>
      <CrudPage<UnitNode, typeof unitForm>
        id="units"
        title={t('title')}
        rowKey="id"
        load={load}
        tree={{ defaultExpandAll: true }}
        columns={columns}
        search={search}
        actionsWidth={240}
        resource={crudResource({ save: api.unit.save, update: api.unit.update, del: api.unit.del })}
        form={{
          schema: unitForm,
          label: (field) => t(`column.${field}`),
          testId: 'unit',
          title: { create: t('dialog.create'), edit: t('dialog.edit') },
          defaults: { sortIndex: 0, parentId: null },
          toForm: ({ name, menuName, parentId, sortIndex, typeId, desc }) => ({
            name,
            menuName,
            parentId,
            sortIndex,
            typeId,
            desc,
          }),
          fields: ({ row }) => (
            <Row gutter={16}>
              <Col xs={24} md={12}>
                <SchemaField name="name" />
              </Col>
              <Col xs={24} md={12}>
                <SchemaField name="menuName" />
              </Col>
              <Col xs={24} md={12}>
                <SchemaField name="parentId" label={t('column.parent')} extra={t('parentHint')}>
                  <UnitSelect exclude={row?.id} placeholder={t('topLevel')} testId="unit-parentId" />
                </SchemaField>
              </Col>
              <Col xs={24} md={12}>
                <SchemaField name="sortIndex" extra={t('sortIndexHint')} />
              </Col>
              <Col xs={24} md={12}>
                <SchemaField name="typeId" />
              </Col>
              <Col span={24}>
                <SchemaField name="desc" />
              </Col>
            </Row>
          ),
        }}
        toolbar={[
          {
            key: 'import',
            label: t('import'),
            icon: <ImportOutlined />,
            endpoint: api.unit.import,
            run: (_rows, ctx) => setImporting({ refresh: ctx.refresh }),
          },
        ]}
        rowActions={[
          {
            key: 'addChild',
            label: t('addChild'),
            endpoint: api.unit.save,
            run: (row, ctx) => ctx.openCreate({ parentId: row.id }),
          },
        ]}
        remove={{
          name: (row) => row.name,
        }}
      />
      <ImportDialog
        kind="unit"
        open={importing !== null}
        onClose={() => setImporting(null)}
        onImported={() => importing?.refresh()}
      />
    </>
  );
}
