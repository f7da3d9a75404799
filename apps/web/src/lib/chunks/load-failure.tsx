import CloseCircleFilled from '@ant-design/icons-svg/es/asn/CloseCircleFilled';
import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { recordError } from '../error-log/error-log.ts';
import { Icon } from '../light/icon.tsx';
import { isChunkLoadError } from './load-chunk.ts';

function LoadFailed({ error }: { error: unknown }) {
  const { t } = useTranslation('shell');
  return (
    <div className="uiot-result" role="alert" data-testid="route-error">
      <Icon icon={CloseCircleFilled} className="uiot-result__icon uiot-result__icon--error" />
      <div className="uiot-result__title">
        {isChunkLoadError(error) ? t('routeError.newVersion') : t('routeError.title')}
      </div>
      <button
        type="button"
        className="uiot-button uiot-button--primary uiot-result__action"
        onClick={() => window.location.reload()}
      >
        {t('routeError.reload')}
      </button>
    </div>
  );
}

/**
 * Where code fetched on demand (the console, the registration form) could not be loaded even after the
 * reload `loadChunk` makes: says so and offers to reload, instead of leaving an empty page.
 */
export class LoadFailure extends Component<{ children: ReactNode }, { error: unknown }> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown): { error: unknown } {
    return { error };
  }

  override componentDidCatch(error: unknown): void {
    const text = error instanceof Error ? error.message : String(error);
    recordError({ source: 'script', title: text, text });
  }

  override render(): ReactNode {
    return this.state.error === null ? this.props.children : <LoadFailed error={this.state.error} />;
  }
}
