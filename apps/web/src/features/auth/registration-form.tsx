import { CheckCircleFilled, CloseCircleFilled, LoadingOutlined, MailOutlined } from '@ant-design/icons';
import {
  api,
  type RegistrationForm as RegistrationValues,
  ResultCode,
  registrationForm,
  VERIFICATION_CODE_LENGTH,
} from '@uiot/contracts';
import { Button, Form, Input, Radio, Space, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toastSuccess } from '../../lib/feedback/feedback.ts';
import { toastFailed } from '../../lib/feedback/outcome.ts';
import { fieldErrorsOf, hasNamePath } from '../../lib/form/field-errors.ts';
import { SchemaField, SchemaForm } from '../../lib/form/schema-field.tsx';
import { call, isCancelled, isRequestError, type RequestOptions } from '../../lib/request/index.ts';
import { PasswordGuidance } from './password-guidance-list.tsx';

/** Public calls of the login page: no token, no overlay. */
const PUBLIC: RequestOptions = { noToken: true, noOverlay: true };
/** Calls whose failure the form shows itself. */
const PUBLIC_SILENT: RequestOptions = { ...PUBLIC, silent: true, canCancel: false };

type CodeState = 'idle' | 'checking' | 'verified' | 'wrong';

/** The seconds to wait that a refused send (1052) carries. */
function waitSecondsOf(error: unknown): number | null {
  if (!isRequestError(error) || error.code !== ResultCode.VerificationTooSoon) return null;
  const data = error.data as { resendAfterSeconds?: unknown } | null;
  return typeof data?.resendAfterSeconds === 'number' ? data.resendAfterSeconds : null;
}

/**
 * Self-registration (spec §2 login screen, §4 Registration, §5): staff type, name (StaffID of MTR staff,
 * HKID of contractors), email, the mailed 6-character code (send, countdown, auto-verify), password and
 * confirmation. Submitting verifies the code again and registers; the account then waits for an
 * administrator.
 */
export function RegistrationForm({
  countdown,
  onRegistered,
  onBack,
}: {
  /** The send-code countdown, kept by the login page across views. */
  countdown: { seconds: number; start: (seconds: number) => void };
  onRegistered: (name: string) => void;
  onBack: () => void;
}) {
  const { t } = useTranslation('auth');
  const [form] = Form.useForm<RegistrationValues>();
  const staffType = Form.useWatch('staffType', form);
  const password = Form.useWatch('password', form) ?? '';
  const name = Form.useWatch('name', form) ?? '';
  const [sending, setSending] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [codeState, setCodeState] = useState<CodeState>('idle');
  /** Answers of an earlier check (another code or address) are ignored. */
  const checks = useRef(0);

  const idLabel = staffType === 0 ? t('register.hkid') : t('register.staffId');

  const verify = async (email: string, code: string): Promise<boolean> =>
    call(api.registration.verifyVerificationCode, { query: { email, verificationCode: code } }, PUBLIC);

  const sendCode = async () => {
    try {
      await form.validateFields(['email']);
    } catch {
      return;
    }
    const email = (form.getFieldValue('email') as string).trim();
    setSending(true);
    try {
      const { resendAfterSeconds } = await call(
        api.registration.sendVerificationCode,
        { query: { email } },
        { ...PUBLIC, canCancel: false },
      );
      countdown.start(resendAfterSeconds);
      setCodeState('idle');
      toastSuccess(t('register.codeSent', { email }));
    } catch (error) {
      // Refused as too soon: the server says how long to wait (its message has been shown).
      const seconds = waitSecondsOf(error);
      if (seconds !== null) countdown.start(seconds);
    } finally {
      setSending(false);
    }
  };

  /** Spec §4: entering the 6th character checks the code at once. */
  const onCodeChange = async (value: string) => {
    const check = ++checks.current;
    const code = value.trim();
    const email = ((form.getFieldValue('email') as string | undefined) ?? '').trim();
    if (code.length !== VERIFICATION_CODE_LENGTH || !email) {
      setCodeState('idle');
      return;
    }
    const emailValid = await form.validateFields(['email']).then(
      () => true,
      () => false,
    );
    if (check !== checks.current) return;
    if (!emailValid) {
      setCodeState('idle');
      return;
    }
    setCodeState('checking');
    try {
      const valid = await verify(email, code);
      if (check === checks.current) setCodeState(valid ? 'verified' : 'wrong');
    } catch (error) {
      if (check === checks.current && !isCancelled(error)) setCodeState('idle');
    }
  };

  const submit = async (values: RegistrationValues) => {
    setSubmitting(true);
    try {
      // Spec §4: submit verifies the code again before registering.
      const valid = await call(
        api.registration.verifyVerificationCode,
        { query: { email: values.email.trim(), verificationCode: values.verificationCode.trim() } },
        PUBLIC_SILENT,
      );
      if (!valid) {
        setCodeState('wrong');
        return;
      }
      await call(api.registration.userRegister, { body: values }, PUBLIC_SILENT);
      onRegistered(values.name.trim());
    } catch (error) {
      if (isRequestError(error) && error.issues.length > 0) {
        const current = form.getFieldsValue(true);
        const { fields, others } = fieldErrorsOf(error.issues, (path) => hasNamePath(current, path));
        form.setFields(fields as never);
        if (others.length > 0) toastFailed('register', error, { withIssues: true });
      } else {
        if (isRequestError(error) && error.code === ResultCode.VerificationCodeInvalid) setCodeState('wrong');
        toastFailed('register', error);
      }
    } finally {
      setSubmitting(false);
    }
  };

  const codeStatus = {
    idle: null,
    checking: (
      <Typography.Text type="secondary">
        <LoadingOutlined /> {t('register.codeChecking')}
      </Typography.Text>
    ),
    verified: (
      <Typography.Text type="success">
        <CheckCircleFilled /> {t('register.codeVerified')}
      </Typography.Text>
    ),
    wrong: (
      <Typography.Text type="danger">
        <CloseCircleFilled /> {t('register.codeWrong')}
      </Typography.Text>
    ),
  }[codeState];

  return (
    <Form<RegistrationValues>
      form={form}
      layout="vertical"
      onFinish={submit}
      initialValues={{ staffType: 1 }}
      autoComplete="off"
      className="uiot-register"
      data-testid="register-form"
    >
      <SchemaForm schema={registrationForm} label={(field) => t(`register.${field}`)}>
        <SchemaField name="staffType">
          <Radio.Group
            optionType="button"
            buttonStyle="solid"
            block
            options={[
              { value: 1, label: <span data-testid="register-staff-type-1">{t('register.mtr')}</span> },
              {
                value: 0,
                label: <span data-testid="register-staff-type-0">{t('register.contractor')}</span>,
              },
            ]}
            data-testid="register-staff-type"
          />
        </SchemaField>
        <SchemaField name="name" label={idLabel}>
          <Input placeholder={idLabel} maxLength={64} autoComplete="username" data-testid="register-name" />
        </SchemaField>
        <SchemaField name="email">
          <Input
            prefix={<MailOutlined />}
            placeholder={t('register.emailPlaceholder')}
            maxLength={128}
            autoComplete="email"
            onChange={() => {
              checks.current += 1;
              setCodeState('idle');
            }}
            data-testid="register-email"
          />
        </SchemaField>
        <Form.Item
          label={t('register.code')}
          required
          extra={
            codeStatus && (
              <span data-testid="register-code-status" data-state={codeState}>
                {codeStatus}
              </span>
            )
          }
        >
          <Space.Compact block>
            <SchemaField name="verificationCode" noStyle>
              <Input
                placeholder={t('register.codePlaceholder')}
                maxLength={VERIFICATION_CODE_LENGTH}
                autoComplete="one-time-code"
                onChange={(event) => void onCodeChange(event.target.value)}
                data-testid="register-code"
              />
            </SchemaField>
            <Button
              onClick={() => void sendCode()}
              loading={sending}
              disabled={countdown.seconds > 0}
              className="uiot-register__send"
              data-testid="register-send-code"
            >
              {countdown.seconds > 0
                ? t('register.resendIn', { seconds: countdown.seconds })
                : t('register.sendCode')}
            </Button>
          </Space.Compact>
        </Form.Item>
        <SchemaField name="password" extra={<PasswordGuidance password={password} userName={name} />}>
          <Input.Password autoComplete="new-password" maxLength={128} data-testid="register-password" />
        </SchemaField>
        <SchemaField name="confirmPassword" dependencies={['password']}>
          <Input.Password autoComplete="new-password" maxLength={128} data-testid="register-confirm" />
        </SchemaField>
      </SchemaForm>
      <Button type="primary" htmlType="submit" block loading={submitting} data-testid="register-submit">
        {t('register.submit')}
      </Button>
      <div className="uiot-login__switch">
        {t('register.haveAccount')}
        <Button type="link" size="small" onClick={onBack} data-testid="register-back">
          {t('register.backToLogin')}
        </Button>
      </div>
    </Form>
  );
}
