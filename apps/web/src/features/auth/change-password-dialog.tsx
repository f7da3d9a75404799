import { api, type ChangePasswordForm, changePasswordForm } from '@uiot/contracts';
import { Alert, Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  canEditOwnAccount,
  currentBrowserPath,
  loginPath,
  redirectTarget,
  restoreSession,
  signOut,
  useCurrentUser,
} from '../../lib/auth/index.ts';
import { FormDialog } from '../../lib/dialog/form-dialog.tsx';
import { toastSuccess } from '../../lib/feedback/feedback.ts';
import { useSchemaRule } from '../../lib/form/schema-rules.ts';
import { call } from '../../lib/request/index.ts';

interface ChangePasswordDialogProps {
  open: boolean;
  onClose: () => void;
  /** First sign-in (spec §4): the dialog cannot be dismissed, only left by signing out. */
  forced?: boolean;
}

/**
 * Change own password (spec §5): old, new and confirmation; the new one differs from the old, both entries
 * match, at least 8 characters with upper case, lower case and digits. The server ends the user's other
 * sessions. After the forced first-sign-in change the console goes on to the page that was asked for.
 */
export function ChangePasswordDialog({ open, onClose, forced = false }: ChangePasswordDialogProps) {
  const { t } = useTranslation('auth');
  const [form] = Form.useForm<ChangePasswordForm>();
  const rule = useSchemaRule(changePasswordForm);
  const user = useCurrentUser();
  const locked = !canEditOwnAccount(user);
  const backToLogin = () => signOut({ landing: loginPath(currentBrowserPath()) });

  const submit = async (values: ChangePasswordForm) => {
    await call(api.auth.changePwd, { body: values }, { canCancel: false });
    toastSuccess(t('changePassword.success'));
    if (forced) await restoreSession(redirectTarget(window.location.search));
  };

  return (
    <FormDialog<ChangePasswordForm>
      open={open}
      title={forced ? t('changePassword.forcedTitle') : t('changePassword.title')}
      form={form}
      onSubmit={submit}
      onClose={onClose}
      dismissible={!forced}
      disabled={locked}
      width={480}
      testId="change-password"
      extraFooter={
        forced && (
          <Button onClick={backToLogin} data-testid="change-password-sign-out" style={{ float: 'left' }}>
            {t('changePassword.signOut')}
          </Button>
        )
      }
    >
      {forced && (
        <Alert type="info" showIcon title={t('changePassword.forcedHint')} style={{ marginBottom: 16 }} />
      )}
      {locked && (
        <Alert
          type="warning"
          showIcon
          title={t('changePassword.builtInAdmin')}
          style={{ marginBottom: 16 }}
          data-testid="change-password-admin-warning"
        />
      )}
      <Form.Item name="oldPwd" label={t('changePassword.oldPwd')} rules={[rule('oldPwd')]} required>
        <Input.Password autoComplete="current-password" data-testid="change-password-old" />
      </Form.Item>
      <Form.Item
        name="newPwd"
        label={t('changePassword.newPwd')}
        rules={[rule('newPwd')]}
        dependencies={['oldPwd']}
        extra={t('changePassword.rule')}
        required
      >
        <Input.Password autoComplete="new-password" data-testid="change-password-new" />
      </Form.Item>
      <Form.Item
        name="confirmPwd"
        label={t('changePassword.confirmPwd')}
        rules={[rule('confirmPwd')]}
        dependencies={['newPwd']}
        required
      >
        <Input.Password autoComplete="new-password" data-testid="change-password-confirm" />
      </Form.Item>
    </FormDialog>
  );
}
