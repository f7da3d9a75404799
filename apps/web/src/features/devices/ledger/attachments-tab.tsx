import {
  type AttachmentForm,
  type AttachmentRow,
  api,
  attachmentForm,
  type DeviceRow,
  FLAGGED_ATTACHMENT_FIELDS,
} from '@uiot/contracts';
import { Row } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeatureFlags } from '../../../lib/auth/index.ts';
import { type CrudColumn, CrudPage, crudResource } from '../../../lib/crud/index.ts';
import { call } from '../../../lib/request/index.ts';
import { deviceCategoryLabel } from '../device-type-tree.ts';
import { hiddenFields, keepHidden } from './device-form.ts';
import { CategoryField, IotTypeField, TextField, TypeField } from './ledger-fields.tsx';
import { iotTypeLabel } from './ledger-options.ts';

/**
 * The attached devices of a main device (spec §3 Attached device, `SupportAttachment`): name, IMEI, IMSI,
 * device type, category and IoT type; IMEI, IMSI and IoT type only while SupportIoT is on.
 */
export function AttachmentsTab({ device }: { device: DeviceRow }) {
  const { t } = useTranslation('ledger');
  const flags = useFeatureFlags();
  const hidden = useMemo(() => hiddenFields(flags, FLAGGED_ATTACHMENT_FIELDS), [flags]);
  const offered = (name: string) => !hidden.has(name);

  const columns = (
    [
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
      {
        key: 'iotType',
        title: t('column.iotType'),
        width: 120,
        value: (row) => iotTypeLabel(t, row.iotType),
      },
      { key: 'createdAt', title: t('column.createdAt'), width: 165, format: 'dateTime', defaultHidden: true },
    ] satisfies CrudColumn<AttachmentRow>[]
  ).filter((column) => offered(column.key));

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
      resource={crudResource<AttachmentRow, AttachmentForm>({
        save: api.device.saveAttachment,
        update: api.device.updateAttachment,
        del: api.device.delAttachment,
        body: (values, row) => keepHidden(values, row, hidden),
      })}
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
        fields: ({ rule }) => {
          const fieldProps = { rule, testId: 'attachment' };
          return (
            <Row gutter={16}>
              <TextField {...fieldProps} name="name" label={t('column.name')} maxLength={64} required />
              <TypeField {...fieldProps} />
              {offered('imei') && (
                <TextField
                  {...fieldProps}
                  name="imei"
                  label={t('column.imei')}
                  maxLength={15}
                  extra={t('hint.imei')}
                  numeric
                />
              )}
              {offered('imsi') && (
                <TextField {...fieldProps} name="imsi" label={t('column.imsi')} maxLength={15} numeric />
              )}
              <CategoryField {...fieldProps} />
              {offered('iotType') && <IotTypeField {...fieldProps} />}
            </Row>
          );
        },
      }}
      remove={{
        name: (row) => row.name,
      }}
    />
  );
}
