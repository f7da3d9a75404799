import { api } from '@uiot/contracts';
import { Form } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SchemaField, SchemaForm } from '../../lib/crud/index.ts';
import { FormDialog } from '../../lib/dialog/form-dialog.tsx';
import { toastFailed } from '../../lib/feedback/outcome.ts';
import { call } from '../../lib/request/index.ts';
import { DeviceSelect } from '../devices/device-select.tsx';
import type { IssuedCode } from './pin-code-dialog.tsx';
import type { PinDevice } from './pin-generate-dialog.tsx';

/** The lock an erase code is for: the endpoint's own query, so the field is checked as the server does. */
const eraseQuery = api.pin.eraseCode.query!;
const REGISTERED = { regist: 'true' } as const;

/**
 * Asks for the lock an erase code is for (or names the lock of the monitor's tab), says what the code does,
 * then gets it. The code goes to `onIssued` only. Test ids: `eraseAsk` (`-submit`, `-cancel`), `erase-deviceId`.
 */
export function EraseCodeAskDialog({
  device,
  open,
  onClose,
  onIssued,
}: {
  device?: PinDevice | undefined;
  open: boolean;
  onClose: () => void;
  onIssued: (issued: Extract<IssuedCode, { kind: 'erase' }>) => void;
}) {
  const { t } = useTranslation('pins');
  const [form] = Form.useForm<{ deviceId: string }>();
  const [chosen, setChosen] = useState<PinDevice | null>(device ?? null);

  const submit = async ({ deviceId }: { deviceId: string }) => {
    try {
      const answer = await call(
        api.pin.eraseCode,
        { query: { deviceId } },
        { silent: true, canCancel: false },
      );
      onIssued({
        kind: 'erase',
        ...answer,
        deviceName: chosen?.id === deviceId ? chosen.name : deviceId,
      });
    } catch (error) {
      toastFailed('generate', error);
      throw error;
    }
  };

  return (
    <FormDialog<{ deviceId: string }>
      open={open}
      title={t('erase.title')}
      form={form}
      onSubmit={submit}
      onClose={onClose}
      initialValues={device ? { deviceId: device.id } : {}}
      okText={t('erase.submit')}
      width={560}
      testId="eraseAsk"
    >
      <p>{t('erase.intro')}</p>
      <SchemaForm schema={eraseQuery} label={() => t('field.deviceId')} testId="erase">
        <SchemaField name="deviceId" required>
          <DeviceSelect
            known={device}
            filter={REGISTERED}
            disabled={device !== undefined}
            placeholder={t('erase.chooseDevice')}
            testId="erase-deviceId"
            onNamed={setChosen}
          />
        </SchemaField>
      </SchemaForm>
    </FormDialog>
  );
}
