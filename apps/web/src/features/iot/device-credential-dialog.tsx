import type { DeviceCredential } from '@uiot/contracts';
import { Alert, Descriptions, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { SecretDialog } from '../../lib/ui/secret-dialog.tsx';
import { SecretText } from '../../lib/ui/secret-text.tsx';
import './iot.css';

/** A device credential as the server issued it, on registering the device or resetting its secret. */
export interface IssuedCredential {
  deviceName: string;
  reason: 'register' | 'reset';
  credential: DeviceCredential;
}

/** A value of the credential the installer types into the lock: monospace, copyable. */
function CredentialValue({ value, testId }: { value: string; testId: string }) {
  return (
    <Typography.Text code copyable={{ text: value }} data-testid={testId}>
      {value}
    </Typography.Text>
  );
}

/**
 * What the dialog shows: the station id and username of the device's MQTT / TcpDirect sign-in, its
 * offline-PIN secret (docs/offline-pins.md), the device secret large with its copy button, and the warning that it is shown only now.
 */
export function DeviceCredentialView({ issued }: { issued: IssuedCredential }) {
  const { t } = useTranslation('iot');
  const { credential } = issued;
  return (
    <>
      <p>{issued.reason === 'register' ? t('credential.intro.register') : t('credential.intro.reset')}</p>
      <Descriptions
        size="small"
        column={1}
        bordered
        items={[
          {
            key: 'stationId',
            label: t('credential.stationId'),
            children: <CredentialValue value={credential.stationId} testId="deviceCredential-stationId" />,
          },
          {
            key: 'username',
            label: t('credential.username'),
            children: <CredentialValue value={credential.username} testId="deviceCredential-username" />,
          },
          {
            key: 'pinSecret',
            label: t('credential.pinSecret'),
            children: <CredentialValue value={credential.pinSecret} testId="deviceCredential-pinSecret" />,
          },
        ]}
      />
      <div className="uiot-iot-credential__secret-label">
        <Typography.Text strong>{t('credential.secret')}</Typography.Text>
      </div>
      <SecretText secret={credential.secret} testId="deviceCredential" />
      <Alert type="warning" showIcon title={t('credential.note')} />
    </>
  );
}

/**
 * The device credential, shown once when issued (ARCHITECTURE §4: devices sign in to the broker with
 * per-device credentials). A click beside it does not close it, since a lost secret means resetting it;
 * the caller drops the credential in `afterClose`, so it is not kept once the dialog is gone. Test ids:
 * `deviceCredential` (content), `deviceCredential-stationId`, `-username`, `-password`, `-copy`, `-close`.
 */
export function DeviceCredentialDialog({
  issued,
  open,
  onClose,
  afterClose,
}: {
  issued: IssuedCredential;
  open: boolean;
  onClose: () => void;
  afterClose: () => void;
}) {
  const { t } = useTranslation('iot');
  const name = issued.deviceName;
  return (
    <SecretDialog
      title={
        issued.reason === 'register'
          ? t('credential.title.register', { name })
          : t('credential.title.reset', { name })
      }
      open={open}
      onClose={onClose}
      afterClose={afterClose}
      maskClosable={false}
      testId="deviceCredential"
      closeTestId="deviceCredential-close"
    >
      <DeviceCredentialView issued={issued} />
    </SecretDialog>
  );
}
