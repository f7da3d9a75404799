import { CheckOutlined, CopyOutlined } from '@ant-design/icons';
import { Alert, Button, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * The one-time password of a reset, shown once: it is not stored in clear anywhere, and the user must
 * change it at the next sign-in.
 */
export function OneTimePasswordDialog({
  result,
  open,
  onClose,
}: {
  result: { name: string; password: string };
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('org');
  const { t: tc } = useTranslation('common');
  return (
    <Modal
      open={open}
      title={t('staff.reset.title', { name: result.name })}
      onCancel={onClose}
      mask={{ closable: false }}
      width={480}
      footer={
        <Button type="primary" onClick={onClose} data-testid="staff-reset-close">
          {tc('action.close')}
        </Button>
      }
      destroyOnHidden
    >
      <div data-testid="staff-reset-result">
        <p>{t('staff.reset.intro')}</p>
        <div className="uiot-org__otp">
          <Typography.Text
            code
            copyable={{
              text: result.password,
              tooltips: false,
              icon: [
                <span key="copy" className="uiot-org__otp-copy" data-testid="staff-reset-copy">
                  <CopyOutlined /> {t('staff.reset.copy')}
                </span>,
                <span key="copied" className="uiot-org__otp-copy">
                  <CheckOutlined /> {t('staff.reset.copied')}
                </span>,
              ],
            }}
            className="uiot-org__otp-text"
            data-testid="staff-reset-password"
          >
            {result.password}
          </Typography.Text>
        </div>
        <Alert type="warning" showIcon title={t('staff.reset.note')} />
      </div>
    </Modal>
  );
}
