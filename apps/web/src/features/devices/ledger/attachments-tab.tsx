import { type AttachmentRow, api, attachmentForm, type DeviceRow, Permission } from '@uiot/contracts';
import { Col, Form, Input, Row, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { type CrudColumn, CrudPage } from '../../../lib/crud/index.ts';
import { call } from '../../../lib/request/index.ts';
import { DeviceTypeSelect } from '../device-type-select.tsx';
import { deviceCategoryLabel, deviceCategoryOptions } from '../device-type-tree.ts';
import { iotTypeLabel, iotTypeOptions, selectOptions } from './ledger-options.ts';

/**
 * The attached devices of a main device (spec §3 Attached device, `SupportAttachment`): name, IMEI, IMSI,
 * device type, category and IoT type.
 */
export function AttachmentsTab({ device }: { device: DeviceRow }) {
  const { t } = useTranslation('ledger');

  const columns: CrudColumn<AttachmentRow>[] = [
    { key: 'name', title: t('column.name'), width: 180, fixed: 'left' },
    { key: 'imei', title: t('column.imei'), width: 160, format: 'code' },
    { key: 'imsi', title: t('column.imsi'), width: 150, format: 'code' },
    { key: 'typeName', title: t('column.typeName'), width: 140 },
    {
      key: 'category',
      title: t('column.category'),
      width: 110,
      value: (row) => deviceCategoryLabel(t, row.category),
    },
    { key: 'iotType', title: t('column.iotType'), width: 120, value: (row) => iotTypeLabel(t, row.iotType) },
    { key: 'createdAt', title: t('column.createdAt'), width: 165, format: 'dateTime', defaultHidden: true },
  ];

  return (
    <CrudPage<AttachmentRow, typeof attachmentForm>
      id="attachments"
      title={t('attachment.title')}
      rowKey="id"
      load={(_, options) =>
        call(api.device.queryAttachments, { query: { mainDeviceId: device.id } }, options)
      }
      fixedQuery={{ mainDeviceId: device.id }}
      columns={columns}
      actionsWidth={120}
      form={{
        schema: attachmentForm,
        title: { create: t('attachment.create'), edit: t('attachment.edit') },
        width: 720,
        defaults: { mainDeviceId: device.id },
        toForm: ({ mainDeviceId, name, imei, imsi, typeId, category, iotType }) => ({
          mainDeviceId,
          name,
          imei,
          imsi,
          typeId,
          category,
          iotType,
        }),
        fields: ({ rule }) => (
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item name="name" label={t('column.name')} rules={[rule('name')]} required>
                <Input maxLength={64} autoComplete="off" data-testid="attachment-name" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="typeId" label={t('column.typeName')} rules={[rule('typeId')]} required>
                <DeviceTypeSelect placeholder={t('form.chooseType')} testId="attachment-typeId" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="imei" label={t('column.imei')} rules={[rule('imei')]} extra={t('hint.imei')}>
                <Input maxLength={15} inputMode="numeric" autoComplete="off" data-testid="attachment-imei" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="imsi" label={t('column.imsi')} rules={[rule('imsi')]}>
                <Input maxLength={15} inputMode="numeric" autoComplete="off" data-testid="attachment-imsi" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="category"
                label={t('column.category')}
                rules={[rule('category')]}
                extra={t('hint.category')}
              >
                <Select
                  options={selectOptions(deviceCategoryOptions(t))}
                  allowClear
                  placeholder={t('form.notSet')}
                  data-testid="attachment-category"
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="iotType" label={t('column.iotType')} rules={[rule('iotType')]}>
                <Select
                  options={selectOptions(iotTypeOptions(t))}
                  allowClear
                  placeholder={t('form.notSet')}
                  data-testid="attachment-iotType"
                />
              </Form.Item>
            </Col>
          </Row>
        ),
        create: {
          permission: Permission.DeviceUpdate,
          save: (body, options) => call(api.device.saveAttachment, { body }, options),
        },
        update: {
          permission: Permission.DeviceUpdate,
          save: (body, row, options) =>
            call(api.device.updateAttachment, { body: { ...body, id: row.id } }, options),
        },
      }}
      remove={{
        permission: Permission.DeviceUpdate,
        run: (row, options) => call(api.device.delAttachment, { query: { id: row.id } }, options),
        name: (row) => row.name,
      }}
    />
  );
}
