import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { SecretDialog } from '../../lib/ui/secret-dialog.tsx';
import { SecretText } from '../../lib/ui/secret-text.tsx';

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
  return (
    <SecretDialog
      title={t('staff.reset.title', { name: result.name })}
      open={open}
      onClose={onClose}
      maskClosable={false}
      testId="staff-reset-result"
      closeTestId="staff-reset-close"
    >
      <p>{t('staff.reset.intro')}</p>
      <SecretText secret={result.password} testId="staff-reset" />
      <Alert type="warning" showIcon title={t('staff.reset.note')} />
    </SecretDialog>
  );
}
