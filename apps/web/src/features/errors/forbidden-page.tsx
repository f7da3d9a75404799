import { Button, Result, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { LOGIN_PATH, NO_MENU_REASON, signOut, useSession } from '../../lib/auth/index.ts';

/** `/401`: no access to a page, or no operable menu at all. */
export function ForbiddenPage() {
  const { t } = useTranslation('errors');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { token } = useSession();
  const noMenu = params.get('reason') === NO_MENU_REASON;

  return (
    <div className="uiot-center-page" data-testid="page-401">
      <Result
        status="403"
        title="401"
        subTitle={noMenu ? t('noMenu') : t('forbidden')}
        extra={
          <Space>
            {!noMenu && (
              <Button type="primary" onClick={() => navigate('/', { replace: true })}>
                {t('common:action.backHome')}
              </Button>
            )}
            {token && (
              <Button onClick={() => signOut({ landing: LOGIN_PATH })} data-testid="page-401-sign-out">
                {t('common:action.signOut')}
              </Button>
            )}
          </Space>
        }
      />
    </div>
  );
}
