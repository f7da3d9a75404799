import CheckCircleFilled from '@ant-design/icons-svg/es/asn/CheckCircleFilled';
import CloseOutlined from '@ant-design/icons-svg/es/asn/CloseOutlined';
import ExclamationCircleFilled from '@ant-design/icons-svg/es/asn/ExclamationCircleFilled';
import { BUILD_VERSION, getLoginParams } from '@uiot/contracts';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loadChunk } from '../../lib/chunks/load-chunk.ts';
import { LoadFailure } from '../../lib/chunks/load-failure.tsx';
import { LanguageMenu } from '../../lib/i18n/language-menu.tsx';
import { useSupportsMultiLanguage } from '../../lib/i18n/multi-language.ts';
import { useLang } from '../../lib/i18n/use-lang.ts';
import { Icon } from '../../lib/light/icon.tsx';
import { Spinner } from '../../lib/light/spinner.tsx';
import { usePublicValue } from '../../lib/request/public-value.ts';
import { getRuntimeConfig } from '../../lib/runtime-config/runtime-config.ts';
import { LoginForm } from './login-form.tsx';
import { useCountdown } from './use-countdown.ts';
import './login-page.css';

const IE_PATTERN = /MSIE |Trident\//;
const LOGIN_PARAMS_MAX_AGE_MS = 60_000;

/** The registration form is antd's: fetched when a visitor opens it, not with the login page. */
const RegistrationView = lazy(() =>
  loadChunk(() => import('./registration-view.tsx')).then((module) => ({ default: module.RegistrationView })),
);

/** Whether the login page offers self-registration (parameter UserRegisterLorawan, spec §2). */
function useRegistrationOpen(): boolean {
  return usePublicValue(getLoginParams, LOGIN_PARAMS_MAX_AGE_MS)?.userRegister === true;
}

/**
 * Sign-in page (spec §2, §4 Login), with self-registration when it is open. It is the first page most
 * visitors see, so it is light: plain React and the console's CSS, no antd (see lib/light).
 */
export function LoginPage() {
  const { t } = useTranslation('auth');
  const lang = useLang();
  const multiLanguage = useSupportsMultiLanguage();
  const registrationOpen = useRegistrationOpen();
  const [view, setView] = useState<'login' | 'register'>('login');
  const [registered, setRegistered] = useState<string | null>(null);
  const countdown = useCountdown();
  const registering = view === 'register' && registrationOpen;
  const isInternetExplorer = IE_PATTERN.test(navigator.userAgent);
  const title = getRuntimeConfig().system.title[lang];

  useEffect(() => {
    document.title = title;
  }, [title]);

  return (
    <main className="uiot-login">
      {isInternetExplorer && (
        <div
          className="uiot-alert uiot-alert--warning uiot-alert--banner uiot-login__ie"
          role="alert"
          data-testid="login-ie-warning"
        >
          <Icon icon={ExclamationCircleFilled} />
          <div className="uiot-alert__text">{t('ieWarning')}</div>
        </div>
      )}
      <div className="uiot-login__panel">
        <div className="uiot-login__head">
          <img className="uiot-login__logo" src="/logo.svg" alt="" />
          <h1 className="uiot-login__title" title={title}>
            {title}
          </h1>
          {multiLanguage && <LanguageMenu testId="login-language" />}
        </div>
        <p className="uiot-login__subtitle">{registering ? t('register.subtitle') : t('login.subtitle')}</p>
        {registering ? (
          <LoadFailure>
            <Suspense
              fallback={
                <div className="uiot-login__loading">
                  <Spinner label={t('shell:overlay.loading')} />
                </div>
              }
            >
              <RegistrationView
                countdown={countdown}
                onRegistered={(name) => {
                  setRegistered(name);
                  setView('login');
                }}
                onBack={() => setView('login')}
              />
            </Suspense>
          </LoadFailure>
        ) : (
          <>
            {registered && (
              <div
                className="uiot-alert uiot-alert--success uiot-login__registered"
                role="status"
                data-testid="login-registered"
              >
                <Icon icon={CheckCircleFilled} />
                <div className="uiot-alert__text">{t('register.submitted', { name: registered })}</div>
                <button
                  type="button"
                  className="uiot-plain-button uiot-alert__close"
                  aria-label={t('common:action.close')}
                  onClick={() => setRegistered(null)}
                >
                  <Icon icon={CloseOutlined} />
                </button>
              </div>
            )}
            <LoginForm key={registered ?? ''} initialName={registered} />
            {registrationOpen && (
              <div className="uiot-login__switch">
                {t('register.noAccount')}
                <button
                  type="button"
                  className="uiot-link-button"
                  onClick={() => setView('register')}
                  data-testid="login-register-link"
                >
                  {t('register.link')}
                </button>
              </div>
            )}
          </>
        )}
      </div>
      <div className="uiot-login__footer" data-testid="login-version">
        {t('common:version', { version: BUILD_VERSION })}
      </div>
    </main>
  );
}
