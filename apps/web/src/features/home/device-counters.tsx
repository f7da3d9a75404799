import { useTranslation } from 'react-i18next';
import { RuntimeSummaryCard, useLiveRuntime } from '../monitor/index.ts';

/** The runtime monitor's counters on the home page (HomePageType `device`), kept live as on the monitor. */
export function DeviceCounters() {
  const { t } = useTranslation('home');
  useLiveRuntime();
  return <RuntimeSummaryCard title={t('deviceOverview')} />;
}
