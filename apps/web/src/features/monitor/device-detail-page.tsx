import { ArrowLeftOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type RuntimeChange, type RuntimeRow } from '@uiot/contracts';
import { Button, Card, Descriptions, Divider, Empty, Result, Skeleton, Tabs, Typography } from 'antd';
import { type ReactNode, useCallback, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { formatDateTime } from '../../lib/i18n/date-format.ts';
import { useLang } from '../../lib/i18n/use-lang.ts';
import { Can, useCan } from '../../lib/permission/permission.tsx';
import {
  afterQuiet,
  PAGE_REFRESH_MAX_WAIT_MS,
  PAGE_REFRESH_QUIET_MS,
  useConsoleEvents,
} from '../../lib/realtime/index.ts';
import { endpointQuery } from '../../lib/request/index.ts';
import { EllipsisText } from '../../lib/ui/ellipsis-text.tsx';
import { useClock } from '../../lib/use-clock.ts';
import { OperationRecords, RemoteOperationButtons } from '../tasks/index.ts';
import { AlarmsTab } from './alarms-tab.tsx';
import { CollectionTab } from './collection-tab.tsx';
import { type DetailTab, visibleDetailTabs } from './detail-tabs.ts';
import { DeviceCommands } from './device-commands.tsx';
import { LockCodesTab } from './lock-codes-tab.tsx';
import { MessagesTab } from './messages-tab.tsx';
import { RUNTIME_PATH } from './monitor-paths.ts';
import { ParamForm } from './param-form.tsx';
import { PinsTab } from './pins-tab.tsx';
import { BatteryLevel, LiveTag, OnlineTag, OpenStateTag, RunStateTag } from './runtime-cells.tsx';
import { formatOfflineDuration } from './runtime-format.ts';
import { offlineSecondsAt } from './runtime-live.ts';
import { useLiveRuntime } from './use-live-runtime.ts';
import './monitor.css';

const TAB_CONTENT: Record<DetailTab, (runtime: RuntimeRow) => ReactNode> = {
  lockCodes: (runtime) => <LockCodesTab deviceId={runtime.deviceId} />,
  messages: (runtime) => <MessagesTab deviceId={runtime.deviceId} />,
  operations: (runtime) => <OperationsTab deviceId={runtime.deviceId} />,
  collection: (runtime) => <CollectionTab runtime={runtime} />,
  alarms: (runtime) => <AlarmsTab deviceId={runtime.deviceId} />,
  pins: (runtime) => <PinsTab device={{ id: runtime.deviceId, name: runtime.deviceName }} />,
  params: (runtime) => <ParamsTab runtime={runtime} />,
};

/**
 * Param config: the send-down form for holders of the send key who may operate the device (the server's
 * `abilities.operate`: the DevTypeOp grant of its type), the device's commands for readers.
 */
function ParamsTab({ runtime }: { runtime: RuntimeRow }) {
  const { t } = useTranslation('monitor');
  const { deviceId } = runtime;
  return (
    <>
      {runtime.abilities.operate && (
        <Can endpoint={api.deviceCommand.sendParam}>
          <ParamForm deviceId={deviceId} />
        </Can>
      )}
      <Can endpoint={api.deviceCommand.queryPage}>
        <Divider titlePlacement="start" className="uiot-monitor__divider">
          {t('param.commands')}
        </Divider>
        <DeviceCommands deviceId={deviceId} />
      </Can>
    </>
  );
}

/** The operation records of the device (spec §2 monitor details), live. Test ids `monitorOperations-*`. */
function OperationsTab({ deviceId }: { deviceId: string }) {
  const { t } = useTranslation('monitor');
  return <OperationRecords id="monitorOperations" title={t('detail.tab.operations')} deviceId={deviceId} />;
}

/** Back to the runtime monitor. */
function BackButton({ primary = false }: { primary?: boolean }) {
  const { t } = useTranslation('monitor');
  const navigate = useNavigate();
  return (
    <Button type={primary ? 'primary' : 'default'} onClick={() => navigate(RUNTIME_PATH)}>
      {t('detail.back')}
    </Button>
  );
}

/**
 * What a new report of the device changes beyond its runtime data: the extension properties (events
 * carry none) and the communication logs. Both are asked for again once the device's reports pause.
 */
function useReloadOnReport(deviceId: string): void {
  const client = useQueryClient();
  const reload = useMemo(
    () =>
      afterQuiet(PAGE_REFRESH_QUIET_MS, PAGE_REFRESH_MAX_WAIT_MS, () => {
        void client.invalidateQueries({ queryKey: [api.runtime.getByDeviceId.path, { deviceId }] });
        void client.invalidateQueries({ queryKey: [api.deviceHistory.queryPage.path] });
      }),
    [client, deviceId],
  );
  useEffect(() => () => reload.cancel(), [reload]);
  useConsoleEvents(
    'runtime',
    useCallback(
      (changes: RuntimeChange[]) => {
        if (changes.some((change) => change.deviceId === deviceId && change.messageId)) reload.request();
      },
      [deviceId, reload],
    ),
  );
}

/** The device's runtime data at the head of its details: name, live state, and the facts below. */
function DeviceHead({ runtime }: { runtime: RuntimeRow }) {
  const { t } = useTranslation('monitor');
  const lang = useLang();
  // Counts on while the page is open.
  const now = useClock();
  const offlineFor = formatOfflineDuration(offlineSecondsAt(runtime, now), lang);
  return (
    <Card variant="borderless" size="small" data-testid="monitorDetail-head">
      <div className="uiot-monitor__title">
        <Link
          to={RUNTIME_PATH}
          title={t('detail.back')}
          aria-label={t('detail.back')}
          data-testid="monitorDetail-back"
        >
          <ArrowLeftOutlined />
        </Link>
        <Typography.Title
          level={5}
          style={{ margin: 0 }}
          title={runtime.deviceName}
          data-testid="monitorDetail-name"
        >
          {runtime.deviceName}
        </Typography.Title>
        <OnlineTag online={runtime.online} testId="monitorDetail-online" />
        <LiveTag />
        {runtime.abilities.operate && (
          <span className="uiot-monitor__title-actions">
            <RemoteOperationButtons
              device={{ id: runtime.deviceId, name: runtime.deviceName }}
              testId="monitorDetail"
            />
          </span>
        )}
      </div>
      <Descriptions
        size="small"
        bordered
        column={{ xs: 1, sm: 2, lg: 3, xxl: 4 }}
        className="uiot-monitor__facts"
        style={{ marginTop: 12 }}
        items={[
          {
            key: 'deviceCode',
            label: t('runtime.column.deviceCode'),
            children: <EllipsisText text={runtime.deviceCode} code />,
          },
          {
            key: 'unitName',
            label: t('runtime.column.unitName'),
            children: <EllipsisText text={runtime.unitName} />,
          },
          {
            key: 'typeName',
            label: t('runtime.column.typeName'),
            children: <EllipsisText text={runtime.typeName} />,
          },
          {
            key: 'lockState',
            label: t('runtime.column.lockState'),
            children: <OpenStateTag state={runtime.lockState} testId="monitorDetail-lock" />,
          },
          {
            key: 'doorState',
            label: t('runtime.column.doorState'),
            children: <OpenStateTag state={runtime.doorState} testId="monitorDetail-door" />,
          },
          {
            key: 'battery',
            label: t('runtime.column.battery'),
            children: <BatteryLevel battery={runtime.battery} testId="monitorDetail-battery" />,
          },
          {
            key: 'runState',
            label: t('runtime.column.runState'),
            children: <RunStateTag state={runtime.runState} testId="monitorDetail-runState" />,
          },
          {
            key: 'rssi',
            label: t('runtime.column.rssi'),
            children: (
              <EllipsisText text={runtime.rssi === null ? null : t('rssi', { value: runtime.rssi })} />
            ),
          },
          {
            key: 'lastCollectTime',
            label: t('runtime.column.lastCollectTime'),
            children: (
              <EllipsisText text={runtime.lastCollectTime && formatDateTime(runtime.lastCollectTime)} />
            ),
          },
          ...(offlineFor
            ? [{ key: 'offlineFor', label: t('runtime.column.offlineSeconds'), children: offlineFor }]
            : []),
        ]}
      />
    </Card>
  );
}

function DeviceMonitor({ deviceId }: { deviceId: string }) {
  const { t } = useTranslation('monitor');
  const can = useCan();
  const runtime = useQuery(endpointQuery(api.runtime.getByDeviceId, { deviceId }, { noOverlay: true }));
  useReloadOnReport(deviceId);

  if (runtime.isPending) {
    return (
      <Card variant="borderless">
        <Skeleton active />
      </Card>
    );
  }
  if (runtime.isError) {
    return (
      <Card variant="borderless">
        <Result
          status="warning"
          title={t('detail.loadFailed')}
          extra={
            <Button onClick={() => void runtime.refetch()} data-testid="monitorDetail-retry">
              {t('detail.retry')}
            </Button>
          }
          data-testid="monitorDetail-error"
        />
      </Card>
    );
  }
  if (!runtime.data) {
    return (
      <Card variant="borderless">
        <Result
          status="404"
          title={t('detail.notFound')}
          extra={<BackButton />}
          data-testid="monitorDetail-notFound"
        />
      </Card>
    );
  }

  const tabs = visibleDetailTabs(can);
  const row = runtime.data;
  return (
    <div className="uiot-monitor" data-testid="monitorDetail-page">
      <DeviceHead runtime={row} />
      <Card variant="borderless" size="small">
        {tabs.length > 0 ? (
          <Tabs
            destroyOnHidden
            items={tabs.map((key) => ({
              key,
              label: <span data-testid={`monitorDetail-tab-${key}`}>{t(`detail.tab.${key}`)}</span>,
              children: TAB_CONTENT[key](row),
            }))}
          />
        ) : (
          <Empty description={t('detail.noTabs')} data-testid="monitorDetail-noTabs" />
        )}
      </Card>
    </div>
  );
}

/**
 * The monitor details of a device (spec §2 /monitor/runtime/detail, hidden; `?deviceId=`): its runtime data,
 * live, and the tabs whose records exist, each for holders of its key.
 */
export function DeviceDetailPage() {
  const { t } = useTranslation('monitor');
  const [params] = useSearchParams();
  const deviceId = params.get('deviceId') ?? '';
  useLiveRuntime();
  if (!deviceId) {
    return (
      <Card variant="borderless">
        <Result
          status="info"
          title={t('detail.noDevice')}
          extra={<BackButton primary />}
          data-testid="monitorDetail-noDevice"
        />
      </Card>
    );
  }
  // Another device is another page: its own queries, tabs and form.
  return <DeviceMonitor key={deviceId} deviceId={deviceId} />;
}
