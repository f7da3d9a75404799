import { type AdjustValueRow, adjustValueForm, api, type DeviceRow } from '@uiot/contracts';
import { Col, InputNumber, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { type CrudColumn, CrudPage, crudResource, SchemaField } from '../../../lib/crud/index.ts';
import { call } from '../../../lib/request/index.ts';

/** The correction values of a device (spec §3 Adjust value, `SupportAdjustValue`): name, value, type. */
export function AdjustValuesTab({ device }: { device: DeviceRow }) {
  const { t } = useTranslation('ledger');

  const columns: CrudColumn<AdjustValueRow>[] = [
    { key: 'name', title: t('adjustValue.name'), width: 200, fixed: 'left' },
    { key: 'value', title: t('adjustValue.value'), width: 140, align: 'right' },
    { key: 'type', title: t('adjustValue.type'), width: 160 },
    { key: 'createdAt', title: t('column.createdAt'), width: 165, format: 'dateTime' },
  ];

  return (
    <CrudPage<AdjustValueRow, typeof adjustValueForm>
      id="adjustValues"
      title={t('adjustValue.title')}
      rowKey="id"
      load={(_, options) => call(api.adjustValue.queryByDevice, { query: { deviceId: device.id } }, options)}
      fixedQuery={{ deviceId: device.id }}
      columns={columns}
      actionsWidth={120}
      resource={crudResource({
        save: api.adjustValue.save,
        update: api.adjustValue.update,
        del: api.adjustValue.del,
      })}
      form={{
        schema: adjustValueForm,
        label: (field) => t(`adjustValue.${field}`),
        testId: 'adjustValue',
        title: { create: t('adjustValue.create'), edit: t('adjustValue.edit') },
        width: 560,
        defaults: { deviceId: device.id },
        toForm: ({ deviceId, name, value, type }) => ({ deviceId, name, value, type }),
        fields: () => (
          <Row gutter={16}>
            <Col span={24}>
              <SchemaField name="name" />
            </Col>
            <Col xs={24} md={12}>
              <SchemaField name="value">
                <InputNumber style={{ width: '100%' }} data-testid="adjustValue-value" />
              </SchemaField>
            </Col>
            <Col xs={24} md={12}>
              <SchemaField name="type" />
            </Col>
          </Row>
        ),
      }}
      remove={{
        name: (row) => row.name,
      }}
    />
  );
}
