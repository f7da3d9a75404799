import { api, type MyInfoForm, myInfoForm } from '@uiot/contracts';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { refreshUser, useCurrentUser } from '../../lib/auth/index.ts';
import { FormDialog } from '../../lib/dialog/form-dialog.tsx';
import { toastSuccess } from '../../lib/feedback/feedback.ts';
import { SchemaField, SchemaForm } from '../../lib/form/schema-field.tsx';
import { call } from '../../lib/request/index.ts';

/** Change own telephone (optional, mainland mobile) and email (required), spec §5. */
export function ChangeInfoDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('auth');
  const [form] = Form.useForm<MyInfoForm>();
  const user = useCurrentUser();

  const submit = async (values: MyInfoForm) => {
    await call(
      api.auth.updateMyInfo,
      { body: { telNo: values.telNo ?? '', email: values.email } },
      { canCancel: false },
    );
    toastSuccess(t('changeInfo.success'));
    await refreshUser();
  };

  return (
    <FormDialog<MyInfoForm>
      open={open}
      title={t('changeInfo.title')}
      form={form}
      onSubmit={submit}
      onClose={onClose}
      initialValues={{ telNo: user?.telNo ?? '', email: user?.email ?? '' }}
      width={480}
      testId="change-info"
    >
      <SchemaForm schema={myInfoForm} label={(field) => t(`changeInfo.${field}`)}>
        <SchemaField name="telNo">
          <Input
            inputMode="tel"
            maxLength={11}
            autoComplete="tel"
            placeholder={t('changeInfo.telNoPlaceholder')}
            data-testid="change-info-tel"
          />
        </SchemaField>
        <SchemaField name="email">
          <Input type="email" autoComplete="email" maxLength={128} data-testid="change-info-email" />
        </SchemaField>
      </SchemaForm>
    </FormDialog>
  );
}
