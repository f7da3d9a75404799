import { useQuery } from '@tanstack/react-query';
import { api, type DeviceAlarmRow } from '@uiot/contracts';
import { Card, Empty, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../lib/i18n/date-format.ts';
import { useLang } from '../../lib/i18n/use-lang.ts';
import { useCan } from '../../lib/permission/permission.tsx';
import { endpointQuery } from '../../lib/request/index.ts';
import { EllipsisText } from '../../lib/ui/ellipsis-text.tsx';
import { alarmRecordsPath } from './alarm-paths.ts';
import { AlarmSeverityTag, AlarmStateTag } from './alarm-tags.tsx';
import { shownAlarmTexts } from './alarm-texts.ts';

/** How many of today's alarms Home lists; the records page has them all. */
const TODAY_SHOWN = 8;

function TodayAlarms() {
  const { t } = useTranslation('alarms');
  const lang = useLang();
  const today = useQuery(endpointQuery(api.home.getTodayWarn, { limit: TODAY_SHOWN }));
  const total = today.data?.total ?? 0;
  return (
    <Card
      title={t('today.title')}
      variant="borderless"
      className="uiot-home__alarms"
      data-testid="home-today-alarms"
      extra={
        <Typography.Text type="secondary">
          <span data-testid="home-today-alarms-total" data-total={total}>
            {t('today.total', { count: total })}
          </span>
          {' · '}
          <Link to={alarmRecordsPath()}>{t('today.all')}</Link>
        </Typography.Text>
      }
    >
      <Table<DeviceAlarmRow>
        rowKey="id"
        dataSource={today.data?.rows ?? []}
        loading={today.isPending}
        pagination={false}
        size="medium"
        scroll={{ x: 720 }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('today.empty')} /> }}
        columns={[
          {
            title: t('column.warnTime'),
            dataIndex: 'warnTime',
            width: 180,
            render: (value: string) => formatDateTime(value),
          },
          {
            title: t('column.deviceName'),
            dataIndex: 'deviceName',
            width: 160,
            render: (value: string) => <EllipsisText text={value} />,
          },
          {
            title: t('column.content'),
            dataIndex: 'content',
            render: (_: string, row) => <EllipsisText text={shownAlarmTexts(row, lang).content} />,
          },
          {
            title: t('column.severity'),
            dataIndex: 'severity',
            width: 100,
            render: (value: DeviceAlarmRow['severity']) => <AlarmSeverityTag severity={value} />,
          },
          {
            title: t('column.state'),
            dataIndex: 'state',
            width: 100,
            render: (value: DeviceAlarmRow['state']) => <AlarmStateTag state={value} />,
          },
        ]}
      />
    </Card>
  );
}

/** Home's today's alarms (spec §2, §7 `/fp/getTodayWarn`), for who may read alarms. */
export function TodayAlarmsCard() {
  const can = useCan();
  return can(api.home.getTodayWarn) ? <TodayAlarms /> : null;
}
