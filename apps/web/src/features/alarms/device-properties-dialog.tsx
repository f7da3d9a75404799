import { api, type DevicePropertyRow, devicePropertyForm } from '@uiot/contracts';
import { Col, Form, Input, Modal, Row, Select, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type CrudColumn, CrudPage, crudResource, SchemaField } from '../../lib/crud/index.ts';
import { call } from '../../lib/request/index.ts';
import { DeviceTypeSelect } from '../devices/device-type-select.tsx';
import { originOptions, propertyName, valueTypeOptions } from './alarm-options.ts';

/**
 * The property catalogue of a device type (what its rules can test): the protocol's known fields, kept and
 * fixed (only their name and unit change), and the Extension properties operators add for attached devices.
 */
export function DevicePropertiesDialog({
  open,
  initialType,
  onClose,
}: {
  open: boolean;
  initialType: string | null;
  onClose: () => void;
}) {
  const { t } = useTranslation(['alarms', 'monitor']);
  const [deviceTypeId, setDeviceTypeId] = useState<string | null>(initialType);

  const columns: CrudColumn<DevicePropertyRow>[] = [
    {
      key: 'name',
      title: t('alarms:property.column.name'),
      width: 230,
      value: (row) => propertyName(t, row),
      render: (row) => (
        <span>
          {propertyName(t, row)} {row.builtIn && <Tag color="purple">{t('alarms:property.builtIn')}</Tag>}
        </span>
      ),
    },
    { key: 'code', title: t('alarms:property.column.code'), width: 140, format: 'code' },
    {
      key: 'origin',
      title: t('alarms:property.column.origin'),
      width: 90,
      value: (row) => t(`alarms:origin.${row.origin}`),
    },
    {
      key: 'valueType',
      title: t('alarms:property.column.valueType'),
      width: 90,
      value: (row) => t(`alarms:valueType.${row.valueType}`),
    },
    { key: 'unit', title: t('alarms:property.column.unit'), width: 70 },
  ];

  return (
    <Modal
      open={open}
      title={t('alarms:property.title')}
      width={860}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
    >
      <div data-testid="deviceProperties">
        <Form layout="inline" style={{ marginBottom: 16 }}>
          <Form.Item label={t('alarms:property.deviceType')} style={{ minWidth: 320 }}>
            <DeviceTypeSelect
              value={deviceTypeId}
              onChange={setDeviceTypeId}
              placeholder={t('alarms:property.chooseType')}
              testId="deviceProperties-deviceTypeId"
            />
          </Form.Item>
        </Form>
        {deviceTypeId && (
          <CrudPage<DevicePropertyRow, typeof devicePropertyForm>
            key={deviceTypeId}
            id="deviceProperties"
            title={t('alarms:property.title')}
            rowKey="id"
            load={(_, options) => call(api.deviceProperty.queryByType, { query: { deviceTypeId } }, options)}
            columns={columns}
            actionsWidth={140}
            resource={crudResource({
              save: api.deviceProperty.save,
              update: api.deviceProperty.update,
              del: api.deviceProperty.del,
            })}
            form={{
              schema: devicePropertyForm,
              label: (field) => t(`alarms:property.column.${field}`),
              testId: 'deviceProperty',
              title: { create: t('alarms:property.dialog.create'), edit: t('alarms:property.dialog.edit') },
              width: 560,
              defaults: { deviceTypeId, origin: 'Extension', valueType: 'number' },
              toForm: (row) => ({
                deviceTypeId: row.deviceTypeId,
                code: row.code,
                // A known field nobody renamed starts from the text the reader sees.
                name: propertyName(t, row),
                origin: row.origin,
                valueType: row.valueType,
                unit: row.unit,
              }),
              fields: ({ row }) => {
                // A known field keeps its code, origin and type: the server refuses a change (1200 / 1201).
                const fixed = Boolean(row?.builtIn);
                return (
                  <Row gutter={16}>
                    <Col xs={24} md={12}>
                      <SchemaField name="name" />
                    </Col>
                    <Col xs={24} md={12}>
                      <SchemaField name="code">
                        <Input
                          maxLength={64}
                          autoComplete="off"
                          disabled={fixed}
                          data-testid="deviceProperty-code"
                        />
                      </SchemaField>
                    </Col>
                    <Col xs={24} md={8}>
                      <SchemaField name="origin">
                        <Select
                          options={originOptions(t)}
                          disabled={fixed}
                          data-testid="deviceProperty-origin"
                        />
                      </SchemaField>
                    </Col>
                    <Col xs={24} md={8}>
                      <SchemaField name="valueType">
                        <Select
                          options={valueTypeOptions(t)}
                          disabled={fixed}
                          data-testid="deviceProperty-valueType"
                        />
                      </SchemaField>
                    </Col>
                    <Col xs={24} md={8}>
                      <SchemaField name="unit" />
                    </Col>
                  </Row>
                );
              },
            }}
            remove={{ name: (row) => propertyName(t, row), when: (row) => !row.builtIn }}
          />
        )}
      </div>
    </Modal>
  );
}
