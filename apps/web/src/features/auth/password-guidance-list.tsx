import { CheckCircleFilled, InfoCircleOutlined } from '@ant-design/icons';
import { translateValidation } from '@uiot/contracts';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLang } from '../../lib/i18n/index.ts';
import { passwordGuidance } from './password-guidance.ts';

/** The live guidance under the registration's password field. */
export function PasswordGuidance({ password, userName }: { password: string; userName: string }) {
  const { t } = useTranslation('auth');
  const lang = useLang();
  if (!password) {
    return <span data-testid="register-password-guidance">{t('register.passwordHint')}</span>;
  }
  const problems = passwordGuidance(password, userName);
  if (problems.length === 0) {
    return (
      <Typography.Text type="success" data-testid="register-password-guidance" data-state="ok">
        <CheckCircleFilled /> {t('register.passwordOk')}
      </Typography.Text>
    );
  }
  return (
    <ul className="uiot-register__guidance" data-testid="register-password-guidance" data-state="weak">
      {problems.map((key) => (
        <li key={key}>
          <InfoCircleOutlined /> {translateValidation(key, lang)}
        </li>
      ))}
    </ul>
  );
}
