import { type LockTaskItemRow, type LockTaskRow, OPEN_REFUSAL_CODES, translateResult } from '@uiot/contracts';
import { Descriptions, Drawer, Table, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/i18n/date-format.ts';
import { useLang } from '../../lib/i18n/use-lang.ts';
import { useCan } from '../../lib/permission/permission.tsx';
import { REMOTE_ENDPOINTS, RemoteOperationButtons } from './remote-operation.tsx';

/** Labels keep their width whatever the values beside them (a long rejection reason wraps, not the label). */
const DETAIL_STYLES = {
  label: { width: 140, whiteSpace: 'nowrap' },
  content: { overflowWrap: 'anywhere' },
} as const;

/** One titled group of the details: a label and a value a line. */
function Section({
  title,
  spaced = false,
  children,
}: {
  title: string;
  spaced?: boolean;
  children: ReactNode;
}) {
  return (
    <Descriptions
      title={title}
      column={1}
      size="small"
      bordered
      styles={DETAIL_STYLES}
      {...(spaced ? { style: { marginTop: 24 } } : {})}
    >
      {children}
    </Descriptions>
  );
}
/**
 * A lock task in full: its team and departments, its operation items (the key of each, when it was sent to
 * the key and when it was done), its audit and how it finished. While the task executes, holders of the
 * remote-open key may open an item's lock from here (the server decides whether this task allows them).
 */
export function LockTaskDetail({
  task,
  open,
  onClose,
}: {
  task: LockTaskRow;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('tasks');
  const none = t('lockTask.detail.none');
  const time = (value: string | null) => (value ? formatDateTime(value) : none);
  const lang = useLang();
  // The reason belongs to the audit unless the task was ended early with it.
  const endedEarly = task.state === 'ForceEnd';
  const remoteOpen = useCan()(REMOTE_ENDPOINTS.open) && task.state === 'Execute';

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={t('lockTask.detail.title', { name: task.name })}
      size="large"
      destroyOnHidden
    >
      <div data-testid="lockTasks-detail">
        <Section title={t('lockTask.detail.basic')}>
          <Descriptions.Item label={t('lockTask.column.state')}>
            {t(`lockTask.state.${task.state}`)}
          </Descriptions.Item>
          <Descriptions.Item label={t('lockTask.column.timeRange')}>
            {t('lockTask.timeRange', {
              start: formatDateTime(task.startTime),
              end: formatDateTime(task.endTime),
            })}
          </Descriptions.Item>
          <Descriptions.Item label={t('lockTask.column.operators')}>
            {task.operators.map((operator) => operator.name).join(', ')}
          </Descriptions.Item>
          <Descriptions.Item label={t('lockTask.detail.operateDept')}>
            {task.operateDept?.name ?? none}
          </Descriptions.Item>
          <Descriptions.Item label={t('lockTask.detail.auditDept')}>
            {task.auditDept?.name ?? none}
          </Descriptions.Item>
          <Descriptions.Item label={t('lockTask.detail.auditor')}>
            {task.auditor?.name ?? none}
          </Descriptions.Item>
          <Descriptions.Item label={t('lockTask.detail.taskSource')}>
            {t(`lockTask.taskSource.${task.taskSource}`)}
          </Descriptions.Item>
          <Descriptions.Item label={t('lockTask.column.creatorName')}>{task.creatorName}</Descriptions.Item>
          <Descriptions.Item label={t('lockTask.column.createdAt')}>{time(task.createdAt)}</Descriptions.Item>
        </Section>

        <Section title={t('lockTask.detail.audit')} spaced>
          <Descriptions.Item label={t('lockTask.detail.authFlag')}>
            {task.authFlag ? t(`lockTask.authFlag.${task.authFlag}`) : none}
          </Descriptions.Item>
          <Descriptions.Item label={t('lockTask.detail.auditedBy')}>
            {task.auditedByName ?? none}
          </Descriptions.Item>
          <Descriptions.Item label={t('lockTask.detail.auditedAt')}>{time(task.auditedAt)}</Descriptions.Item>
          {!endedEarly && (
            <Descriptions.Item label={t('lockTask.detail.reason')}>{task.reason ?? none}</Descriptions.Item>
          )}
        </Section>

        <Section title={t('lockTask.detail.finish')} spaced>
          <Descriptions.Item label={t('lockTask.detail.finishFlag')}>
            {task.finishFlag ? t(`lockTask.finishFlag.${task.finishFlag}`) : none}
          </Descriptions.Item>
          <Descriptions.Item label={t('lockTask.detail.finishTime')}>
            {time(task.finishTime)}
          </Descriptions.Item>
          {endedEarly && (
            <Descriptions.Item label={t('lockTask.detail.reason')}>{task.reason ?? none}</Descriptions.Item>
          )}
        </Section>

        <h4 style={{ marginTop: 24 }}>{t('lockTask.detail.items')}</h4>
        {task.allDevice ? (
          <Tag color="purple">{t('lockTask.detail.allDevices')}</Tag>
        ) : (
          <Table<LockTaskItemRow>
            rowKey="id"
            size="small"
            pagination={false}
            dataSource={task.items}
            data-testid="lockTasks-detail-items"
            columns={[
              { key: 'device', title: t('lockTask.detail.device'), dataIndex: 'deviceName' },
              {
                key: 'key',
                title: t('lockTask.detail.key'),
                render: (_, item) => item.keyName ?? t('lockTask.detail.anyKey'),
              },
              {
                key: 'toKeyTime',
                title: t('lockTask.detail.toKeyTime'),
                // A download that left the item out says why (the opening decision's reason).
                render: (_, item) =>
                  item.downloadRefusal ? (
                    <Typography.Text type="danger" data-testid="lockTasks-detail-downloadRefusal">
                      {translateResult(OPEN_REFUSAL_CODES[item.downloadRefusal], lang)}
                    </Typography.Text>
                  ) : (
                    time(item.toKeyTime)
                  ),
              },
              {
                key: 'uploadTime',
                title: t('lockTask.detail.uploadTime'),
                render: (_, item) => time(item.uploadTime),
              },
              ...(remoteOpen
                ? [
                    {
                      key: 'operate',
                      title: t('lockTask.detail.operate'),
                      render: (_: unknown, item: LockTaskItemRow) => (
                        <RemoteOperationButtons
                          device={{ id: item.deviceId, name: item.deviceName }}
                          actions={['open']}
                          testId="lockTasks-detail"
                          size="small"
                          link
                        />
                      ),
                    },
                  ]
                : []),
            ]}
          />
        )}
      </div>
    </Drawer>
  );
}
