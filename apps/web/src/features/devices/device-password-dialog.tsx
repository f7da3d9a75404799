import { CheckOutlined, CopyOutlined } from '@ant-design/icons';
import { Alert, Button, Descriptions, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

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
  const { t: tc } = useTranslation('common');
  return (
    <Modal
      open={open}
      title={t('view.title')}
      onCancel={onClose}
      afterClose={afterClose}
      width={480}
      footer={
        <Button type="primary" onClick={onClose} data-testid="devicePassword-view-close">
          {tc('action.close')}
        </Button>
      }
      destroyOnHidden
    >
      <div data-testid="devicePassword-view">
        <Descriptions
          size="small"
          column={1}
          items={[{ key: 'device', label: t('column.deviceName'), children: shown.deviceName }]}
        />
        {shown.password === null ? (
          <Alert type="info" showIcon title={t('view.none')} />
        ) : (
          <>
            <div style={{ textAlign: 'center', margin: '12px 0 16px' }}>
              <Typography.Text
                code
                copyable={{
                  text: shown.password,
                  tooltips: false,
                  icon: [
                    <span key="copy" data-testid="devicePassword-view-copy">
                      <CopyOutlined /> {t('view.copy')}
                    </span>,
                    <span key="copied">
                      <CheckOutlined /> {t('view.copied')}
                    </span>,
                  ],
                }}
                style={{ fontSize: 22, letterSpacing: 2 }}
                data-testid="devicePassword-view-password"
              >
                {shown.password}
              </Typography.Text>
            </div>
            <Alert type="warning" showIcon title={t('view.note')} />
          </>
        )}
      </div>
    </Modal>
  );
}
