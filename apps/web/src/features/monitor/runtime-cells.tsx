import { CheckCircleOutlined, DisconnectOutlined, SyncOutlined } from '@ant-design/icons';
import { batteryBand, type OpenState, type RunState } from '@uiot/contracts';
import { Progress, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRealtimeStatus } from '../../lib/realtime/index.ts';
import { useBatteryBands } from './battery-bands.ts';
import {
  BATTERY_BAND_COLORS,
  OPEN_STATE_COLORS,
  onlineLabel,
  openStateLabel,
  RUN_STATE_COLORS,
  runStateLabel,
} from './runtime-format.ts';

/**
 * The cells of runtime data (table and detail header). Each carries its value in `data-state` (test ids
 * `<testId>`), so that a browser test reads the state, not a translated word.
 */

export function OnlineTag({ online, testId }: { online: boolean; testId?: string }) {
  const { t } = useTranslation('monitor');
  return (
    <Tag color={online ? 'success' : 'default'} data-testid={testId} data-state={String(online)}>
      {onlineLabel(t, online)}
    </Tag>
  );
}

export function OpenStateTag({ state, testId }: { state: OpenState; testId?: string }) {
  const { t } = useTranslation('monitor');
  return (
    <Tag color={OPEN_STATE_COLORS[state]} data-testid={testId} data-state={state}>
      {openStateLabel(t, state)}
    </Tag>
  );
}

export function RunStateTag({ state, testId }: { state: RunState; testId?: string }) {
  const { t } = useTranslation('monitor');
  return (
    <Tag color={RUN_STATE_COLORS[state]} data-testid={testId} data-state={state}>
      {runStateLabel(t, state)}
    </Tag>
  );
}

/** Battery power as a short bar coloured by its band (on the power levels' scale), with the percentage. */
export function BatteryLevel({ battery, testId }: { battery: number | null; testId?: string }) {
  const band = batteryBand(battery, useBatteryBands());
  if (battery === null || band === null) {
    return (
      <Typography.Text type="secondary" data-testid={testId}>
        -
      </Typography.Text>
    );
  }
  const percent = Math.max(0, Math.min(100, battery));
  return (
    <span className="uiot-monitor__battery" data-testid={testId} data-state={band}>
      <Progress
        percent={percent}
        showInfo={false}
        size={{ width: 48, height: 8 }}
        strokeColor={BATTERY_BAND_COLORS[band]}
        aria-label={`${Math.round(battery)}%`}
      />
      <span>{Math.round(battery)}%</span>
    </span>
  );
}

const LIVE_LOOK = {
  live: { color: 'success', icon: <CheckCircleOutlined /> },
  connecting: { color: 'processing', icon: <SyncOutlined spin /> },
  reconnecting: { color: 'warning', icon: <SyncOutlined spin /> },
  off: { color: 'default', icon: <DisconnectOutlined /> },
} as const;

/** Whether the page updates by itself now (spec §4 Realtime): live, connecting, reconnecting or not live. */
export function LiveTag() {
  const { t } = useTranslation('monitor');
  const status = useRealtimeStatus();
  const look = LIVE_LOOK[status];
  return (
    <Tooltip title={t(`live.hint.${status}`)}>
      <Tag color={look.color} icon={look.icon} data-testid="monitor-live" data-state={status}>
        {t(`live.${status}`)}
      </Tag>
    </Tooltip>
  );
}
