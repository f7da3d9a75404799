import { api, type DeviceRow, type LockCodeRow, lockCodeForm } from '@uiot/contracts';
import { Col, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { type CrudColumn, CrudPage, crudResource, SchemaField } from '../../../lib/crud/index.ts';
import { call } from '../../../lib/request/index.ts';
import { TextField, TimeField, ToggleField } from './ledger-fields.tsx';
import { lockCodeColumns } from './lock-code-columns.tsx';
import { lockCodeToForm, newLockCodeValues } from './lock-code-form.ts';

/**
 * The lock codes of a device (spec §3 Lock code, `SupportRfid`): RFID (12 hex, upper-cased), kind,
 * Bluetooth address, in effect and when; the end later than the start.
 */
export function LockCodesTab({ device }: { device: DeviceRow }) {
  const { t } = useTranslation('ledger');

  const columns: CrudColumn<LockCodeRow>[] = [
    ...lockCodeColumns(t),
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
      resource={crudResource({ save: api.lockCode.save, update: api.lockCode.update, del: api.lockCode.del })}
      form={{
        schema: lockCodeForm,
        label: (field) => t(`lockCode.${field}`),
        testId: 'lockCode',
        title: { create: t('lockCode.create'), edit: t('lockCode.edit') },
        width: 720,
        defaults: newLockCodeValues(device.id),
        toForm: lockCodeToForm,
        fields: ({ rule }) => {
          const fieldProps = { rule, testId: 'lockCode' };
          return (
            <Row gutter={16}>
              <TextField
                {...fieldProps}
                name="rfidCode"
                label={t('lockCode.rfidCode')}
                maxLength={12}
                extra={t('hint.rfid')}
                required
                code
              />
              <TextField {...fieldProps} name="rfidType" label={t('lockCode.rfidType')} maxLength={32} />
              <TextField {...fieldProps} name="dnbs" label={t('lockCode.dnbs')} maxLength={32} />
              <TextField
                {...fieldProps}
                name="blueAddr"
                label={t('lockCode.blueAddr')}
                maxLength={17}
                extra={t('hint.bluetooth')}
                code
              />
              <TimeField {...fieldProps} name="effectiveTime" label={t('lockCode.effectiveTime')} />
              <TimeField
                {...fieldProps}
                name="expirationTime"
                label={t('lockCode.expirationTime')}
                // The end must be later than the start: checked again when the start changes.
                dependencies={['effectiveTime']}
              />
              <ToggleField {...fieldProps} name="effect" label={t('lockCode.effect')} />
              <Col span={24}>
                <SchemaField name="remark" />
              </Col>
            </Row>
          );
        },
      }}
      remove={{
        name: (row) => row.rfidCode,
      }}
    />
  );
}
