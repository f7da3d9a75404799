import { BellOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@uiot/contracts';
import { Badge, Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCan } from '../../lib/permission/permission.tsx';
import { endpointQuery } from '../../lib/request/index.ts';
import { alarmRecordsPath } from './alarm-paths.ts';
import { useLiveAlarms } from './alarm-queries.ts';

/** How often the open count is asked again while the console stays open. */
export const BELL_REFRESH_MS = 30_000;

function Bell() {
  const { t } = useTranslation('alarms');
  const navigate = useNavigate();
  useLiveAlarms(useQueryClient());
  const count = useQuery({
    ...endpointQuery(api.deviceAlarm.openCount, undefined, {
      silent: true,
      noOverlay: true,
      canCancel: false,
    }),
    refetchInterval: BELL_REFRESH_MS,
  });
  const open = count.data?.open ?? 0;
  const label = open > 0 ? t('bell.label', { count: open }) : t('bell.none');
  return (
    <Tooltip title={label} placement="bottom">
      <Badge count={open} size="small" offset={[-4, 4]} overflowCount={99} data-testid="alarm-bell-count">
        <Button
          type="text"
          icon={<BellOutlined />}
          onClick={() => navigate(alarmRecordsPath('Warn'))}
          aria-label={label}
          data-testid="alarm-bell"
          data-open={open}
        />
      </Badge>
    </Tooltip>
  );
}

/**
 * The navbar's alarm bell: how many alarms are open, for who may read alarms; refreshed every 30 s,
 * when an alarm changes (live, with what else shows alarms) and after staff act
 * on an alarm; a click opens the open alarms.
 */
export function AlarmBell() {
  const can = useCan();
  return can(api.deviceAlarm.openCount) ? <Bell /> : null;
}
