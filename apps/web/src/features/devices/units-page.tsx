import { ImportOutlined } from '@ant-design/icons';
import { api, type UnitNode, unitForm } from '@uiot/contracts';
import { Col, Form, Input, Row } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type CrudColumn,
  CrudPage,
  crudResource,
  DescriptionInput,
  type SearchField,
  SortIndexInput,
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
          fields: ({ row, rule }) => (
            <Row gutter={16}>
              <Col xs={24} md={12}>
                <Form.Item name="name" label={t('column.name')} rules={[rule('name')]} required>
                  <Input maxLength={64} autoComplete="off" data-testid="unit-name" />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="menuName" label={t('column.menuName')} rules={[rule('menuName')]}>
                  <Input maxLength={64} autoComplete="off" data-testid="unit-menuName" />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item
                  name="parentId"
                  label={t('column.parent')}
                  rules={[rule('parentId')]}
                  extra={t('parentHint')}
                >
                  <UnitSelect exclude={row?.id} placeholder={t('topLevel')} testId="unit-parentId" />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item
                  name="sortIndex"
                  label={t('column.sortIndex')}
                  rules={[rule('sortIndex')]}
                  extra={t('sortIndexHint')}
                >
                  <SortIndexInput testId="unit-sortIndex" />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="typeId" label={t('column.typeId')} rules={[rule('typeId')]}>
                  <Input maxLength={64} autoComplete="off" data-testid="unit-typeId" />
                </Form.Item>
              </Col>
              <Col span={24}>
                <Form.Item name="desc" label={t('column.desc')} rules={[rule('desc')]}>
                  <DescriptionInput testId="unit-desc" />
                </Form.Item>
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
