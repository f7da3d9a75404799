import type { z } from 'zod';

/** What a field of a contracts' zod schema asks of a form: the kind of input, its limits, whether it is required. */

type ZodDef = { type: string; innerType?: ZodLike; in?: ZodLike; shape?: Record<string, ZodLike> };
interface ZodLike {
  _zod: { def: ZodDef };
  safeParse(value: unknown): { success: boolean };
  maxLength?: number | null;
  minValue?: number | null;
  maxValue?: number | null;
  isInt?: boolean;
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
/** A bound the schema sets itself (`int()` alone sets the safe-integer range, which says nothing). */
function bounded(value: number | null | undefined): value is number {
  return value != null && Math.abs(value) < Number.MAX_SAFE_INTEGER;
}

export interface FieldDescription {
  kind: FieldKind;
  /** The schema takes no empty value (undefined, null or ''). */
  required: boolean;
  maxLength?: number;
  min?: number;
  max?: number;
  /** Whole numbers only. */
  integer?: boolean;
}

export function describeField(schema: z.ZodType, name: string): FieldDescription {
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
        ...(bounded(inner.minValue) && { min: inner.minValue }),
        ...(bounded(inner.maxValue) && { max: inner.maxValue }),
        ...(inner.isInt && { integer: true }),
      };
    case 'boolean':
      return { kind: 'boolean', required: false };
    default:
      return { kind: 'other', required };
  }
}
