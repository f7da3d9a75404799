import type { FieldIssue } from '@uiot/contracts';
import { Alert, App, Button, Form, type FormInstance, Modal } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toastWarning } from '../feedback/feedback.ts';
import { fieldErrorsOf, hasNamePath } from '../form/field-errors.ts';
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
  /** Closing with changed fields first asks 'changes may not be saved, close?' (spec §5). */
  confirmUnsaved?: boolean;
  testId: string;
  children: ReactNode;
}

/**
 * A dialog around an antd form with the spec's behaviour: a saving state, success closes, failure keeps it
 * open with the server's field errors on the fields (issues about no field above them), closing while
 * saving only warns 'please wait', and with `confirmUnsaved` closing with changes asks first.
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
  confirmUnsaved = false,
  testId,
  children,
}: FormDialogProps<T>) {
  const { t } = useTranslation('common');
  const { modal } = App.useApp();
  const [saving, setSaving] = useState(false);
  const [formIssues, setFormIssues] = useState<FieldIssue[]>([]);

  const requestClose = () => {
    if (saving) {
      toastWarning(t('dialog.pleaseWait'));
      return;
    }
    if (confirmUnsaved && form.isFieldsTouched()) {
      void modal.confirm({
        title: t('dialog.unsavedTitle'),
        content: t('dialog.unsaved'),
        okText: t('dialog.discard'),
        cancelText: t('dialog.keepEditing'),
        okButtonProps: { danger: true, 'data-testid': `${testId}-discard` } as never,
        onOk: onClose,
      });
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
    setFormIssues([]);
    try {
      await onSubmit(values);
      setSaving(false);
      onClose();
    } catch (error) {
      setSaving(false);
      if (isRequestError(error) && error.issues.length > 0) {
        const current = form.getFieldsValue();
        const { fields, others } = fieldErrorsOf(error.issues, (name) => hasNamePath(current, name));
        form.setFields(fields as never);
        setFormIssues(others);
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
        {formIssues.length > 0 && (
          <Alert
            type="error"
            showIcon
            style={{ marginBottom: 16 }}
            data-testid={`${testId}-issues`}
            title={formIssues.map((issue) => (
              <div key={`${issue.path}:${issue.message}`}>
                {issue.path ? `${issue.path}: ${issue.message}` : issue.message}
              </div>
            ))}
          />
        )}
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
