import {
  api,
  DEFAULT_HEARTBEAT_INTERVAL,
  DEFAULT_REPORT_INTERVAL,
  type DeviceTypeNode,
  deviceTypeForm,
} from '@uiot/contracts';
import { Col, Form, Input, Row, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  type CrudColumn,
  CrudPage,
  crudResource,
  SchemaField,
  type SearchField,
  useTreeLoad,
} from '../../lib/crud/index.ts';
import { deviceTypeColumns } from './device-type-columns.tsx';
import { DeviceTypeSelect } from './device-type-select.tsx';
import { deviceCategoryOptions, deviceTypeMatches } from './device-type-tree.ts';
import { IntervalFields } from './interval-view.tsx';

/**
 * Device types (spec §3): main types with their sub types below, each with its category (electronic lock,
 * lock controller, IoT lock) and the reporting and heartbeat intervals the IoT pipeline uses to decide
 * online / offline. A sub type is added under a main type; a type with sub types or devices cannot be
 * deleted (the server says so).
 */
export function DeviceTypesPage() {
  const { t } = useTranslation('deviceType');
  const load = useTreeLoad(api.deviceType.getTree, {
    text: 'keyword',
    matches: deviceTypeMatches,
    equal: ['category'],
  });
  const categories = deviceCategoryOptions(t);

  const columns: CrudColumn<DeviceTypeNode>[] = [
    ...deviceTypeColumns(t),
    { key: 'sortIndex', title: t('column.sortIndex'), width: 80, align: 'center', defaultHidden: true },
    { key: 'desc', title: t('column.desc'), width: 170 },
  ];

  const search: SearchField[] = [
    { kind: 'text', name: 'keyword', label: t('search'), maxLength: 64 },
    { kind: 'select', name: 'category', label: t('column.category'), options: categories },
  ];

  return (
    <CrudPage<DeviceTypeNode, typeof deviceTypeForm>
      id="deviceTypes"
      title={t('title')}
      rowKey="id"
      load={load}
      tree={{ defaultExpandAll: true }}
      columns={columns}
      search={search}
      actionsWidth={200}
      resource={crudResource({
        save: api.deviceType.save,
        update: api.deviceType.update,
        del: api.deviceType.del,
      })}
      form={{
        schema: deviceTypeForm,
        label: (field) => t(`column.${field}`),
        testId: 'deviceType',
        title: { create: t('dialog.create'), edit: t('dialog.edit') },
        width: 720,
        defaults: {
          parentId: null,
          reportInterval: DEFAULT_REPORT_INTERVAL,
          heartbeatInterval: DEFAULT_HEARTBEAT_INTERVAL,
          sortIndex: 0,
        },
        toForm: ({ name, code, parentId, category, reportInterval, heartbeatInterval, sortIndex, desc }) => ({
          name,
          code,
          parentId,
          category,
          reportInterval,
          heartbeatInterval,
          sortIndex,
          desc,
        }),
        fields: ({ row, rule }) => {
          // A main type with sub types cannot become a sub type (two levels only).
          const parentLocked = Boolean(row && row.children.length > 0);
          return (
            <Row gutter={16}>
              <Col xs={24} md={12}>
                <SchemaField name="name" />
              </Col>
              <Col xs={24} md={12}>
                <SchemaField name="code" />
              </Col>
              <Col xs={24} md={12}>
                {parentLocked ? (
                  <Form.Item label={t('column.parent')} extra={t('parentLocked')}>
                    <Input value={t('mainType')} disabled data-testid="deviceType-parentId" />
                  </Form.Item>
                ) : (
                  <SchemaField name="parentId" label={t('column.parent')} extra={t('parentHint')}>
                    <DeviceTypeSelect
                      mainOnly
                      exclude={row?.id}
                      placeholder={t('mainType')}
                      testId="deviceType-parentId"
                    />
                  </SchemaField>
                )}
              </Col>
              <Col xs={24} md={12}>
                <SchemaField name="category">
                  <Select
                    options={categories as never}
                    placeholder={t('chooseCategory')}
                    data-testid="deviceType-category"
                  />
                </SchemaField>
              </Col>
              <IntervalFields rule={rule} testId="deviceType" col={{ xs: 24, md: 12 }} />
              <Col xs={24} md={12}>
                <SchemaField name="sortIndex" extra={t('sortIndexHint')} />
              </Col>
              <Col span={24}>
                <SchemaField name="desc" />
              </Col>
            </Row>
          );
        },
      }}
      rowActions={[
        {
          key: 'addSub',
          label: t('addSub'),
          endpoint: api.deviceType.save,
          when: (row) => row.parentId === null,
          // A sub type starts with its main type's category and intervals.
          run: (row, ctx) =>
            ctx.openCreate({
              parentId: row.id,
              category: row.category,
              reportInterval: row.reportInterval,
              heartbeatInterval: row.heartbeatInterval,
            }),
        },
      ]}
      remove={{
        name: (row) => row.name,
      }}
    />
  );
}
