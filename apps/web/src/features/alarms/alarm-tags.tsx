import type { AlarmSeverity, AlarmState } from '@uiot/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { SEVERITY_COLOURS, STATE_COLOURS } from './alarm-state.ts';

/** An alarm's state as a coloured tag; `data-state` carries the state itself for browser tests. */
export function AlarmStateTag({ state }: { state: AlarmState }) {
  const { t } = useTranslation('alarms');
  return (
    <Tag color={STATE_COLOURS[state]} data-testid="alarm-state" data-state={state}>
      {t(`state.${state}`)}
    </Tag>
  );
}

export function AlarmSeverityTag({ severity }: { severity: AlarmSeverity }) {
  const { t } = useTranslation('alarms');
  return (
    <Tag
      color={SEVERITY_COLOURS[severity]}
      variant="outlined"
      data-testid="alarm-severity"
      data-severity={severity}
    >
      {t(`severity.${severity}`)}
    </Tag>
  );
}
