import { ALARM_STATES, type AlarmState } from '@uiot/contracts';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { AlarmRecords } from './alarm-records.tsx';

const stateOf = (value: string | null): AlarmState | undefined =>
  (ALARM_STATES as readonly string[]).includes(value ?? '') ? (value as AlarmState) : undefined;

/**
 * Alarm records (spec §2 /data-statistics/warning-message): every device alarm, searched by warn time,
 * state, severity and device, exported for a time range of at most a year (spec §5). `?state=Warn` opens
 * the open alarms (the navbar's bell).
 */
export function AlarmRecordsPage() {
  const { t } = useTranslation('alarms');
  const [params] = useSearchParams();
  const state = stateOf(params.get('state'));
  // Another state in the address is another search: the form starts again from it.
  return (
    <AlarmRecords key={state ?? ''} id="alarmRecords" title={t('title')} initialState={state} exportable />
  );
}
