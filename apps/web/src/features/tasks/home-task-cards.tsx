import { useQuery } from '@tanstack/react-query';
import {
  api,
  flattenMenus,
  type LockTaskRow,
  type LockTaskScope,
  MENU_CATALOGUE,
  type OperationRecordRow,
} from '@uiot/contracts';
import { Card, Empty, Table, Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../lib/i18n/date-format.ts';
import { useCan } from '../../lib/permission/permission.tsx';
import { endpointQuery } from '../../lib/request/index.ts';
import { EllipsisText } from '../../lib/ui/ellipsis-text.tsx';
import { LockTaskStateTag } from './lock-task-state-tag.tsx';
import { NamesCell } from './names-cell.tsx';
import { DeviceCell, ResultCell } from './operation-records.tsx';

/** How many rows each Home card lists; the pages have them all. */
const SHOWN = 6;

const pathOf = (name: string) => flattenMenus(MENU_CATALOGUE).find((menu) => menu.name === name)?.path ?? '/';

/** The card's count and the link to the page with all of them. */
function CardExtra({ total, text, to, testId }: { total: number; text: string; to: string; testId: string }) {
  const { t } = useTranslation('home');
  return (
    <Typography.Text type="secondary">
      <span data-testid={testId} data-total={total}>
        {text}
      </span>
      {' · '}
      <Link to={to}>{t('tasks.all')}</Link>
    </Typography.Text>
  );
}

const empty = (description: string) => ({
  emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={description} />,
});

function TodayOperations() {
  const { t } = useTranslation(['home', 'tasks']);
  const today = useQuery(endpointQuery(api.home.getTodayDeviceOp, { limit: SHOWN }));
  const total = today.data?.total ?? 0;
  return (
    <Card
      title={t('home:tasks.todayOperations')}
      variant="borderless"
      data-testid="home-today-operations"
      extra={
        <CardExtra
          total={total}
          text={t('home:tasks.operationCount', { count: total })}
          to={pathOf('OperationRecords')}
          testId="home-today-operations-total"
        />
      }
    >
      <Table<OperationRecordRow>
        rowKey="id"
        dataSource={today.data?.rows ?? []}
        loading={today.isPending}
        pagination={false}
        size="medium"
        scroll={{ x: 720 }}
        locale={empty(t('home:tasks.noOperations'))}
        columns={[
          {
            title: t('tasks:operation.column.operateTime'),
            dataIndex: 'operateTime',
            width: 180,
            render: (value: string) => formatDateTime(value),
          },
          {
            title: t('tasks:operation.column.deviceName'),
            key: 'device',
            width: 200,
            render: (_: unknown, row) => <DeviceCell row={row} />,
          },
          {
            title: t('tasks:operation.column.action'),
            dataIndex: 'action',
            width: 90,
            render: (value: OperationRecordRow['action']) => t(`tasks:operation.action.${value}`),
          },
          {
            title: t('tasks:operation.column.staffName'),
            dataIndex: 'staffName',
            width: 140,
            render: (value: string | null) => <EllipsisText text={value ?? '-'} />,
          },
          {
            title: t('tasks:operation.column.result'),
            key: 'result',
            render: (_: unknown, row) => <ResultCell row={row} />,
          },
        ]}
      />
    </Card>
  );
}

/** The columns of a list of tasks on Home: name, time, state, operators. */
function useTaskColumns() {
  const { t } = useTranslation(['home', 'tasks']);
  return [
    {
      title: t('tasks:lockTask.column.name'),
      dataIndex: 'name',
      render: (value: string) => <EllipsisText text={value} />,
    },
    {
      title: t('tasks:lockTask.column.timeRange'),
      key: 'time',
      width: 330,
      render: (_: unknown, row: LockTaskRow) =>
        `${formatDateTime(row.startTime)} ~ ${formatDateTime(row.endTime)}`,
    },
    {
      title: t('tasks:lockTask.column.state'),
      dataIndex: 'state',
      width: 150,
      render: (value: LockTaskRow['state']) => <LockTaskStateTag state={value} />,
    },
    {
      title: t('tasks:lockTask.column.operators'),
      key: 'operators',
      width: 180,
      render: (_: unknown, row: LockTaskRow) => (
        <NamesCell
          items={row.operators}
          more={(count) => t('tasks:lockTask.moreOperators', { count })}
          testId="home-task-operators"
        />
      ),
    },
  ];
}

function TodayTasks() {
  const { t } = useTranslation('home');
  const today = useQuery(endpointQuery(api.home.getTodayTask, { limit: SHOWN }));
  const total = today.data?.total ?? 0;
  const columns = useTaskColumns();
  return (
    <Card
      title={t('tasks.todayTasks')}
      variant="borderless"
      data-testid="home-today-tasks"
      extra={
        <CardExtra
          total={total}
          text={t('tasks.taskCount', { count: total })}
          to={pathOf('LockTask')}
          testId="home-today-tasks-total"
        />
      }
    >
      <Table<LockTaskRow>
        rowKey="id"
        dataSource={today.data?.rows ?? []}
        loading={today.isPending}
        pagination={false}
        size="medium"
        scroll={{ x: 800 }}
        locale={empty(t('tasks.noTasks'))}
        columns={columns}
      />
    </Card>
  );
}

/** "My tasks": my to-do (waiting for my audit), what I am to carry out, what I created, what I audited. */
const MY_SCOPES: readonly Exclude<LockTaskScope, 'all'>[] = ['toAudit', 'assigned', 'mine', 'audited'];

function ScopeList({ scope }: { scope: LockTaskScope }) {
  const { t } = useTranslation('home');
  const page = useQuery(
    endpointQuery(api.lockTask.queryPage, { pageIndex: 1, pageSize: SHOWN, scope }, { noOverlay: true }),
  );
  const columns = useTaskColumns();
  return (
    <Table<LockTaskRow>
      rowKey="id"
      dataSource={page.data?.rows ?? []}
      loading={page.isPending}
      pagination={false}
      size="small"
      scroll={{ x: 800 }}
      locale={empty(t(`tasks.empty.${scope}`))}
      columns={columns}
      data-testid={`home-my-tasks-${scope}`}
    />
  );
}

function MyTasks() {
  const { t } = useTranslation('home');
  return (
    <Card title={t('tasks.myTasks')} variant="borderless" data-testid="home-my-tasks">
      <Tabs
        destroyOnHidden
        items={MY_SCOPES.map((scope) => ({
          key: scope,
          label: t(`tasks.scope.${scope}`),
          children: <ScopeList scope={scope} />,
        }))}
      />
    </Card>
  );
}

/**
 * Home's lock task cards (spec §2 Home, §7 `/fp/getTodayDeviceOp`, `/fp/getTodayTask`): today's device
 * operations, today's tasks and my tasks, each for who may read them.
 */
export function HomeTaskCards() {
  const can = useCan();
  return (
    <>
      {can(api.home.getTodayTask) && <MyTasks />}
      {can(api.home.getTodayTask) && <TodayTasks />}
      {can(api.home.getTodayDeviceOp) && <TodayOperations />}
    </>
  );
}
