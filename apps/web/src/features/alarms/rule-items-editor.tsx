import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  CONDITION_TYPES,
  CONDITIONS_OF_VALUE_TYPE,
  type DevicePropertyRow,
  MAX_RULE_ITEMS,
  type RuleItemForm,
  ruleItemForm,
  translateValidation,
} from '@uiot/contracts';
import { Button, Form, type FormRule, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { fieldIssue, translateIssue } from '../../lib/form/schema-rules.ts';
import { useLang } from '../../lib/i18n/use-lang.ts';
import { conditionOptions, propertyName } from './alarm-options.ts';
import './alarms.css';

type ItemField = keyof RuleItemForm & string;
type ListName = 'items' | 'clearItems';

/** The key of a catalogue property in the select: a code may exist once per origin. */
const propertyKey = (origin: string, code: string) => `${origin}:${code}`;

/**
 * The conditions of a rule (spec §3 Rule item) as an editable list of the form (`items` or `clearItems`),
 * so that field errors with paths like `items.1.propVal`, from the schema or the server, land on the row's
 * input. Each row chooses a property of the device type's catalogue (filling its code, name, origin and value
 * type), a condition its value type allows, and a value.
 */
export function RuleItemsEditor({
  list,
  properties,
  loading = false,
  testId,
}: {
  list: ListName;
  /** The chosen device type's catalogue; empty while no type is chosen. */
  properties: readonly DevicePropertyRow[];
  loading?: boolean;
  testId: string;
}) {
  const { t } = useTranslation('alarms');
  const lang = useLang();
  // The list's own problems (none, too many): those of a row's field are shown on the field.
  const listRule = {
    validator: async (_: unknown, value: unknown[] | undefined) => {
      const count = value?.length ?? 0;
      if ((list === 'items' && count === 0) || count > MAX_RULE_ITEMS) {
        throw new Error(translateValidation('v.ruleItems', lang));
      }
    },
  };
  return (
    <Form.List name={list} rules={[listRule]}>
      {(fields, { add, remove }, { errors }) => (
        <div className="uiot-rule-items" data-testid={testId}>
          {fields.map((field) => (
            <RuleItemRow
              key={field.key}
              list={list}
              index={field.name}
              properties={properties}
              loading={loading}
              onRemove={() => remove(field.name)}
              testId={`${testId}-${field.name}`}
            />
          ))}
          <Form.ErrorList errors={errors} />
          <Button
            type="dashed"
            icon={<PlusOutlined />}
            onClick={() => add({ conditionType: 'Eq' })}
            disabled={fields.length >= MAX_RULE_ITEMS}
            data-testid={`${testId}-add`}
          >
            {fields.length >= MAX_RULE_ITEMS ? t('item.max', { max: MAX_RULE_ITEMS }) : t('item.add')}
          </Button>
        </div>
      )}
    </Form.List>
  );
}

function RuleItemRow({
  list,
  index,
  properties,
  loading,
  onRemove,
  testId,
}: {
  list: ListName;
  index: number;
  properties: readonly DevicePropertyRow[];
  loading: boolean;
  onRemove: () => void;
  testId: string;
}) {
  const { t } = useTranslation(['alarms', 'monitor']);
  const lang = useLang();
  const form = Form.useFormInstance();
  const item = (Form.useWatch([list, index], form) ?? {}) as Partial<RuleItemForm>;
  const path = (field: ItemField) => [list, index, field];
  const property = properties.find((p) => p.code === item.propCode && p.origin === item.propOrigin);
  const allowed = item.valType ? CONDITIONS_OF_VALUE_TYPE[item.valType] : CONDITION_TYPES;

  // The row's own schema decides each of its fields: the same messages as the server's.
  const rule =
    (field: ItemField): FormRule =>
    (f) => ({
      validator: async () => {
        const issue = fieldIssue(ruleItemForm, f.getFieldValue([list, index]) ?? {}, field);
        if (issue) throw new Error(translateIssue(issue, lang));
      },
    });

  const propertyOptions = properties.map((p) => ({
    value: propertyKey(p.origin, p.code),
    label: `${propertyName(t, p)} (${t(`alarms:origin.${p.origin}`)})`,
  }));
  // A stored item whose property left the catalogue still shows its name.
  if (item.propCode && item.propOrigin && !property) {
    propertyOptions.push({
      value: propertyKey(item.propOrigin, item.propCode),
      label: item.propName ?? item.propCode,
    });
  }

  const choose = (key: string) => {
    const chosen = properties.find((p) => propertyKey(p.origin, p.code) === key);
    if (!chosen) return;
    const conditions = CONDITIONS_OF_VALUE_TYPE[chosen.valueType];
    form.setFieldValue([list, index], {
      propCode: chosen.code,
      propName: propertyName(t, chosen),
      propOrigin: chosen.origin,
      valType: chosen.valueType,
      conditionType:
        item.conditionType && conditions.includes(item.conditionType) ? item.conditionType : conditions[0],
      propVal: undefined,
    });
  };

  const valueInput = () => {
    if (property?.values?.length) {
      return (
        <Select
          options={property.values.map((value) => ({
            value,
            label: property.valuesKey ? t(`${property.valuesKey}.${value}`, { defaultValue: value }) : value,
          }))}
          data-testid={`${testId}-propVal`}
        />
      );
    }
    if (item.valType === 'boolean') {
      return (
        <Select
          options={[
            { value: 'true', label: t('alarms:value.true') },
            { value: 'false', label: t('alarms:value.false') },
          ]}
          data-testid={`${testId}-propVal`}
        />
      );
    }
    return (
      <Input
        maxLength={255}
        autoComplete="off"
        inputMode={item.valType === 'number' ? 'decimal' : undefined}
        suffix={property?.unit ?? undefined}
        placeholder={t('alarms:item.value')}
        data-testid={`${testId}-propVal`}
      />
    );
  };

  return (
    <div className="uiot-rule-items__row" data-testid={testId}>
      <Form.Item
        name={[index, 'propCode']}
        rules={[rule('propCode')]}
        className="uiot-rule-items__property"
        getValueProps={(code: string | undefined) => ({
          value: code && item.propOrigin ? propertyKey(item.propOrigin, code) : undefined,
        })}
        normalize={(key: string | undefined) =>
          properties.find((p) => propertyKey(p.origin, p.code) === key)?.code ?? item.propCode
        }
      >
        <Select
          showSearch={{ optionFilterProp: 'label' }}
          options={propertyOptions}
          loading={loading}
          placeholder={t('alarms:item.property')}
          notFoundContent={t('alarms:item.noProperties')}
          onChange={choose}
          data-testid={`${testId}-property`}
        />
      </Form.Item>
      {(['propName', 'propOrigin', 'valType'] as const).map((field) => (
        <Form.Item key={field} name={[index, field]} rules={[rule(field)]} hidden>
          <Input />
        </Form.Item>
      ))}
      <Form.Item
        name={[index, 'conditionType']}
        rules={[rule('conditionType')]}
        dependencies={[path('valType')]}
        className="uiot-rule-items__condition"
      >
        <Select
          options={conditionOptions(t, allowed)}
          placeholder={t('alarms:item.condition')}
          data-testid={`${testId}-condition`}
        />
      </Form.Item>
      <Form.Item
        name={[index, 'propVal']}
        rules={[rule('propVal')]}
        dependencies={[path('valType')]}
        className="uiot-rule-items__value"
      >
        {valueInput()}
      </Form.Item>
      <Button
        type="text"
        danger
        icon={<DeleteOutlined />}
        onClick={onRemove}
        aria-label={t('alarms:item.remove')}
        title={t('alarms:item.remove')}
        data-testid={`${testId}-remove`}
      />
    </div>
  );
}
