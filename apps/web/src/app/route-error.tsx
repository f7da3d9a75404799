import { Button, Result, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { isChunkLoadError } from '../lib/chunks/load-chunk.ts';
import { recordError } from '../lib/error-log/error-log.ts';

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  if (error instanceof Error) return error.message;
  return String(error);
}

/** A page that failed to load or to render. */
export function RouteError() {
  const { t } = useTranslation('shell');
  const error = useRouteError();
  const text = describe(error);
  const chunk = isChunkLoadError(error);

  useEffect(() => {
    recordError({ source: 'script', title: t('routeError.title'), text });
  }, [t, text]);

  return (
    <div className="uiot-center-page" data-testid="route-error">
      <Result
        status="error"
        title={chunk ? t('routeError.newVersion') : t('routeError.title')}
        subTitle={<Typography.Text type="secondary">{text}</Typography.Text>}
        extra={
          <Button type="primary" onClick={() => window.location.reload()}>
            {t('routeError.reload')}
          </Button>
        }
      />
    </div>
  );
}
