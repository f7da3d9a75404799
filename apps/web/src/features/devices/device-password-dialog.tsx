import { Alert, Descriptions } from 'antd';
import { useTranslation } from 'react-i18next';
import { SecretDialog } from '../../lib/ui/secret-dialog.tsx';
import { SecretText } from '../../lib/ui/secret-text.tsx';

/** A permanent password as the server answered it for one view; null when the device has none. */
export interface ShownPassword {
  deviceName: string;
  password: string | null;
}

/**
 * The permanent password of a device, shown once per view: monospace with a copy button. The caller drops
 * it in `afterClose`, so it is not kept once the dialog is gone.
 */
export function DevicePasswordDialog({
  shown,
  open,
  onClose,
  afterClose,
}: {
  shown: ShownPassword;
  open: boolean;
  onClose: () => void;
  afterClose: () => void;
}) {
  const { t } = useTranslation('devicePassword');
  return (
    <SecretDialog
      title={t('view.title')}
      open={open}
      onClose={onClose}
      afterClose={afterClose}
      testId="devicePassword-view"
      closeTestId="devicePassword-view-close"
    >
      <Descriptions
        size="small"
        column={1}
        items={[{ key: 'device', label: t('column.deviceName'), children: shown.deviceName }]}
      />
      {shown.password === null ? (
        <Alert type="info" showIcon title={t('view.none')} />
      ) : (
        <>
          <SecretText secret={shown.password} testId="devicePassword-view" />
          <Alert type="warning" showIcon title={t('view.note')} />
        </>
      )}
    </SecretDialog>
  );
}
