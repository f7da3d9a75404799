import { useTranslation } from 'react-i18next';
import { AlarmRecords } from '../alarms/index.ts';

/** The historical alarms of a device (spec §2 monitor details): its alarm records. Test ids `monitorAlarms-*`. */
export function AlarmsTab({ deviceId }: { deviceId: string }) {
  const { t } = useTranslation('monitor');
  return <AlarmRecords id="monitorAlarms" title={t('detail.tab.alarms')} deviceId={deviceId} />;
}
