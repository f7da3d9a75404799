import ExclamationCircleFilled from '@ant-design/icons-svg/es/asn/ExclamationCircleFilled';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../lib/light/icon.tsx';
import { LightFeedback } from '../lib/light/light-feedback.tsx';
import { RuntimeConfigError } from '../lib/runtime-config/runtime-config.ts';
import { PageLoading } from './page-loading.tsx';
import { RequestOverlay } from './request-overlay.tsx';
import { SessionGate } from './session-gate.tsx';
import { startUp } from './start-up.ts';

type StartUpState = { status: 'loading' } | { status: 'ready' } | { status: 'failed'; error: unknown };

function StartUpFailure({ error }: { error: unknown }) {
  const { t } = useTranslation('common');
  const invalid = error instanceof RuntimeConfigError && error.reason === 'invalid';
  return (
    <div className="uiot-center-page">
      <div className="uiot-result" role="alert" data-testid="startup-error">
        <Icon icon={ExclamationCircleFilled} className="uiot-result__icon" />
        <div className="uiot-result__title">
          {invalid ? t('startup.configInvalid') : t('startup.configMissing')}
        </div>
      </div>
    </div>
  );
}

function Console() {
  const [state, setState] = useState<StartUpState>({ status: 'loading' });
  useEffect(() => {
    startUp().then(
      () => setState({ status: 'ready' }),
      (error: unknown) => {
        console.error(error);
        setState({ status: 'failed', error });
      },
    );
  }, []);

  if (state.status === 'loading') return <PageLoading />;
  if (state.status === 'failed') return <StartUpFailure error={state.error} />;
  return (
    <>
      <SessionGate />
      <RequestOverlay />
    </>
  );
}

export function App() {
  return (
    <>
      <Console />
      <LightFeedback />
    </>
  );
}
