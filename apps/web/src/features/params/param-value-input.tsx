import { type ParamValType, paramValueProblem, translateValidation } from '@uiot/contracts';
import { Form, type FormRule, Input, InputNumber, Switch } from 'antd';
import type { ReactNode } from 'react';
import { useLang } from '../../lib/i18n/use-lang.ts';

const MAX_VALUE_LENGTH = 10_000;

/**
 * A parameter value field whose control follows the type (switch, number, JSON text, text); the value stays
 * the text the API stores ('true', '42', '{"a":1}'). The type check is the contracts' `paramValueProblem`.
 */
export function ParamValueItem({
  name,
  label,
  valType,
  schemaRule,
  extra,
}: {
  name: 'val' | 'defVal';
  label: string;
  valType: ParamValType;
  schemaRule: FormRule;
  extra?: ReactNode;
}) {
  const lang = useLang();
  const typeRule: FormRule = {
    validator: async (_, value: string | null | undefined) => {
      const problem = paramValueProblem(valType, value);
      if (problem) throw new Error(translateValidation(problem, lang));
    },
  };
  const common = {
    name,
    label,
    extra,
    validateFirst: true,
    rules: [typeRule, schemaRule],
  };
  switch (valType) {
    case 'boolean':
      return (
        <Form.Item
          {...common}
          getValueProps={(value: unknown) => ({ checked: value === 'true' })}
          getValueFromEvent={(checked: boolean) => String(checked)}
        >
          <Switch data-testid={`param-${name}`} />
        </Form.Item>
      );
    case 'number':
      return (
        <Form.Item {...common} getValueFromEvent={(value: string | null) => value ?? null}>
          <InputNumber<string> stringMode style={{ width: '100%' }} data-testid={`param-${name}`} />
        </Form.Item>
      );
    case 'json':
      return (
        <Form.Item {...common}>
          <Input.TextArea
            autoSize={{ minRows: 3, maxRows: 10 }}
            maxLength={MAX_VALUE_LENGTH}
            spellCheck={false}
            className="uiot-param__json"
            data-testid={`param-${name}`}
          />
        </Form.Item>
      );
    default:
      return (
        <Form.Item {...common}>
          <Input.TextArea
            autoSize={{ minRows: 1, maxRows: 6 }}
            maxLength={MAX_VALUE_LENGTH}
            data-testid={`param-${name}`}
          />
        </Form.Item>
      );
  }
}
