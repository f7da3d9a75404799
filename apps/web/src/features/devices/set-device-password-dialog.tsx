import { api, type DevicePasswordRow, devicePasswordForm } from '@uiot/contracts';
import { Descriptions, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../lib/dialog/form-dialog.tsx';
import { toastFailed, toastSucceeded } from '../../lib/feedback/outcome.ts';
import { SchemaField, SchemaForm } from '../../lib/form/schema-field.tsx';
import { call } from '../../lib/request/index.ts';

interface PasswordValues {
  password: string;
}

/** Sets the permanent password of one device (6 to 12 digits); the field masks it unless asked to show. */
export function SetDevicePasswordDialog({
  device,
  open,
  onClose,
  onSaved,
}: {
  device: DevicePasswordRow;
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation('devicePassword');
  const [form] = Form.useForm<PasswordValues>();

  const save = async ({ password }: PasswordValues) => {
    try {
      await call(
        api.devicePassword.save,
        { body: { deviceId: device.deviceId, password } },
        { silent: true, canCancel: false },
      );
    } catch (error) {
      toastFailed('save', error);
      throw error;
    }
    toastSucceeded('save');
    onSaved();
  };

  return (
    <FormDialog<PasswordValues>
      open={open}
      title={t('set.title')}
      form={form}
      onSubmit={save}
      onClose={onClose}
      width={520}
      confirmUnsaved
      testId="devicePassword-set"
    >
      <Descriptions
        size="small"
        column={1}
        style={{ marginBottom: 16 }}
        items={[
          { key: 'device', label: t('column.deviceName'), children: device.deviceName },
          { key: 'unit', label: t('column.unitName'), children: device.unitName ?? '-' },
          { key: 'imei', label: t('column.imei'), children: device.imei ?? '-' },
        ]}
      />
      <SchemaForm schema={devicePasswordForm} label={(field) => t(`set.${field}`)}>
        <SchemaField name="password" extra={device.hasPassword ? t('set.replaceHint') : undefined}>
          <Input.Password
            maxLength={12}
            placeholder={t('set.placeholder')}
            inputMode="numeric"
            autoComplete="new-password"
            data-testid="devicePassword-set-password"
          />
        </SchemaField>
      </SchemaForm>
    </FormDialog>
  );
}
