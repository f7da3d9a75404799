import {
  Col,
  type ColProps,
  Form,
  type FormInstance,
  type FormItemProps,
  type FormRule,
  Input,
  Select,
  Switch,
} from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { SelectOption, TreeNodeSelectProps } from '../../../lib/crud/index.ts';
import { ConsoleDatePicker } from '../../../lib/form/console-date-picker.ts';
import { pickedTime, pickerValue } from '../../../lib/form/date-time-value.ts';
import { DATE_TIME_FORMAT } from '../../../lib/i18n/date-format.ts';
import { StaffSelect } from '../../org/staff-select.tsx';
import { DeviceTypeSelect } from '../device-type-select.tsx';
import { deviceCategoryOptions, useDeviceTypeTree } from '../device-type-tree.ts';
import { UnitSelect } from '../unit-select.tsx';
import { typeCategory } from './device-form.ts';
import { iotTypeOptions, selectOptions } from './ledger-options.ts';
import { upperCased } from './lock-code-form.ts';
import { ResponsibleDepartmentSelect } from './responsibility-selects.tsx';

/**
 * The fields of the ledger's dialogs (the device, batch add, attachment, lock code), each in its column with
 * the test id `<testId>-<field>`; among them the operation unit, device type, category, IoT type and
 * responsibility that a device, a batch and an attached device share.
 */
interface FieldProps<F extends string> {
  rule: (field: F) => FormRule;
  /** The form's test id prefix, e.g. `device` → `device-typeId`. */
  testId: string;
  /** The field's column; default half the dialog from the md breakpoint. */
  col?: ColProps;
}

interface NamedFieldProps<F extends string> extends FieldProps<F> {
  name: F;
  label: string;
  extra?: string;
}

const HALF: ColProps = { xs: 24, md: 12 };

/** A field's column and form item, checked by the shared schema's rule for the field. */
function Item<F extends string>({
  name,
  label,
  extra,
  rule,
  col = HALF,
  children,
  ...item
}: Omit<NamedFieldProps<F>, 'testId'> &
  Pick<FormItemProps, 'required' | 'normalize' | 'dependencies' | 'getValueProps' | 'valuePropName'> & {
    children: ReactNode;
  }) {
  return (
    <Col {...col}>
      <Form.Item {...item} name={name as string} label={label} rules={[rule(name)]} extra={extra}>
        {children}
      </Form.Item>
    </Col>
  );
}

/** One line of text; `code` ones (RFID, Bluetooth address, EUI) are typed upper-cased, in monospace. */
export function TextField<F extends string>({
  maxLength,
  required = false,
  code = false,
  numeric = false,
  testId,
  disabled = false,
  ...field
}: NamedFieldProps<F> & {
  maxLength: number;
  required?: boolean;
  code?: boolean;
  numeric?: boolean;
  disabled?: boolean;
}) {
  return (
    <Item {...field} required={required} normalize={code ? upperCased : undefined}>
      <Input
        maxLength={maxLength}
        disabled={disabled}
        inputMode={numeric ? 'numeric' : undefined}
        autoComplete="off"
        className={code ? 'uiot-ledger__code' : undefined}
        data-testid={`${testId}-${field.name}`}
      />
    </Item>
  );
}

/** A date and time, kept in the form as ISO text (what the shared schema reads); blank is none. */
export function TimeField<F extends string>({
  testId,
  ...field
}: NamedFieldProps<F> & { dependencies?: string[] }) {
  return (
    <Item
      {...field}
      getValueProps={(value: unknown) => ({ value: pickerValue(value) })}
      normalize={pickedTime}
    >
      <ConsoleDatePicker
        showTime
        format={DATE_TIME_FORMAT}
        style={{ width: '100%' }}
        data-testid={`${testId}-${field.name}`}
      />
    </Item>
  );
}

/** A yes / no switch. */
export function ToggleField<F extends string>({ testId, ...field }: NamedFieldProps<F>) {
  return (
    <Item {...field} valuePropName="checked">
      <Switch data-testid={`${testId}-${field.name}`} />
    </Item>
  );
}

/** A choice of the ledger's values (all text); blank is "not set" unless not `clearable`. */
export function ChoiceField<F extends string>({
  options,
  clearable = true,
  testId,
  ...field
}: NamedFieldProps<F> & { options: readonly SelectOption[]; clearable?: boolean }) {
  const { t } = useTranslation('ledger');
  return (
    <Item {...field}>
      <Select
        options={selectOptions(options)}
        allowClear={clearable}
        placeholder={t('form.notSet')}
        data-testid={`${testId}-${field.name}`}
      />
    </Item>
  );
}

/** A type chooser that also sets the category to the chosen type's (spec §3, the server's default). */
function CategoryFillingTypeSelect({
  form,
  value,
  onChange,
  ...props
}: TreeNodeSelectProps & { form: FormInstance }) {
  const tree = useDeviceTypeTree();
  return (
    <DeviceTypeSelect
      {...props}
      value={value ?? null}
      onChange={(next) => {
        onChange?.(next);
        const category = typeCategory(tree.data ?? [], next);
        if (category) form.setFieldValue('category', category);
      }}
    />
  );
}

/** The device type (required); with `form`, choosing a type also sets the category to the type's. */
export function TypeField({ testId, form, ...field }: FieldProps<'typeId'> & { form?: FormInstance }) {
  const { t } = useTranslation('ledger');
  const select = { placeholder: t('form.chooseType'), testId: `${testId}-typeId` };
  return (
    <Item {...field} name="typeId" label={t('column.typeName')} required>
      {form ? <CategoryFillingTypeSelect {...select} form={form} /> : <DeviceTypeSelect {...select} />}
    </Item>
  );
}

/** The device category (electronic lock, lock controller, IoT lock); blank takes the type's. */
export function CategoryField(props: FieldProps<'category'>) {
  const { t } = useTranslation('ledger');
  return (
    <ChoiceField
      {...props}
      name="category"
      label={t('column.category')}
      options={deviceCategoryOptions(t)}
      extra={t('hint.category')}
    />
  );
}

/** The IoT platform a lock reports through. */
export function IotTypeField(props: FieldProps<'iotType'>) {
  const { t } = useTranslation('ledger');
  return <ChoiceField {...props} name="iotType" label={t('column.iotType')} options={iotTypeOptions(t)} />;
}

/** The operation unit the device is in (required). */
export function UnitField({ testId, ...field }: FieldProps<'unitId'>) {
  const { t } = useTranslation('ledger');
  return (
    <Item {...field} name="unitId" label={t('column.unitName')} required>
      <UnitSelect placeholder={t('form.chooseUnit')} testId={`${testId}-unitId`} />
    </Item>
  );
}

/** Who answers for the device (spec §3 deptId, staffId): a department and a staff member, both optional. */
export function ResponsibilityFields({ testId, ...field }: FieldProps<'deptId' | 'staffId'>) {
  const { t } = useTranslation('ledger');
  return (
    <>
      <Item {...field} name="deptId" label={t('column.deptName')}>
        <ResponsibleDepartmentSelect placeholder={t('form.notSet')} testId={`${testId}-deptId`} />
      </Item>
      <Item {...field} name="staffId" label={t('column.staffName')}>
        <StaffSelect placeholder={t('form.notSet')} testId={`${testId}-staffId`} />
      </Item>
    </>
  );
}
