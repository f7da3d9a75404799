import { useTranslation } from 'react-i18next';
import { Spinner } from '../lib/light/spinner.tsx';

/** Shown while the session, the console or a route is being prepared. */
export function PageLoading() {
  const { t } = useTranslation('shell');
  return (
    <div className="uiot-center-page">
      {/* Shown before the texts have arrived too: then unnamed rather than named by its key. */}
      <Spinner label={t('overlay.loading', { defaultValue: '' })} />
    </div>
  );
}
