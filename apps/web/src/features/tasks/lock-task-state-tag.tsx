import type { LockTaskState } from '@uiot/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const STATE_COLORS: Record<LockTaskState, string> = {
  New: 'default',
  Audit: 'orange',
  None: 'blue',
  Execute: 'green',
  Update: 'gold',
  Finish: 'cyan',
  Cancel: 'default',
  ForceEnd: 'red',
};

/** A lock task's state as a coloured tag (`data-testid` names the state for browser tests). */
export function LockTaskStateTag({ state }: { state: LockTaskState }) {
  const { t } = useTranslation('tasks');
  return (
    <Tag color={STATE_COLORS[state]} data-testid={`lockTasks-state-${state}`}>
      {t(`lockTask.state.${state}`)}
    </Tag>
  );
}
