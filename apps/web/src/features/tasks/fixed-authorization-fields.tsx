import { AUTHORIZATION_OBJECTS, type AuthorizationObject, type FixedAuthorizationRow } from '@uiot/contracts';
import { Col, DatePicker, Form, type FormInstance, Radio, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { SchemaField } from '../../lib/crud/index.ts';
import { pickedTime, pickerValue } from '../../lib/form/date-time-value.ts';
import { DATE_TIME_FORMAT } from '../../lib/i18n/date-format.ts';
import { DevicesSelect } from '../devices/devices-select.tsx';
import { DepartmentSelect } from '../org/department-select.tsx';
import { StaffSelect } from '../org/staff-select.tsx';

const TEST_ID = 'fixedAuthorization';

/**
 * One end of the time range, kept in the form as ISO text (what the shared schema reads) and chosen with a
 * date-time picker. Each end is checked again when the other changes ("choose a time range", "end after
 * start" are the range's messages).
 */
function TimeField({ name }: { name: 'startTime' | 'endTime' }) {
  return (
    <SchemaField
      name={name}
      required
      dependencies={[name === 'startTime' ? 'endTime' : 'startTime']}
      getValueProps={(value: unknown) => ({ value: pickerValue(value) })}
      normalize={pickedTime}
    >
      <DatePicker
        showTime
        format={DATE_TIME_FORMAT}
        style={{ width: '100%' }}
        data-testid={`${TEST_ID}-${name}`}
      />
    </SchemaField>
  );
}

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
            <TimeField name="startTime" />
          </Col>
          <Col xs={24} md={12}>
            <TimeField name="endTime" />
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
