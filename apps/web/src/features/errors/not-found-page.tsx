import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/** `/404`: unknown paths land here (spec §2). */
export function NotFoundPage() {
  const { t } = useTranslation('errors');
  const navigate = useNavigate();
  return (
    <div className="uiot-center-page" data-testid="page-404">
      <Result
        status="404"
        title="404"
        subTitle={t('notFound')}
        extra={
          <Button type="primary" onClick={() => navigate('/', { replace: true })}>
            {t('common:action.backHome')}
          </Button>
        }
      />
    </div>
  );
}
