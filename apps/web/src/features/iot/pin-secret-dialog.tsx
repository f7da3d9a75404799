import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { SecretDialog } from '../../lib/ui/secret-dialog.tsx';
import { SecretText } from '../../lib/ui/secret-text.tsx';

/** A device's new offline-PIN secret, as the server issued it (docs/offline-pins.md). */
export interface IssuedPinSecret {
  deviceName: string;
  pinSecret: string;
}

/**
 * The offline-PIN secret of a lock, shown once when issued: the installer writes it into the lock (how a
 * lock without a code, LoRaWAN or NB-IoT, gets one). The caller drops it in `afterClose`. Test ids:
 * `pinSecret` (content), `pinSecret-password`, `pinSecret-copy`, `pinSecret-close`.
 */
export function PinSecretDialog({
  issued,
  open,
  onClose,
  afterClose,
}: {
  issued: IssuedPinSecret;
  open: boolean;
  onClose: () => void;
  afterClose: () => void;
}) {
  const { t } = useTranslation('iot');
  return (
    <SecretDialog
      title={t('pinSecret.title', { name: issued.deviceName })}
      open={open}
      onClose={onClose}
      afterClose={afterClose}
      maskClosable={false}
      testId="pinSecret"
      closeTestId="pinSecret-close"
    >
      <p>{t('pinSecret.intro')}</p>
      <SecretText secret={issued.pinSecret} testId="pinSecret" />
      <Alert type="warning" showIcon title={t('pinSecret.note')} />
    </SecretDialog>
  );
}
