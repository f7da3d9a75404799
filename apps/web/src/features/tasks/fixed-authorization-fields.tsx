import { AUTHORIZATION_OBJECTS, type AuthorizationObject, type FixedAuthorizationRow } from '@uiot/contracts';
import { Col, Form, type FormInstance, Radio, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { SchemaField } from '../../lib/crud/index.ts';
import { DevicesSelect } from '../devices/devices-select.tsx';
import { DepartmentSelect } from '../org/department-select.tsx';
import { StaffSelect } from '../org/staff-select.tsx';
import { TaskTimeField } from './task-time-field.tsx';

const TEST_ID = 'fixedAuthorization';

/**
 * The fields of the fixed authorisation dialog (spec §3 Fixed authorization): a staff member or a
 * department; forever, or from a start to a later end; all devices or the devices chosen.
 */
export function FixedAuthorizationFields({
  row,
  form,
}: {
  row: FixedAuthorizationRow | null;
  form: FormInstance;
}) {
  const { t } = useTranslation('tasks');
  const objectType = (Form.useWatch('objectType', form) as AuthorizationObject | undefined) ?? 'staff';
  const forever = Form.useWatch('forever', form) === true;
  const allDevice = Form.useWatch('allDevice', form) === true;
  // The stored staff member, named as stored: one disabled since is not among those offered.
  const knownStaff = row?.objectType === 'staff' ? { value: row.objectId, label: row.objectName } : undefined;

  return (
    <Row gutter={16}>
      <Col xs={24} md={12}>
        <SchemaField name="objectType">
          <Radio.Group
            // An id of the other kind means nothing there: the object is chosen again.
            onChange={() => form.setFieldValue('objectId', null)}
            data-testid={`${TEST_ID}-objectType`}
          >
            {AUTHORIZATION_OBJECTS.map((type) => (
              <Radio key={type} value={type} data-testid={`${TEST_ID}-objectType-${type}`}>
                {t(`fixedAuthorization.objectType.${type}`)}
              </Radio>
            ))}
          </Radio.Group>
        </SchemaField>
      </Col>
      <Col xs={24} md={12}>
        <SchemaField name="objectId" label={t(`fixedAuthorization.objectType.${objectType}`)}>
          {objectType === 'department' ? (
            <DepartmentSelect
              placeholder={t('fixedAuthorization.chooseDepartment')}
              testId={`${TEST_ID}-objectId`}
            />
          ) : (
            <StaffSelect
              placeholder={t('fixedAuthorization.chooseStaff')}
              known={knownStaff}
              testId={`${TEST_ID}-objectId`}
            />
          )}
        </SchemaField>
      </Col>
      <Col span={24}>
        <SchemaField name="forever" extra={t('fixedAuthorization.foreverHint')} />
      </Col>
      {!forever && (
        <>
          <Col xs={24} md={12}>
            <TaskTimeField name="startTime" testId={TEST_ID} />
          </Col>
          <Col xs={24} md={12}>
            <TaskTimeField name="endTime" testId={TEST_ID} />
          </Col>
        </>
      )}
      <Col span={24}>
        <SchemaField name="allDevice" extra={t('fixedAuthorization.allDeviceHint')} />
      </Col>
      {!allDevice && (
        <Col span={24}>
          <SchemaField name="deviceIds" required>
            <DevicesSelect
              known={row?.devices}
              placeholder={t('fixedAuthorization.chooseDevices')}
              testId={`${TEST_ID}-deviceIds`}
            />
          </SchemaField>
        </Col>
      )}
    </Row>
  );
}
