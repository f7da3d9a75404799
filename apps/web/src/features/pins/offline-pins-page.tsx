import { useTranslation } from 'react-i18next';
import { PinList } from './pin-list.tsx';

/** Offline PINs (spec §2 /task/offline-pins, §3 PIN): every lock's PINs, generated and disabled here. */
export function OfflinePinsPage() {
  const { t } = useTranslation('pins');
  return <PinList id="offlinePins" title={t('title')} />;
}
