import { api, type ChangePasswordForm, changePasswordFormFor } from '@uiot/contracts';
import { Alert, Button, Form, Input } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import {
  canEditOwnAccount,
  currentBrowserPath,
  loginPath,
  redirectTarget,
  restoreSession,
  signOut,
  useCurrentUser,
  useFeatureFlags,
} from '../../lib/auth/index.ts';
import { FormDialog } from '../../lib/dialog/form-dialog.tsx';
import { toastSuccess } from '../../lib/feedback/feedback.ts';
import { SchemaField, SchemaForm } from '../../lib/form/schema-field.tsx';
import { call } from '../../lib/request/index.ts';

interface ChangePasswordDialogProps {
  open: boolean;
  onClose: () => void;
  /** First sign-in (spec §4): the dialog cannot be dismissed, only left by signing out. */
  forced?: boolean;
}

/**
 * Change own password (spec §5): old, new and confirmation; the new one differs from the old, both entries
 * match, and it meets the rule of every chosen password: the strong policy while StrongPassword is on, at
 * least 8 characters with upper case, lower case and digits otherwise (the server checks the same). The
 * server ends the user's other sessions. After the forced first-sign-in change the console goes on to the
 * page that was asked for.
 */
export function ChangePasswordDialog({ open, onClose, forced = false }: ChangePasswordDialogProps) {
  const { t } = useTranslation('auth');
  const [form] = Form.useForm<ChangePasswordForm>();
  const user = useCurrentUser();
  const locked = !canEditOwnAccount(user);
  const strong = useFeatureFlags().StrongPassword === 'true';
  const userName = user?.name ?? '';
  const schema = useMemo(() => changePasswordFormFor({ strong, userName }), [strong, userName]);
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
      <SchemaForm schema={schema} label={(field) => t(`changePassword.${field}`)}>
        <SchemaField name="oldPwd">
          <Input.Password autoComplete="current-password" data-testid="change-password-old" />
        </SchemaField>
        <SchemaField
          name="newPwd"
          dependencies={['oldPwd']}
          extra={t(strong ? 'changePassword.strongRule' : 'changePassword.rule')}
        >
          <Input.Password autoComplete="new-password" data-testid="change-password-new" />
        </SchemaField>
        <SchemaField name="confirmPwd" dependencies={['newPwd']}>
          <Input.Password autoComplete="new-password" data-testid="change-password-confirm" />
        </SchemaField>
      </SchemaForm>
    </FormDialog>
  );
}
