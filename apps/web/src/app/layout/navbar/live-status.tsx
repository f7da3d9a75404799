import { DisconnectOutlined, SyncOutlined, WifiOutlined } from '@ant-design/icons';
import { Tooltip, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRealtimeStatus } from '../../../lib/realtime/index.ts';
import './live-status.css';

/** Whether the console receives live data: shown while signed in, nothing while the channel is off. */
export function LiveStatus() {
  const { t } = useTranslation('realtime');
  const { token } = theme.useToken();
  const status = useRealtimeStatus();
  if (status === 'off') return null;

  const view = {
    live: { label: t('status.live'), icon: <WifiOutlined />, color: token.colorSuccess },
    connecting: {
      label: t('status.connecting'),
      icon: <SyncOutlined spin />,
      color: token.colorTextSecondary,
    },
    reconnecting: {
      label: t('status.reconnecting'),
      icon: <DisconnectOutlined />,
      color: token.colorWarning,
    },
  }[status];
  return (
    <Tooltip title={view.label} placement="bottom">
      <span
        className="uiot-live-status"
        role="status"
        aria-label={view.label}
        style={{ color: view.color }}
        data-testid="live-status"
        data-status={status}
      >
        {view.icon}
      </span>
    </Tooltip>
  );
}
