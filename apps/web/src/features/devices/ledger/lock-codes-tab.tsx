import { api, type DeviceRow, type LockCodeRow, lockCodeForm, Permission } from '@uiot/contracts';
import { Col, DatePicker, Form, Input, Row, Switch, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { type CrudColumn, CrudPage, DescriptionInput } from '../../../lib/crud/index.ts';
import { DATE_TIME_FORMAT } from '../../../lib/i18n/date-format.ts';
import { call } from '../../../lib/request/index.ts';
import { lockCodeToForm, newLockCodeValues, pickedTime, pickerValue, upperCased } from './lock-code-form.ts';

/**
 * The lock codes of a device (spec §3 Lock code, `SupportRfid`): RFID (12 hex, upper-cased), kind,
 * Bluetooth address, in effect and when; the end later than the start.
 */
export function LockCodesTab({ device }: { device: DeviceRow }) {
  const { t } = useTranslation('ledger');

  const columns: CrudColumn<LockCodeRow>[] = [
    { key: 'rfidCode', title: t('lockCode.rfidCode'), width: 150, format: 'code', fixed: 'left' },
    { key: 'dnbs', title: t('lockCode.dnbs'), width: 170 },
    { key: 'rfidType', title: t('lockCode.rfidType'), width: 110 },
    { key: 'blueAddr', title: t('lockCode.blueAddr'), width: 170, format: 'code' },
    {
      key: 'effect',
      title: t('lockCode.effect'),
      width: 90,
      format: 'boolean',
      render: (row) => (
        <Tag color={row.effect ? 'green' : 'default'}>
          {row.effect ? t('lockCode.on') : t('lockCode.off')}
        </Tag>
      ),
    },
    { key: 'effectiveTime', title: t('lockCode.effectiveTime'), width: 165, format: 'dateTime' },
    { key: 'expirationTime', title: t('lockCode.expirationTime'), width: 165, format: 'dateTime' },
    { key: 'remark', title: t('lockCode.remark'), width: 180 },
    {
      key: 'createdAt',
      title: t('column.createdAt'),
      width: 165,
      format: 'dateTime',
      defaultHidden: true,
    },
  ];

  return (
    <CrudPage<LockCodeRow, typeof lockCodeForm>
      id="lockCodes"
      title={t('lockCode.title')}
      rowKey="id"
      load={(_, options) => call(api.lockCode.queryByDevice, { query: { deviceId: device.id } }, options)}
      fixedQuery={{ deviceId: device.id }}
      columns={columns}
      actionsWidth={120}
      form={{
        schema: lockCodeForm,
        title: { create: t('lockCode.create'), edit: t('lockCode.edit') },
        width: 720,
        defaults: newLockCodeValues(device.id),
        toForm: lockCodeToForm,
        fields: ({ rule }) => (
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item
                name="rfidCode"
                label={t('lockCode.rfidCode')}
                rules={[rule('rfidCode')]}
                normalize={upperCased}
                extra={t('hint.rfid')}
                required
              >
                <Input
                  maxLength={12}
                  autoComplete="off"
                  className="uiot-ledger__code"
                  data-testid="lockCode-rfidCode"
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="rfidType" label={t('lockCode.rfidType')} rules={[rule('rfidType')]}>
                <Input maxLength={32} autoComplete="off" data-testid="lockCode-rfidType" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="dnbs" label={t('lockCode.dnbs')} rules={[rule('dnbs')]}>
                <Input maxLength={32} autoComplete="off" data-testid="lockCode-dnbs" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="blueAddr"
                label={t('lockCode.blueAddr')}
                rules={[rule('blueAddr')]}
                normalize={upperCased}
                extra={t('hint.bluetooth')}
              >
                <Input
                  maxLength={17}
                  autoComplete="off"
                  className="uiot-ledger__code"
                  data-testid="lockCode-blueAddr"
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="effectiveTime"
                label={t('lockCode.effectiveTime')}
                rules={[rule('effectiveTime')]}
                getValueProps={(value: unknown) => ({ value: pickerValue(value) })}
                normalize={pickedTime}
              >
                <DatePicker
                  showTime
                  format={DATE_TIME_FORMAT}
                  style={{ width: '100%' }}
                  data-testid="lockCode-effectiveTime"
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="expirationTime"
                label={t('lockCode.expirationTime')}
                rules={[rule('expirationTime')]}
                dependencies={['effectiveTime']}
                getValueProps={(value: unknown) => ({ value: pickerValue(value) })}
                normalize={pickedTime}
              >
                <DatePicker
                  showTime
                  format={DATE_TIME_FORMAT}
                  style={{ width: '100%' }}
                  data-testid="lockCode-expirationTime"
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="effect"
                label={t('lockCode.effect')}
                valuePropName="checked"
                rules={[rule('effect')]}
              >
                <Switch data-testid="lockCode-effect" />
              </Form.Item>
            </Col>
            <Col span={24}>
              <Form.Item name="remark" label={t('lockCode.remark')} rules={[rule('remark')]}>
                <DescriptionInput testId="lockCode-remark" />
              </Form.Item>
            </Col>
          </Row>
        ),
        create: {
          permission: Permission.DeviceUpdate,
          save: (body, options) => call(api.lockCode.save, { body }, options),
        },
        update: {
          permission: Permission.DeviceUpdate,
          save: (body, row, options) => call(api.lockCode.update, { body: { ...body, id: row.id } }, options),
        },
      }}
      remove={{
        permission: Permission.DeviceUpdate,
        run: (row, options) => call(api.lockCode.del, { query: { id: row.id } }, options),
        name: (row) => row.rfidCode,
      }}
    />
  );
}
