import EyeInvisibleOutlined from '@ant-design/icons-svg/es/asn/EyeInvisibleOutlined';
import EyeOutlined from '@ant-design/icons-svg/es/asn/EyeOutlined';
import LoadingOutlined from '@ant-design/icons-svg/es/asn/LoadingOutlined';
import LockOutlined from '@ant-design/icons-svg/es/asn/LockOutlined';
import UserOutlined from '@ant-design/icons-svg/es/asn/UserOutlined';
import WarningFilled from '@ant-design/icons-svg/es/asn/WarningFilled';
import { type LoginForm as LoginValues, loginForm } from '@uiot/contracts';
import { type FormEvent, type KeyboardEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { redirectTarget, signIn } from '../../lib/auth/index.ts';
import { fieldIssue, translateIssue } from '../../lib/form/schema-rules.ts';
import { useLang } from '../../lib/i18n/use-lang.ts';
import { buttonLabel } from '../../lib/light/button-label.ts';
import { Icon } from '../../lib/light/icon.tsx';
import { TextField } from '../../lib/light/text-field.tsx';

type Field = keyof LoginValues;
const FIELDS: readonly Field[] = ['name', 'pwd'];

/**
 * The sign-in form (spec §2, §4 Login) in plain React: checked by the shared `loginForm` schema (the one the
 * server checks with), field by field as they change and all at once on submit, its messages in the console's
 * language under the fields; a failed sign-in is shown by the request layer (spec §8) and clears the password.
 */
export function LoginForm({ initialName }: { initialName: string | null }) {
  const { t } = useTranslation('auth');
  const lang = useLang();
  const [values, setValues] = useState<LoginValues>({ name: initialName ?? '', pwd: '' });
  const [checked, setChecked] = useState<ReadonlySet<Field>>(new Set());
  const [submitting, setSubmitting] = useState(false);
  const [capsLock, setCapsLock] = useState(false);
  const [passwordShown, setPasswordShown] = useState(false);
  const inputs = { name: useRef<HTMLInputElement>(null), pwd: useRef<HTMLInputElement>(null) };

  const errorOf = (field: Field): string | null => {
    if (!checked.has(field)) return null;
    const issue = fieldIssue(loginForm, values, field);
    return issue ? translateIssue(issue, lang) : null;
  };

  const change = (field: Field, value: string) => {
    setValues((previous) => ({ ...previous, [field]: value }));
    setChecked((previous) => (previous.has(field) ? previous : new Set([...previous, field])));
  };

  const trackCapsLock = (event: KeyboardEvent<HTMLInputElement>) => {
    setCapsLock(event.getModifierState('CapsLock'));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    setChecked(new Set(FIELDS));
    const invalid = FIELDS.find((field) => fieldIssue(loginForm, values, field));
    if (invalid) {
      inputs[invalid].current?.focus();
      return;
    }
    setSubmitting(true);
    try {
      await signIn({ name: values.name.trim(), pwd: values.pwd }, redirectTarget(window.location.search));
    } catch {
      // The request layer has shown why (spec §8 'login failure shown as message').
      setValues((previous) => ({ ...previous, pwd: '' }));
      setChecked((previous) => new Set([...previous].filter((field) => field !== 'pwd')));
      setSubmitting(false);
      inputs.pwd.current?.focus();
    }
  };

  return (
    <form className="uiot-login__form" onSubmit={submit} noValidate data-testid="login-form">
      <TextField
        label={t('login.username')}
        icon={UserOutlined}
        error={errorOf('name')}
        inputRef={inputs.name}
        name="username"
        value={values.name}
        onChange={(event) => change('name', event.target.value)}
        autoComplete="username"
        maxLength={64}
        // The login page exists to be typed into: its first field is the first step.
        autoFocus={!initialName}
        data-testid="login-username"
      />
      <TextField
        label={t('login.password')}
        icon={LockOutlined}
        error={errorOf('pwd')}
        notes={
          capsLock && (
            <span className="uiot-field__warning" data-testid="login-caps-lock">
              <Icon icon={WarningFilled} /> {t('login.capsLock')}
            </span>
          )
        }
        suffix={
          <button
            type="button"
            className="uiot-plain-button uiot-input__toggle"
            aria-label={t('login.showPassword')}
            aria-pressed={passwordShown}
            onClick={() => setPasswordShown((shown) => !shown)}
          >
            <Icon icon={passwordShown ? EyeOutlined : EyeInvisibleOutlined} />
          </button>
        }
        inputRef={inputs.pwd}
        name="password"
        type={passwordShown ? 'text' : 'password'}
        value={values.pwd}
        onChange={(event) => change('pwd', event.target.value)}
        autoComplete="current-password"
        maxLength={128}
        // Back from registering, the name is filled in and the password is next.
        autoFocus={Boolean(initialName)}
        onKeyDown={trackCapsLock}
        onKeyUp={trackCapsLock}
        onBlur={() => setCapsLock(false)}
        data-testid="login-password"
      />
      <button
        type="submit"
        className="uiot-button uiot-button--primary uiot-button--large uiot-button--block"
        aria-busy={submitting}
        data-testid="login-submit"
      >
        {submitting && <Icon icon={LoadingOutlined} spin />}
        {buttonLabel(t('login.submit'))}
      </button>
    </form>
  );
}
