import type { LockTaskRow, TaskItemForm } from '@uiot/contracts';
import { Col, Form, type FormInstance, Row } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeatureFlags } from '../../lib/auth/index.ts';
import { SchemaField } from '../../lib/crud/index.ts';
import { DevicesSelect } from '../devices/devices-select.tsx';
import { DepartmentSelect } from '../org/department-select.tsx';
import { StaffSelect } from '../org/staff-select.tsx';
import { TaskItemKeys } from './task-item-keys.tsx';
import { TaskTimeField } from './task-time-field.tsx';

const TEST_ID = 'lockTask';

/** The device ids of the operation items, each once (the select shows devices). */
function itemDeviceIds(value: unknown): { value: string[] } {
  const items = Array.isArray(value) ? (value as TaskItemForm[]) : [];
  return { value: [...new Set(items.map((item) => item.deviceId))] };
}

/**
 * The operation items of the devices chosen: an item kept keeps its key (a stored task's), a device added
 * is an item for any key.
 */
function itemsOfDevices(ids: string[], previous: unknown): TaskItemForm[] {
  const before = Array.isArray(previous) ? (previous as TaskItemForm[]) : [];
  return ids.flatMap((deviceId) => {
    const kept = before.filter((item) => item.deviceId === deviceId);
    return kept.length > 0 ? kept : [{ deviceId, keyId: null }];
  });
}

/**
 * The fields of the lock task dialog (spec §3 Lock task): name, time range, operator team and its
 * department, the audit department and (optionally) the auditor, all devices or the devices chosen.
 */
export function LockTaskFields({ row, form }: { row: LockTaskRow | null; form: FormInstance }) {
  const { t } = useTranslation('tasks');
  const allDevice = Form.useWatch('allDevice', form) === true;
  // Choosing by a drawn area waits for the device map; until then the switch says so where devices are chosen.
  const drawUnit = useFeatureFlags().TaskUseDrawUnit === 'true';
  // The names of the chosen devices, for their key choosers.
  const [deviceNames, setDeviceNames] = useState<ReadonlyMap<string, string>>(
    () => new Map(row?.items.map((item) => [item.deviceId, item.deviceName]) ?? []),
  );
  const named = (items: readonly { id: string; name: string }[]) =>
    items.map((item) => ({ value: item.id, label: item.name }));

  return (
    <Row gutter={16}>
      <Col span={24}>
        <SchemaField name="name" />
      </Col>
      <Col xs={24} md={12}>
        <TaskTimeField name="startTime" testId={TEST_ID} />
      </Col>
      <Col xs={24} md={12}>
        <TaskTimeField name="endTime" testId={TEST_ID} />
      </Col>
      <Col xs={24} md={12}>
        <SchemaField name="operatorIds" required>
          <StaffSelect
            multiple
            known={named(row?.operators ?? [])}
            placeholder={t('lockTask.chooseOperators')}
            testId={`${TEST_ID}-operatorIds`}
          />
        </SchemaField>
      </Col>
      <Col xs={24} md={12}>
        <SchemaField name="operateDeptId">
          <DepartmentSelect
            placeholder={t('lockTask.chooseDepartment')}
            testId={`${TEST_ID}-operateDeptId`}
          />
        </SchemaField>
      </Col>
      <Col xs={24} md={12}>
        <SchemaField name="auditDeptId" extra={t('lockTask.auditHint')}>
          <DepartmentSelect placeholder={t('lockTask.chooseDepartment')} testId={`${TEST_ID}-auditDeptId`} />
        </SchemaField>
      </Col>
      <Col xs={24} md={12}>
        <SchemaField name="auditorId">
          <StaffSelect
            {...(row?.auditor ? { known: { value: row.auditor.id, label: row.auditor.name } } : {})}
            placeholder={t('lockTask.chooseAuditor')}
            testId={`${TEST_ID}-auditorId`}
          />
        </SchemaField>
      </Col>
      <Col span={24}>
        <SchemaField name="allDevice" extra={t('lockTask.allDeviceHint')} />
      </Col>
      {!allDevice && (
        <Col span={24}>
          <SchemaField
            name="items"
            required
            getValueProps={itemDeviceIds}
            normalize={itemsOfDevices}
            {...(drawUnit ? { extra: t('lockTask.drawUnitPending') } : {})}
          >
            <DevicesSelect
              known={row?.items.map((item) => ({ id: item.deviceId, name: item.deviceName }))}
              placeholder={t('lockTask.chooseDevices')}
              testId={`${TEST_ID}-items`}
              onNames={(names) => setDeviceNames(new Map([...deviceNames, ...names]))}
            />
          </SchemaField>
          <TaskItemKeys
            row={row}
            form={form}
            deviceName={(id) => deviceNames.get(id) ?? id}
            testId={`${TEST_ID}-itemKeys`}
          />
        </Col>
      )}
    </Row>
  );
}
