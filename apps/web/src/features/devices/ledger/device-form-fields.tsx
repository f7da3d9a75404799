import {
  Col,
  Divider,
  Form,
  type FormInstance,
  type FormRule,
  Input,
  InputNumber,
  Row,
  Select,
  Switch,
} from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DescriptionInput } from '../../../lib/crud/index.ts';
import { DeviceTypeSelect } from '../device-type-select.tsx';
import { deviceCategoryOptions, useDeviceTypeTree } from '../device-type-tree.ts';
import { UnitSelect } from '../unit-select.tsx';
import { type DeviceFormInput, KM_FIELDS, typeCategory } from './device-form.ts';
import { iotTypeOptions, netTypeOptions, runStateOptions, selectOptions } from './ledger-options.ts';
import { upperCased } from './lock-code-form.ts';
import { ResponsibleDepartmentSelect, ResponsibleStaffSelect } from './responsibility-selects.tsx';

type Rule = (field: keyof DeviceFormInput & string) => FormRule;

/** A titled group of the dialog's fields. */
function Group({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <>
      <Divider titlePlacement="start" plain className="uiot-ledger__group" data-testid={testId}>
        {title}
      </Divider>
      <Row gutter={16}>{children}</Row>
    </>
  );
}

const half = { xs: 24, md: 12, lg: 8 } as const;

/** The type chooser: choosing a type also sets the category to the type's (spec §3, the server's default). */
function TypeField({
  form,
  placeholder,
  value,
  onChange,
}: {
  form: FormInstance;
  placeholder: string;
  value?: string | null;
  onChange?: (value: string | null) => void;
}) {
  const tree = useDeviceTypeTree();
  return (
    <DeviceTypeSelect
      value={value ?? null}
      placeholder={placeholder}
      onChange={(next) => {
        onChange?.(next);
        const category = typeCategory(tree.data ?? [], next);
        if (category) form.setFieldValue('category', category);
      }}
      testId="device-typeId"
    />
  );
}

/**
 * The fields of the device dialog (spec §3 Device, §5): name, operation unit and type required; the rest
 * grouped as identity, place, responsibility and other. Km, line, track and door only with `ShowKmInfo`.
 */
export function DeviceFormFields({
  form,
  rule,
  showKm,
}: {
  form: FormInstance;
  rule: Rule;
  showKm: boolean;
}) {
  const { t } = useTranslation('ledger');
  const text = (field: keyof DeviceFormInput & string, label: string, maxLength: number, extra?: string) => (
    <Col {...half} key={field}>
      <Form.Item name={field} label={label} rules={[rule(field)]} extra={extra}>
        <Input maxLength={maxLength} autoComplete="off" data-testid={`device-${field}`} />
      </Form.Item>
    </Col>
  );
  const toggle = (field: 'isDrawTool' | 'noState' | 'noWorking', label: string) => (
    <Col {...half} key={field}>
      <Form.Item name={field} label={label} valuePropName="checked" rules={[rule(field)]}>
        <Switch data-testid={`device-${field}`} />
      </Form.Item>
    </Col>
  );
  const choice = (
    field: 'category' | 'iotType' | 'netType' | 'status',
    label: string,
    options: { value: string; label: string }[],
    extra?: string,
  ) => (
    <Col {...half} key={field}>
      <Form.Item name={field} label={label} rules={[rule(field)]} extra={extra}>
        <Select
          options={options}
          allowClear={field !== 'status'}
          placeholder={t('form.notSet')}
          data-testid={`device-${field}`}
        />
      </Form.Item>
    </Col>
  );
  const upper = (field: 'devEUI' | 'appEUI', label: string) => (
    <Col {...half} key={field}>
      <Form.Item
        name={field}
        label={label}
        rules={[rule(field)]}
        normalize={upperCased}
        extra={t('hint.eui')}
      >
        <Input
          maxLength={16}
          autoComplete="off"
          className="uiot-ledger__code"
          data-testid={`device-${field}`}
        />
      </Form.Item>
    </Col>
  );

  return (
    <div className="uiot-ledger__form">
      <Group title={t('group.basic')} testId="device-group-basic">
        <Col {...half}>
          <Form.Item name="name" label={t('column.name')} rules={[rule('name')]} required>
            <Input maxLength={64} autoComplete="off" data-testid="device-name" />
          </Form.Item>
        </Col>
        <Col {...half}>
          <Form.Item name="unitId" label={t('column.unitName')} rules={[rule('unitId')]} required>
            <UnitSelect placeholder={t('form.chooseUnit')} testId="device-unitId" />
          </Form.Item>
        </Col>
        <Col {...half}>
          <Form.Item name="typeId" label={t('column.typeName')} rules={[rule('typeId')]} required>
            <TypeField form={form} placeholder={t('form.chooseType')} />
          </Form.Item>
        </Col>
        {choice(
          'category',
          t('column.category'),
          selectOptions(deviceCategoryOptions(t)),
          t('hint.category'),
        )}
        {choice('status', t('column.status'), selectOptions(runStateOptions(t)))}
      </Group>

      <Group title={t('group.identity')} testId="device-group-identity">
        {text('code', t('column.code'), 64)}
        {text('sbbh', t('column.sbbh'), 64)}
        {text('imei', t('column.imei'), 15, t('hint.imei'))}
        {text('imsi', t('column.imsi'), 15)}
        {choice('iotType', t('column.iotType'), selectOptions(iotTypeOptions(t)))}
        {choice('netType', t('column.netType'), selectOptions(netTypeOptions(t)))}
        {text('appKey', t('column.appKey'), 128)}
        {upper('devEUI', t('column.devEUI'))}
        {upper('appEUI', t('column.appEUI'))}
        {text('productId', t('column.productId'), 64)}
        {text('platName', t('column.platName'), 64)}
        {text('secondId', t('column.secondId'), 64)}
      </Group>

      <Group title={t('group.place')} testId="device-group-place">
        {text('lng', t('column.lng'), 13, t('hint.lng'))}
        {text('lat', t('column.lat'), 12, t('hint.lat'))}
        {text('addr', t('column.addr'), 255)}
        {text('adCode', t('column.adCode'), 12)}
        {text('bayId', t('column.bayId'), 64)}
        {text('graphId', t('column.graphId'), 64)}
        <Col {...half}>
          <Form.Item name="idxNo" label={t('column.idxNo')} rules={[rule('idxNo')]}>
            <InputNumber min={0} precision={0} style={{ width: '100%' }} data-testid="device-idxNo" />
          </Form.Item>
        </Col>
        {showKm && KM_FIELDS.map((field) => text(field, t(`column.${field}`), 64))}
      </Group>

      <Group title={t('group.responsibility')} testId="device-group-responsibility">
        <Col {...half}>
          <Form.Item name="deptId" label={t('column.deptName')} rules={[rule('deptId')]}>
            <ResponsibleDepartmentSelect placeholder={t('form.notSet')} testId="device-deptId" />
          </Form.Item>
        </Col>
        <Col {...half}>
          <Form.Item name="staffId" label={t('column.staffName')} rules={[rule('staffId')]}>
            <ResponsibleStaffSelect placeholder={t('form.notSet')} testId="device-staffId" />
          </Form.Item>
        </Col>
      </Group>

      <Group title={t('group.other')} testId="device-group-other">
        {text('voltage', t('column.voltage'), 32)}
        {toggle('isDrawTool', t('column.isDrawTool'))}
        {toggle('noState', t('column.noState'))}
        {toggle('noWorking', t('column.noWorking'))}
        {text('extra1', t('column.extra1'), 255)}
        {text('extra2', t('column.extra2'), 255)}
        <Col span={24}>
          <Form.Item name="desc" label={t('column.desc')} rules={[rule('desc')]}>
            <DescriptionInput testId="device-desc" />
          </Form.Item>
        </Col>
      </Group>
    </div>
  );
}
