import { Col, Divider, type FormInstance, type FormRule, InputNumber, Row } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SchemaField } from '../../../lib/crud/index.ts';
import { type DeviceFormInput, KM_FIELDS } from './device-form.ts';
import {
  CategoryField,
  ChoiceField,
  IotTypeField,
  ResponsibilityFields,
  TextField,
  ToggleField,
  TypeField,
  UnitField,
} from './ledger-fields.tsx';
import { netTypeOptions, runStateOptions } from './ledger-options.ts';

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
/** What the server keeps of a registered device (`registeredIdentityChanges`). */
const REGISTERED_IDENTITY = new Set(['code', 'imei', 'devEUI']);

/**
 * The fields of the device dialog (spec §3 Device, §5): name, operation unit and type required; the rest
 * grouped as identity, place, responsibility and other. The fields of a feature flag that is off (`hidden`,
 * see hiddenFields) are not offered: km, line, track and door without `ShowKmInfo`, the IoT fields without
 * `SupportIoT`, "no state" without `NoState`.
 */
export function DeviceFormFields({
  form,
  rule,
  hidden,
  registered = false,
}: {
  form: FormInstance;
  rule: Rule;
  hidden: ReadonlySet<string>;
  /** A registered device keeps what its lock is known by (code, IMEI, DevEUI) until it is unregistered. */
  registered?: boolean;
}) {
  const { t } = useTranslation('ledger');
  const fieldProps = { rule, testId: 'device', col: half };
  const offered = (name: keyof DeviceFormInput & string) => !hidden.has(name);
  const locked = (name: string) => registered && REGISTERED_IDENTITY.has(name);
  const text = (name: keyof DeviceFormInput & string, label: string, maxLength: number, extra?: string) =>
    offered(name) && (
      <TextField
        key={name}
        {...fieldProps}
        name={name}
        label={label}
        maxLength={maxLength}
        extra={locked(name) ? t('hint.registeredIdentity') : extra}
        disabled={locked(name)}
      />
    );
  const eui = (name: 'devEUI' | 'appEUI', label: string) =>
    offered(name) && (
      <TextField
        {...fieldProps}
        name={name}
        label={label}
        maxLength={16}
        extra={locked(name) ? t('hint.registeredIdentity') : t('hint.eui')}
        disabled={locked(name)}
        code
      />
    );

  return (
    <div className="uiot-ledger__form">
      <Group title={t('group.basic')} testId="device-group-basic">
        <TextField {...fieldProps} name="name" label={t('column.name')} maxLength={64} required />
        <UnitField {...fieldProps} />
        <TypeField {...fieldProps} form={form} />
        <CategoryField {...fieldProps} />
        <ChoiceField
          {...fieldProps}
          name="status"
          label={t('column.status')}
          options={runStateOptions(t)}
          clearable={false}
        />
      </Group>

      <Group title={t('group.identity')} testId="device-group-identity">
        {text('code', t('column.code'), 64)}
        {text('sbbh', t('column.sbbh'), 64)}
        {text('imei', t('column.imei'), 15, t('hint.imei'))}
        {text('imsi', t('column.imsi'), 15)}
        {offered('iotType') && <IotTypeField {...fieldProps} />}
        {offered('netType') && (
          <ChoiceField
            {...fieldProps}
            name="netType"
            label={t('column.netType')}
            options={netTypeOptions(t)}
          />
        )}
        {text('appKey', t('column.appKey'), 128)}
        {eui('devEUI', t('column.devEUI'))}
        {eui('appEUI', t('column.appEUI'))}
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
          <SchemaField name="idxNo">
            <InputNumber min={0} precision={0} style={{ width: '100%' }} data-testid="device-idxNo" />
          </SchemaField>
        </Col>
        {KM_FIELDS.map((field) => text(field, t(`column.${field}`), 64))}
      </Group>

      <Group title={t('group.responsibility')} testId="device-group-responsibility">
        <ResponsibilityFields {...fieldProps} />
      </Group>

      <Group title={t('group.other')} testId="device-group-other">
        {text('voltage', t('column.voltage'), 32)}
        <ToggleField {...fieldProps} name="isDrawTool" label={t('column.isDrawTool')} />
        {offered('noState') && <ToggleField {...fieldProps} name="noState" label={t('column.noState')} />}
        <ToggleField {...fieldProps} name="noWorking" label={t('column.noWorking')} />
        {text('extra1', t('column.extra1'), 255)}
        {text('extra2', t('column.extra2'), 255)}
        <Col span={24}>
          <SchemaField name="desc" />
        </Col>
      </Group>
    </div>
  );
}
