import { PARAM_VAL_TYPES, type ParamValType, type paramForm } from '@uiot/contracts';
import { AutoComplete, Col, Form, type FormInstance, type FormRule, Input, Row, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { SchemaField } from '../../lib/crud/index.ts';
import { ParamValueItem } from './param-value-input.tsx';

type ParamFormInput = z.input<typeof paramForm>;

/** The fields of the parameter dialog; the value inputs follow the chosen type. */
export function ParamFormFields({
  form,
  rule,
  groups,
  builtIn,
}: {
  form: FormInstance;
  rule: (field: keyof ParamFormInput & string) => FormRule;
  groups: { value: string; label: string }[];
  /** A built-in parameter: whether it is public is fixed. */
  builtIn: boolean;
}) {
  const { t } = useTranslation('params');
  const valType = (Form.useWatch('valType', form) as ParamValType | undefined) ?? 'string';

  return (
    <Row gutter={16}>
      <Col xs={24} md={12}>
        <SchemaField name="name" extra={t('nameHint')} />
      </Col>
      <Col xs={24} md={12}>
        <SchemaField name="valType">
          <Select
            options={PARAM_VAL_TYPES.map((type) => ({ value: type, label: t(`valType.${type}`) }))}
            onChange={(type: ParamValType) => {
              // A switch shows anything but 'true' as off: store what it shows.
              if (type === 'boolean') {
                for (const field of ['val', 'defVal'] as const) {
                  if (form.getFieldValue(field) !== 'true') form.setFieldValue(field, 'false');
                }
              }
              void form.validateFields(['val', 'defVal']).catch(() => undefined);
            }}
            data-testid="param-valType"
          />
        </SchemaField>
      </Col>
      <Col xs={24} md={12}>
        <ParamValueItem name="val" label={t('column.val')} valType={valType} schemaRule={rule('val')} />
      </Col>
      <Col xs={24} md={12}>
        <ParamValueItem
          name="defVal"
          label={t('column.defVal')}
          valType={valType}
          schemaRule={rule('defVal')}
        />
      </Col>
      <Col xs={24} md={12}>
        <SchemaField name="group">
          <AutoComplete
            options={groups}
            maxLength={64}
            filterOption={(input, option) =>
              String(option?.value ?? '')
                .toLowerCase()
                .includes(input.toLowerCase())
            }
            data-testid="param-group"
          />
        </SchemaField>
      </Col>
      <Col xs={24} md={12}>
        <SchemaField name="cls">
          <Input maxLength={64} data-testid="param-cls" />
        </SchemaField>
      </Col>
      <Col span={24}>
        <SchemaField name="desc" />
      </Col>
      <Col span={24}>
        <Form.Item
          name="editable"
          label={t('column.editable')}
          valuePropName="checked"
          extra={t('editableHint')}
        >
          <Switch data-testid="param-editable" />
        </Form.Item>
      </Col>
      <Col span={24}>
        <Form.Item
          name="isPublic"
          label={t('column.isPublic')}
          valuePropName="checked"
          extra={builtIn ? t('publicFixed') : t('publicHint')}
        >
          <Switch disabled={builtIn} data-testid="param-isPublic" />
        </Form.Item>
      </Col>
    </Row>
  );
}
