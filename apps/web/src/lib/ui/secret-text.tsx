import { CheckOutlined, CopyOutlined } from '@ant-design/icons';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import './secret-text.css';

/**
 * A secret shown once (a one-time or a permanent password): large, in monospace, centred, with a copy
 * button. `large`: a short code read aloud or typed on a keypad (a PIN), larger still and spaced. Test ids
 * `<testId>-password` on the text and `<testId>-copy` on the button.
 */
export function SecretText({
  secret,
  testId,
  large = false,
}: {
  secret: string;
  testId: string;
  large?: boolean;
}) {
  const { t } = useTranslation('common');
  return (
    <div className="uiot-secret">
      <Typography.Text
        code
        copyable={{
          text: secret,
          tooltips: false,
          icon: [
            <span key="copy" className="uiot-secret__copy" data-testid={`${testId}-copy`}>
              <CopyOutlined /> {t('action.copy')}
            </span>,
            <span key="copied" className="uiot-secret__copy">
              <CheckOutlined /> {t('action.copied')}
            </span>,
          ],
        }}
        className={large ? 'uiot-secret__text uiot-secret__text--large' : 'uiot-secret__text'}
        data-testid={`${testId}-password`}
      >
        {secret}
      </Typography.Text>
    </div>
  );
}
