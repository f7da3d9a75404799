import { ClockCircleOutlined, LoginOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { api, type HomeOverview } from '@uiot/contracts';
import {
  Alert,
  Avatar,
  Card,
  Col,
  Empty,
  Row,
  Skeleton,
  Space,
  Statistic,
  Table,
  Tag,
  Typography,
} from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser, useFeatureFlags } from '../../lib/auth/index.ts';
import { formatDateTime } from '../../lib/i18n/date-format.ts';
import { useOperationTitle } from '../../lib/operation/operation-title.ts';
import { useCan } from '../../lib/permission/permission.tsx';
import { endpointQuery } from '../../lib/request/index.ts';
import { EllipsisText } from '../../lib/ui/ellipsis-text.tsx';
import { TodayAlarmsCard } from '../alarms/index.ts';
import { HomeTaskCards } from '../tasks/index.ts';
import { homeLayout } from './home-layout.ts';
import './home-page.css';

type Operation = HomeOverview['recentOperations'][number];

// Loaded only by the layout that shows it: the first page stays as light as before.
const DeviceCounters = lazy(() =>
  import('./device-counters.tsx').then((module) => ({ default: module.DeviceCounters })),
);

/**
 * Home (pinned tab), laid out by the parameter HomePageType (spec §6): the user, the previous sign-in and
 * the user's recent operations, today's alarms and the lock task cards for who may read them; with `device`,
 * the counters of the registered devices first, with `task` the lock task cards first. An empty or
 * unknown value is shown as the spec's error (§8 "HomePageType parameter misconfigured or empty").
 */
export function HomePage() {
  const { t } = useTranslation('home');
  const user = useCurrentUser();
  const layout = homeLayout(useFeatureFlags(), useCan());
  const overview = useQuery(endpointQuery(api.home.getHomeOverview));
  const operationTitle = useOperationTitle();
  const data = overview.data;

  return (
    <div className="uiot-home" data-testid="home-page" data-layout={layout.type ?? ''}>
      {layout.type === null && (
        <Alert type="error" showIcon title={t('layoutMisconfigured')} data-testid="home-layout-error" />
      )}
      {layout.tasksFirst && <HomeTaskCards />}
      {layout.deviceCounters && (
        <Suspense fallback={<Skeleton active paragraph={{ rows: 1 }} />}>
          <DeviceCounters />
        </Suspense>
      )}
      <Card className="uiot-home__welcome" variant="borderless">
        <Space size={16} align="center">
          <Avatar size={56} src={user?.avatar || undefined} className="uiot-home__avatar">
            {user?.name.slice(0, 1).toUpperCase()}
          </Avatar>
          <div className="uiot-home__who">
            <Typography.Title level={4} className="uiot-home__greeting" ellipsis={{ tooltip: user?.name }}>
              {t('welcome', { name: user?.name ?? '' })}
            </Typography.Title>
            <Space size={[4, 4]} wrap>
              {user?.deptName && <Typography.Text type="secondary">{user.deptName}</Typography.Text>}
              {user?.roles.map((role) => (
                <Tag key={role} color="blue" variant="filled">
                  {role}
                </Tag>
              ))}
            </Space>
          </div>
        </Space>
      </Card>

      <Row gutter={[16, 16]}>
        <Col xs={24} md={12}>
          <Card variant="borderless" className="uiot-home__stat">
            <Skeleton loading={overview.isPending} active paragraph={{ rows: 1 }}>
              <Statistic
                title={t('lastLogin')}
                prefix={<ClockCircleOutlined />}
                value={data?.lastLogin ? formatDateTime(data.lastLogin.loginTime) : t('firstLogin')}
                styles={{ content: { fontSize: data?.lastLogin ? 20 : 16 } }}
              />
              {data?.lastLogin && (
                <Typography.Text type="secondary" data-testid="home-last-login-address">
                  {t('lastLoginAddress', { address: data.lastLogin.ipAddr || t('unknownAddress') })}
                </Typography.Text>
              )}
            </Skeleton>
          </Card>
        </Col>
        <Col xs={24} md={12}>
          <Card variant="borderless" className="uiot-home__stat">
            <Skeleton loading={overview.isPending} active paragraph={{ rows: 1 }}>
              <Statistic
                title={t('loginCount30d')}
                prefix={<LoginOutlined />}
                value={data?.loginCount30d ?? 0}
                styles={{ content: { fontSize: 20 } }}
              />
            </Skeleton>
          </Card>
        </Col>
      </Row>

      <TodayAlarmsCard />
      {!layout.tasksFirst && <HomeTaskCards />}

      <Card title={t('recentOperations')} variant="borderless" className="uiot-home__operations">
        <Table<Operation>
          rowKey={(row) => `${row.operateTime}|${row.url}|${row.methodDesc}`}
          dataSource={data?.recentOperations ?? []}
          loading={overview.isPending}
          pagination={false}
          size="medium"
          scroll={{ x: 640 }}
          locale={{
            emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('noOperations')} />,
          }}
          columns={[
            {
              title: t('columns.time'),
              dataIndex: 'operateTime',
              width: 190,
              render: (value: string) => formatDateTime(value),
            },
            {
              title: t('columns.operation'),
              key: 'operation',
              render: (_: unknown, row: Operation) => <EllipsisText text={operationTitle(row)} />,
            },
            {
              title: t('columns.address'),
              dataIndex: 'url',
              render: (value: string) => <EllipsisText text={value} code />,
            },
          ]}
        />
      </Card>
    </div>
  );
}
