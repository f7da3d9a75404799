import { useQuery } from '@tanstack/react-query';
import { api, type RuntimeSummary } from '@uiot/contracts';
import { Card, Statistic, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { endpointQuery } from '../../lib/request/index.ts';
import { LiveTag } from './runtime-cells.tsx';

type Counter = keyof RuntimeSummary;

/** The counters, in reading order; those that call for attention are coloured when not zero. */
const COUNTERS: readonly { key: Counter; alert?: string }[] = [
  { key: 'total' },
  { key: 'online' },
  { key: 'offline', alert: '#8c8c8c' },
  { key: 'doorOpen', alert: '#fa8c16' },
  { key: 'lockOpen', alert: '#fa8c16' },
  { key: 'lowBattery', alert: '#f5222d' },
  { key: 'abnormal', alert: '#f5222d' },
];

/**
 * The head of the runtime monitor: its title with the live channel's state, and the counters over every
 * registered device (refreshed by `useLiveRuntime` while changes arrive). Test ids `monitor-summary-<key>`.
 */
export function RuntimeSummaryCard({ title }: { title: string }) {
  const { t } = useTranslation('monitor');
  const summary = useQuery(endpointQuery(api.runtime.summary, undefined, { noOverlay: true, silent: true }));
  const counters = summary.data;
  return (
    <Card variant="borderless" size="small" className="uiot-monitor__head" data-testid="monitor-summary">
      <div className="uiot-monitor__title">
        <Typography.Title level={5} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        <LiveTag />
      </div>
      <div className="uiot-monitor__counters">
        {COUNTERS.map(({ key, alert }) => {
          const value = counters?.[key];
          return (
            <Statistic
              key={key}
              className="uiot-monitor__counter"
              title={t(`runtime.summary.${key}`)}
              value={value ?? '-'}
              loading={summary.isPending}
              styles={{ content: alert && value ? { color: alert } : undefined }}
              data-testid={`monitor-summary-${key}`}
              data-value={value ?? ''}
            />
          );
        })}
      </div>
    </Card>
  );
}
