import { Form, type FormItemProps, type FormRule, Input, InputNumber, Switch } from 'antd';
import { createContext, type ReactNode, useContext, useMemo } from 'react';
import type { z } from 'zod';
import { DescriptionInput } from '../crud/description-input.tsx';
import { describeField, type FieldDescription } from './schema-field-kind.ts';
import { useSchemaRule } from './schema-rules.ts';

/**
 * Form fields bound to the contracts' zod schema of an endpoint's body: `<SchemaField name="name" />` takes
 * its label from the form's label convention (e.g. `role.column.<name>`), its rule from the schema (the
 * server's messages, translated) and, unless children are given, its input from the field's type: text
 * (with the schema's length limit), number (with its bounds) or yes / no. The required mark shows when the
 * schema takes no empty value.
 */

interface SchemaFormContext {
  schema: z.ZodType;
  rule: (field: string) => FormRule;
  /** The translated label of a field. */
  label?: (field: string) => string;
  /** Test ids of the generated inputs: `<testId>-<field>`. */
  testId?: string;
}

/** Texts longer than this are edited in a multi-line field. */
const LONG_TEXT = 128;

const Context = createContext<SchemaFormContext | null>(null);

/** Binds the `SchemaField`s inside to a schema, its labels and test ids (the CRUD dialog does it itself). */
export function SchemaForm({
  schema,
  label,
  testId,
  children,
}: Omit<SchemaFormContext, 'rule'> & { children: ReactNode }) {
  const rule = useSchemaRule(schema) as (field: string) => FormRule;
  const value = useMemo(() => ({ schema, rule, label, testId }), [schema, rule, label, testId]);
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

export type SchemaFieldProps = Omit<FormItemProps, 'name' | 'rules' | 'label' | 'children'> & {
  name: string;
  /** Another label than the convention's (e.g. `parentId` reads "parent"). */
  label?: ReactNode;
  /** Extra rules run before the schema's. */
  rules?: FormRule[];
  /** The input when the field's type does not say enough (selects, trees, custom inputs). */
  children?: ReactNode;
};

export function SchemaField({ name, label, rules = [], children, required, ...item }: SchemaFieldProps) {
  const form = useContext(Context);
  if (!form) throw new Error('SchemaField is used outside a SchemaForm');
  const field = describeField(form.schema, name);
  const testId = form.testId ? `${form.testId}-${name}` : undefined;
  return (
    <Form.Item
      name={name}
      label={label ?? form.label?.(name)}
      rules={[...rules, form.rule(name)]}
      required={required ?? field.required}
      {...(field.kind === 'boolean' && !children && { valuePropName: 'checked' })}
      {...item}
    >
      {children ?? defaultInput(field, testId)}
    </Form.Item>
  );
}

function defaultInput(field: FieldDescription, testId: string | undefined): ReactNode {
  switch (field.kind) {
    case 'number':
      return (
        <InputNumber
          min={field.min}
          max={field.max}
          precision={field.integer ? 0 : undefined}
          style={{ width: '100%' }}
          data-testid={testId}
        />
      );
    case 'boolean':
      return <Switch data-testid={testId} />;
    default:
      // Long texts (descriptions, notes) get the multi-line field.
      return (field.maxLength ?? 0) > LONG_TEXT ? (
        <DescriptionInput maxLength={field.maxLength} testId={testId ?? ''} />
      ) : (
        <Input maxLength={field.maxLength} autoComplete="off" data-testid={testId} />
      );
  }
}
