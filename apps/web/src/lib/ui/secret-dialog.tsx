import { Button, Modal } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The dialog around a secret shown once (`SecretText`): a title, the content and a Close button. The caller
 * drops the secret in `afterClose`, so it is not kept once the dialog is gone. Test ids: `testId` on the
 * content, `closeTestId` on the button.
 */
export function SecretDialog({
  title,
  open,
  onClose,
  afterClose,
  maskClosable = true,
  testId,
  closeTestId,
  children,
}: {
  title: string;
  open: boolean;
  onClose: () => void;
  afterClose?: () => void;
  /** Whether a click beside the dialog closes it (false where losing the secret would be costly). */
  maskClosable?: boolean;
  testId: string;
  closeTestId: string;
  children: ReactNode;
}) {
  const { t } = useTranslation('common');
  return (
    <Modal
      open={open}
      title={title}
      onCancel={onClose}
      afterClose={afterClose}
      mask={{ closable: maskClosable }}
      width={480}
      footer={
        <Button type="primary" onClick={onClose} data-testid={closeTestId}>
          {t('action.close')}
        </Button>
      }
      destroyOnHidden
    >
      <div data-testid={testId}>{children}</div>
    </Modal>
  );
}
