import { Form, type FormItemProps, type FormRule, Input, InputNumber, Switch } from 'antd';
import { createContext, type ReactNode, useContext, useMemo } from 'react';
import type { z } from 'zod';
import { useSchemaRule } from './schema-rules.ts';

/**
 * Form fields bound to the contracts' zod schema of an endpoint's body: `<SchemaField name="name" />` takes
 * its label from the form's label convention (e.g. `role.column.<name>`), its rule from the schema (the
 * server's messages, translated) and, unless children are given, its input from the field's type: text
 * (with the schema's length limit), number (with its bounds) or yes / no. The required mark shows when the
 * schema takes no empty value.
 */

type ZodDef = { type: string; innerType?: ZodLike; in?: ZodLike; shape?: Record<string, ZodLike> };
interface ZodLike {
  _zod: { def: ZodDef };
  safeParse(value: unknown): { success: boolean };
  maxLength?: number | null;
  minValue?: number | null;
  maxValue?: number | null;
}

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

/** The schema of a field: wrappers (optional, nullable, default) and transforms taken off. */
function bare(schema: ZodLike): ZodLike {
  let current = schema;
  for (;;) {
    const def = current._zod.def;
    if (WRAPPERS.has(def.type) && def.innerType) current = def.innerType;
    else if (def.type === 'pipe' && def.in) current = def.in;
    else return current;
  }
}

/** The schema of `name` in an object schema (possibly refined or transformed); undefined when not found. */
export function fieldSchema(schema: z.ZodType, name: string): ZodLike | undefined {
  const object = bare(schema as unknown as ZodLike);
  const shape = (object as unknown as { shape?: Record<string, ZodLike> }).shape;
  return shape?.[name];
}

export type FieldKind = 'text' | 'number' | 'boolean' | 'other';

/** What the form should offer for a field and whether it must be filled in. */
export function describeField(
  schema: z.ZodType,
  name: string,
): { kind: FieldKind; required: boolean; maxLength?: number; min?: number; max?: number } {
  const field = fieldSchema(schema, name);
  if (!field) throw new Error(`The form's schema has no field "${name}"`);
  const required = ![undefined, null, ''].some((empty) => field.safeParse(empty).success);
  const inner = bare(field);
  switch (inner._zod.def.type) {
    case 'string':
      return { kind: 'text', required, ...(inner.maxLength != null && { maxLength: inner.maxLength }) };
    case 'number':
      return {
        kind: 'number',
        required,
        ...(inner.minValue != null && Number.isFinite(inner.minValue) && { min: inner.minValue }),
        ...(inner.maxValue != null && Number.isFinite(inner.maxValue) && { max: inner.maxValue }),
      };
    case 'boolean':
      return { kind: 'boolean', required: false };
    default:
      return { kind: 'other', required };
  }
}

interface SchemaFormContext {
  schema: z.ZodType;
  rule: (field: string) => FormRule;
  /** The translated label of a field. */
  label?: (field: string) => string;
  /** Test ids of the generated inputs: `<testId>-<field>`. */
  testId?: string;
}

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

function defaultInput(field: ReturnType<typeof describeField>, testId: string | undefined): ReactNode {
  switch (field.kind) {
    case 'number':
      return <InputNumber min={field.min} max={field.max} style={{ width: '100%' }} data-testid={testId} />;
    case 'boolean':
      return <Switch data-testid={testId} />;
    default:
      return <Input maxLength={field.maxLength} autoComplete="off" data-testid={testId} />;
  }
}
