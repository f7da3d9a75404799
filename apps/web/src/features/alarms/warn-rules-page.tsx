import { api, type WarnRuleRow, warnRuleForm } from '@uiot/contracts';
import { Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type CrudColumn, CrudPage, crudResource, type SearchField } from '../../lib/crud/index.ts';
import { hide, type Shown, show } from '../../lib/dialog/shown.ts';
import { deviceTypeOptions, useDeviceTypeTree } from '../devices/device-type-tree.ts';
import { SEVERITY_COLORS } from './alarm-options.ts';
import { DevicePropertiesDialog } from './device-properties-dialog.tsx';
import { WarnRuleFields } from './warn-rule-fields.tsx';

const NOTICES = ['smsNotice', 'msgNotice', 'emailNotice'] as const;

/**
 * Alarm rules (spec §2 /sys/warn-rule, §3 Warn rule, Rule item; docs/alarms.md): per device type, the
 * conditions on its properties that raise an alarm, at once or after a delay, with its text, severity, clear
 * condition, reminders, notices and recipients. The property catalogue of each type is edited from here.
 */
export function WarnRulesPage() {
  const { t } = useTranslation('alarms');
  const types = useDeviceTypeTree();
  const [catalogue, setCatalogue] = useState<Shown<string | null> | null>(null);

  const noticeLabels = (row: WarnRuleRow) =>
    NOTICES.filter((notice) => row[notice]).map((notice) => t(`warnRule.notice.${notice}`));

  const columns: CrudColumn<WarnRuleRow>[] = [
    { key: 'name', title: t('warnRule.column.name'), width: 200, fixed: 'left' },
    { key: 'deviceTypeName', title: t('warnRule.column.deviceTypeId'), width: 150 },
    {
      key: 'ruleType',
      title: t('warnRule.column.ruleType'),
      width: 120,
      value: (row) =>
        row.ruleType === 'Delay'
          ? t('warnRule.delayOf', { seconds: row.delayInterval ?? 0 })
          : t('ruleType.Instant'),
    },
    {
      key: 'logicType',
      title: t('warnRule.column.logicType'),
      width: 140,
      value: (row) => t(`logicType.${row.logicType}`),
    },
    {
      key: 'severity',
      title: t('warnRule.column.severity'),
      width: 100,
      value: (row) => t(`severity.${row.severity}`),
      render: (row) => <Tag color={SEVERITY_COLORS[row.severity]}>{t(`severity.${row.severity}`)}</Tag>,
    },
    {
      key: 'notices',
      title: t('warnRule.column.notices'),
      width: 150,
      value: (row) => noticeLabels(row).join(', '),
      render: (row) => (
        <Space size={4} wrap={false}>
          {noticeLabels(row).map((label) => (
            <Tag key={label}>{label}</Tag>
          ))}
        </Space>
      ),
    },
    { key: 'enabled', title: t('warnRule.column.enabled'), width: 80, format: 'boolean', align: 'center' },
    { key: 'formatMsg', title: t('warnRule.column.formatMsg'), width: 220, defaultHidden: true },
    { key: 'desc', title: t('warnRule.column.desc'), width: 180, defaultHidden: true },
    { key: 'updatedAt', title: t('warnRule.column.updatedAt'), width: 165, format: 'dateTime' },
  ];

  const search: SearchField[] = [
    { kind: 'text', name: 'name', label: t('warnRule.column.name'), maxLength: 64 },
    {
      kind: 'treeSelect',
      name: 'deviceTypeId',
      label: t('warnRule.column.deviceTypeId'),
      treeData: deviceTypeOptions(types.data ?? []),
    },
  ];

  return (
    <>
      <CrudPage<WarnRuleRow, typeof warnRuleForm>
        id="warnRules"
        title={t('warnRule.title')}
        rowKey="id"
        query={api.warnRule.queryPage}
        columns={columns}
        search={search}
        actionsWidth={180}
        resource={crudResource({
          save: api.warnRule.save,
          update: api.warnRule.update,
          del: api.warnRule.del,
        })}
        form={{
          schema: warnRuleForm,
          label: (field) => t(`warnRule.column.${field}`),
          testId: 'warnRule',
          title: { create: t('warnRule.dialog.create'), edit: t('warnRule.dialog.edit') },
          // Wide enough for a condition's property, comparison and value on one line.
          width: 880,
          defaults: {
            ruleType: 'Instant',
            logicType: 'AND',
            severity: 'major',
            clearMode: 'inverse',
            clearLogicType: 'AND',
            resend: false,
            smsNotice: false,
            msgNotice: false,
            emailNotice: false,
            enabled: true,
            items: [{ conditionType: 'Eq' } as never],
            clearItems: [],
            recipients: [],
          },
          toForm: (row) => ({
            deviceTypeId: row.deviceTypeId,
            name: row.name,
            formatMsg: row.formatMsg,
            ruleType: row.ruleType,
            logicType: row.logicType,
            delayInterval: row.delayInterval,
            resend: row.resend,
            resendInterval: row.resendInterval,
            smsNotice: row.smsNotice,
            msgNotice: row.msgNotice,
            emailNotice: row.emailNotice,
            severity: row.severity,
            clearMode: row.clearMode,
            clearLogicType: row.clearLogicType,
            enabled: row.enabled,
            items: row.items,
            clearItems: row.clearItems,
            recipients: row.recipients.map(({ kind, id }) => ({ kind, id })),
            desc: row.desc,
          }),
          fields: ({ row, form }) => <WarnRuleFields row={row} form={form} />,
        }}
        remove={{ name: (row) => row.name }}
        toolbar={[
          {
            key: 'properties',
            label: t('property.action'),
            endpoint: api.deviceProperty.queryByType,
            run: () => setCatalogue(show(null)),
          },
        ]}
        rowActions={[
          {
            key: 'properties',
            label: t('property.action'),
            endpoint: api.deviceProperty.queryByType,
            run: (row) => setCatalogue(show(row.deviceTypeId)),
          },
        ]}
      />
      {catalogue && (
        <DevicePropertiesDialog
          key={catalogue.opening}
          open={catalogue.open}
          initialType={catalogue.value}
          onClose={() => setCatalogue(hide)}
        />
      )}
    </>
  );
}
