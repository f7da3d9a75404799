import { useTranslation } from 'react-i18next';
import { PinList } from '../pins/index.ts';

/**
 * The dynamic passwords of a device (spec §2 monitor details): its PINs, and PINs and erase codes generated
 * for it. Test ids `monitorPins-*`.
 */
export function PinsTab({ device }: { device: { id: string; name: string } }) {
  const { t } = useTranslation('monitor');
  return <PinList id="monitorPins" title={t('detail.tab.pins')} device={device} />;
}
