import { GlobalOutlined, LockOutlined, UserOutlined, WarningFilled } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { api, BUILD_VERSION, type LoginForm, loginForm } from '@uiot/contracts';
import { Alert, Button, Form, Input, Typography } from 'antd';
import { type KeyboardEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { redirectTarget, signIn } from '../../lib/auth/index.ts';
import { useSchemaRule } from '../../lib/form/schema-rules.ts';
import { LanguageSwitch, useLang, useSupportsMultiLanguage } from '../../lib/i18n/index.ts';
import { endpointQuery } from '../../lib/request/index.ts';
import { getRuntimeConfig } from '../../lib/runtime-config/runtime-config.ts';
import { RegistrationForm } from './registration-form.tsx';
import { useCountdown } from './use-countdown.ts';
import './login-page.css';

const IE_PATTERN = /MSIE |Trident\//;

/** Whether the login page offers self-registration (parameter UserRegisterLorawan, spec §2). */
function useRegistrationOpen(): boolean {
  const { data } = useQuery({
    ...endpointQuery(api.system.getLoginParams, undefined, { noToken: true, noOverlay: true, silent: true }),
    staleTime: 60_000,
  });
  return data?.userRegister === true;
}

/** Sign-in page (spec §2, §4 Login), with self-registration when it is open. */
export function LoginPage() {
  const { t } = useTranslation('auth');
  const lang = useLang();
  const location = useLocation();
  const [form] = Form.useForm<LoginForm>();
  const rule = useSchemaRule(loginForm);
  const multiLanguage = useSupportsMultiLanguage();
  const [submitting, setSubmitting] = useState(false);
  const [capsLock, setCapsLock] = useState(false);
  const registrationOpen = useRegistrationOpen();
  const [view, setView] = useState<'login' | 'register'>('login');
  const [registered, setRegistered] = useState<string | null>(null);
  const countdown = useCountdown();
  const registering = view === 'register' && registrationOpen;
  const isInternetExplorer = IE_PATTERN.test(navigator.userAgent);
  const title = getRuntimeConfig().system.title[lang];

  const trackCapsLock = (event: KeyboardEvent<HTMLInputElement>) => {
    setCapsLock(event.getModifierState('CapsLock'));
  };

  const submit = async (values: LoginForm) => {
    setSubmitting(true);
    try {
      await signIn({ name: values.name.trim(), pwd: values.pwd }, redirectTarget(location.search));
    } catch {
      // The request layer has shown why (spec §8 'login failure shown as message').
      form.setFieldValue('pwd', '');
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <div className="uiot-login">
      {isInternetExplorer && (
        <Alert
          className="uiot-login__ie"
          type="warning"
          banner
          title={t('ieWarning')}
          data-testid="login-ie-warning"
        />
      )}
      <div className="uiot-login__panel">
        <div className="uiot-login__head">
          <img className="uiot-login__logo" src="/logo.svg" alt="" />
          <Typography.Title level={3} className="uiot-login__title" ellipsis={{ tooltip: title }}>
            {title}
          </Typography.Title>
          {multiLanguage && (
            <LanguageSwitch>
              <Button
                type="text"
                icon={<GlobalOutlined />}
                className="uiot-login__lang"
                aria-label={t('common:language.label')}
                data-testid="login-language"
              />
            </LanguageSwitch>
          )}
        </div>
        <Typography.Text type="secondary" className="uiot-login__subtitle">
          {registering ? t('register.subtitle') : t('login.subtitle')}
        </Typography.Text>
        {registering ? (
          <RegistrationForm
            countdown={countdown}
            onRegistered={(name) => {
              setRegistered(name);
              setView('login');
            }}
            onBack={() => setView('login')}
          />
        ) : (
          <>
            {registered && (
              <Alert
                type="success"
                showIcon
                className="uiot-login__registered"
                title={t('register.submitted', { name: registered })}
                closable={{ onClose: () => setRegistered(null) }}
                data-testid="login-registered"
              />
            )}
            <Form<LoginForm>
              form={form}
              size="large"
              onFinish={submit}
              autoComplete="on"
              initialValues={registered ? { name: registered } : undefined}
              data-testid="login-form"
            >
              <Form.Item name="name" rules={[rule('name')]}>
                <Input
                  prefix={<UserOutlined />}
                  placeholder={t('login.username')}
                  autoComplete="username"
                  maxLength={64}
                  autoFocus={!registered}
                  data-testid="login-username"
                />
              </Form.Item>
              <Form.Item
                name="pwd"
                rules={[rule('pwd')]}
                extra={
                  capsLock && (
                    <span className="uiot-login__caps" data-testid="login-caps-lock">
                      <WarningFilled /> {t('login.capsLock')}
                    </span>
                  )
                }
              >
                <Input.Password
                  prefix={<LockOutlined />}
                  placeholder={t('login.password')}
                  autoComplete="current-password"
                  maxLength={128}
                  autoFocus={Boolean(registered)}
                  onKeyDown={trackCapsLock}
                  onKeyUp={trackCapsLock}
                  onBlur={() => setCapsLock(false)}
                  data-testid="login-password"
                />
              </Form.Item>
              <Button type="primary" htmlType="submit" block loading={submitting} data-testid="login-submit">
                {t('login.submit')}
              </Button>
            </Form>
            {registrationOpen && (
              <div className="uiot-login__switch">
                {t('register.noAccount')}
                <Button
                  type="link"
                  size="small"
                  onClick={() => setView('register')}
                  data-testid="login-register-link"
                >
                  {t('register.link')}
                </Button>
              </div>
            )}
          </>
        )}
      </div>
      <div className="uiot-login__footer" data-testid="login-version">
        {t('common:version', { version: BUILD_VERSION })}
      </div>
    </div>
  );
}
