import { Button, Form, type FormInstance, Modal } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toastWarning } from '../feedback/feedback.ts';
import { isRequestError } from '../request/index.ts';

export interface FormDialogProps<T> {
  open: boolean;
  title: ReactNode;
  form: FormInstance<T>;
  /** Saves the validated values; a rejection keeps the dialog open (spec §4 Dialog). */
  onSubmit: (values: T) => Promise<void>;
  onClose: () => void;
  /** `false`: the dialog cannot be closed by the user (forced first-login password change). */
  dismissible?: boolean;
  initialValues?: Partial<T>;
  okText?: ReactNode;
  /** Spec §9: dialog width 50 %; small forms pass a fixed width. */
  width?: number | string;
  /** Extra footer buttons, left of cancel/confirm. */
  extraFooter?: ReactNode;
  /** Disables saving (e.g. an account whose password cannot be changed). */
  disabled?: boolean;
  testId: string;
  children: ReactNode;
}

/**
 * A dialog around an antd form with the spec's behaviour: a saving state, success closes, failure keeps it
 * open with the server's field errors on the fields, and closing while saving only warns 'please wait'.
 */
export function FormDialog<T>({
  open,
  title,
  form,
  onSubmit,
  onClose,
  dismissible = true,
  initialValues,
  okText,
  width = '50%',
  extraFooter,
  disabled = false,
  testId,
  children,
}: FormDialogProps<T>) {
  const { t } = useTranslation('common');
  const [saving, setSaving] = useState(false);

  const requestClose = () => {
    if (saving) {
      toastWarning(t('dialog.pleaseWait'));
      return;
    }
    onClose();
  };

  const submit = async () => {
    let values: T;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    try {
      await onSubmit(values);
      setSaving(false);
      onClose();
    } catch (error) {
      setSaving(false);
      if (isRequestError(error) && error.issues.length > 0) {
        form.setFields(
          error.issues.map((issue) => ({ name: issue.path.split('.') as never, errors: [issue.message] })),
        );
      }
    }
  };

  return (
    <Modal
      open={open}
      title={title}
      width={width}
      onCancel={requestClose}
      closable={dismissible}
      mask={{ closable: false }}
      keyboard={dismissible}
      footer={
        <>
          {extraFooter}
          {dismissible && (
            <Button onClick={requestClose} disabled={saving} data-testid={`${testId}-cancel`}>
              {t('action.cancel')}
            </Button>
          )}
          <Button
            type="primary"
            loading={saving}
            disabled={disabled}
            onClick={submit}
            data-testid={`${testId}-submit`}
          >
            {okText ?? t('action.save')}
          </Button>
        </>
      }
      destroyOnHidden
    >
      <div data-testid={testId}>
        <Form<T>
          form={form}
          layout="vertical"
          initialValues={initialValues}
          disabled={disabled || saving}
          onFinish={submit}
        >
          {children}
          <button type="submit" hidden aria-hidden tabIndex={-1} />
        </Form>
      </div>
    </Modal>
  );
}
